package code_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

const src = `package p

import (
	"context"
	"time"
)

type T struct{ f int }

func (t *T) M(ctx context.Context) (err error) {
	x := 1
	x++
	y, z := 2, 3
	var w int
	p := &w
	for i := range 3 {
		_ = i
	}
	_, _, _ = y, z, p
	go func() {
		t.f = x
	}()
	defer func() {}()
	select {
	case <-ctx.Done():
	default:
	}
	if err != nil {
		return err
	}
	panic("no")
}

var now = time.Now()
`

func load(t *testing.T) (*token.FileSet, *ast.File, *types.Info, *types.Package) {
	t.Helper()
	return loadSrc(t, src)
}

// loadSrc parses and type-checks src, one file of package p.
func loadSrc(t *testing.T, src string) (*token.FileSet, *ast.File, *types.Info, *types.Package) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types: make(map[ast.Expr]types.TypeAndValue), Defs: make(map[*ast.Ident]types.Object),
		Uses: make(map[*ast.Ident]types.Object), Selections: make(map[*ast.SelectorExpr]*types.Selection),
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return fset, f, info, pkg
}

func TestAssignedIn(t *testing.T) {
	_, f, info, _ := load(t)
	decl := f.Decls[2].(*ast.FuncDecl)
	var names []string
	for obj := range code.AssignedIn(info, decl.Body, nil) {
		names = append(names, obj.Name())
	}
	slices.Sort(names)
	// := declares and assigns, x++ and range assign, &w may assign; the
	// field t.f is not a variable of the function, and _ is nothing.
	want := []string{"i", "p", "w", "x", "y", "z"}
	if !slices.Equal(names, want) {
		t.Errorf("AssignedIn = %v, want %v", names, want)
	}
	x := info.Defs[decl.Body.List[0].(*ast.AssignStmt).Lhs[0].(*ast.Ident)]
	if !code.Assigns(info, decl.Body.List[1], x) || code.Assigns(info, decl.Body.List[2], x) {
		t.Error("Assigns: x++ assigns x; y, z := 2, 3 does not")
	}
}

func TestTerminatesAndSelect(t *testing.T) {
	_, f, _, _ := load(t)
	body := f.Decls[2].(*ast.FuncDecl).Body
	if !code.Terminates(body.List, false) {
		t.Error("a list ending in panic terminates")
	}
	var sel *ast.SelectStmt
	var ifs *ast.IfStmt
	for _, st := range body.List {
		switch st := st.(type) {
		case *ast.SelectStmt:
			sel = st
		case *ast.IfStmt:
			ifs = st
		}
	}
	if !code.HasDefault(sel) {
		t.Error("the select has a default")
	}
	if !code.Terminates(ifs.Body.List, false) || code.Terminates(body.List[:2], true) {
		t.Error("return terminates; x := 1; x++ does not")
	}
	br := []ast.Stmt{&ast.BranchStmt{Tok: token.BREAK}}
	if code.Terminates(br, false) || !code.Terminates(br, true) {
		t.Error("a break terminates only when branches count")
	}
}

func TestCursors(t *testing.T) {
	fset, f, info, _ := load(t)
	insp := inspector.New([]*ast.File{f})
	var lits, deferred, spawned int
	for cur := range insp.Root().Preorder((*ast.FuncLit)(nil)) {
		lits++
		if code.IsDeferredLit(cur) {
			deferred++
		}
		if code.IsSpawnedLit(cur) {
			spawned++
			// The literal's own function is M; the assignment inside it
			// is enclosed by the literal.
			if fn := code.EnclosingFunc(cur); fn.Node().(*ast.FuncDecl).Name.Name != "M" {
				t.Errorf("EnclosingFunc of the literal = %v", fn.Node())
			}
			for as := range cur.Preorder((*ast.AssignStmt)(nil)) {
				if code.EnclosingFunc(as) != cur {
					t.Errorf("%s: EnclosingFunc is not the literal", fset.Position(as.Node().Pos()))
				}
				if s := code.StmtOf(as); s != as {
					t.Error("StmtOf a statement is the statement")
				}
			}
		}
	}
	if lits != 2 || deferred != 1 || spawned != 1 {
		t.Errorf("literals %d, deferred %d, spawned %d; want 2, 1, 1", lits, deferred, spawned)
	}
	for cur := range insp.Root().Preorder((*ast.FuncDecl)(nil)) {
		sig := code.FuncSignature(info, cur.Node())
		if sig == nil || sig.Params().Len() != 1 || !code.IsContext(sig.Params().At(0).Type()) || !code.IsError(sig.Results().At(0).Type()) {
			t.Errorf("FuncSignature = %v", sig)
		}
	}
}

func TestTypes(t *testing.T) {
	_, f, info, pkg := load(t)
	now := pkg.Scope().Lookup("now")
	if !code.IsTime(now.Type()) || code.IsExactly(types.NewPointer(now.Type()), "time", "Time") || !code.IsNamed(types.NewPointer(now.Type()), "time", "Time") {
		t.Error("IsTime / IsExactly / IsNamed disagree on time.Time and *time.Time")
	}
	m := pkg.Scope().Lookup("T").Type().(*types.Named).Method(0)
	if !code.IsMethod(m, "p", "T", "M") || code.IsFunc(m, "p", "M") || code.DisplayName(m) != "(*p.T).M" {
		t.Errorf("method predicates on %v: DisplayName %q", m, code.DisplayName(m))
	}
	if !code.Imports(pkg, "time") || code.Imports(pkg, "fmt") {
		t.Error("Imports")
	}
	call := f.Decls[3].(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values[0].(*ast.CallExpr)
	if fn := code.Callee(info, call); !code.IsFunc(fn, "time", "Now") || code.CalleeName(call) != "Now" {
		t.Errorf("Callee of time.Now() = %v", fn)
	}
}

func TestReassignedIn(t *testing.T) {
	_, f, info, _ := load(t)
	var names []string
	for v := range code.ReassignedIn(info, f.Decls[2].(*ast.FuncDecl).Body) {
		names = append(names, v.Name())
	}
	slices.Sort(names)
	// x++ and &w change variables declared before; := and range := only
	// declare; t.f = x changes the field f.
	if want := []string{"f", "w", "x"}; !slices.Equal(names, want) {
		t.Errorf("ReassignedIn = %v, want %v", names, want)
	}
}

func TestIsStdPath(t *testing.T) {
	for path, want := range map[string]bool{
		"io":              true,
		"net/http":        true,
		"resolverpool/a":  false, // a GOPATH-style package with no dot
		"example.com/x/y": false,
	} {
		if got := code.IsStdPath(path); got != want {
			t.Errorf("IsStdPath(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestAnyCall(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", `package p
func f() {
	go g()
	func() { h() }()
}`, 0)
	if err != nil {
		t.Fatal(err)
	}
	named := func(name string) func(*ast.CallExpr) bool {
		return func(c *ast.CallExpr) bool { return code.CalleeName(c) == name }
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	for _, tc := range []struct {
		name string
		skip func(ast.Node) bool
		want bool
	}{
		{"g", nil, true},
		{"g", code.IsGoStmt, false},
		{"h", code.IsGoStmt, true},
		{"h", code.IsFuncLit, false},
		{"k", nil, false},
	} {
		if got := code.AnyCall(body, tc.skip, named(tc.name)); got != tc.want {
			t.Errorf("AnyCall(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestFuncValue(t *testing.T) {
	_, f, info, _ := load(t)
	var got []string
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := code.FuncValue(info, call.Fun); fn != nil {
				got = append(got, fn.Name())
			} else {
				got = append(got, "-")
			}
		}
		return true
	})
	// ctx.Done is a method, panic a builtin, the literals are not declared
	// functions, time.Now a function of another package.
	want := []string{"-", "-", "Done", "-", "Now"}
	if !slices.Equal(got, want) {
		t.Errorf("FuncValue of the calls = %v, want %v", got, want)
	}
}

func TestJumpedOver(t *testing.T) {
	const src = `package p

func f(skip bool) {
	if skip {
		goto out
	}
	println("a") // before: between the goto and its label
	{
		println("b") // in a block the label is not in
	}
out:
	println("c") // after the label
	if skip {
		goto back
	}
	println("d")
back:
}
`
	f, info := checkSource(t, src)
	body := f.Decls[0].(*ast.FuncDecl).Body
	at := func(text string) token.Pos {
		for i := range len(src) - len(text) {
			if src[i:i+len(text)] == text {
				return f.FileStart + token.Pos(i)
			}
		}
		t.Fatalf("%q not in source", text)
		return token.NoPos
	}
	for _, tc := range []struct {
		at   string
		want bool
	}{
		{"println(\"a\")", true},  // goto out jumps from before it to after it
		{"println(\"b\")", false}, // its block ends before the label
		{"println(\"c\")", false}, // goto out lands before it; goto back is after it
		{"println(\"d\")", true},  // goto back jumps from before it to after it
	} {
		if got := code.JumpedOver(info, body, at(tc.at)); got != tc.want {
			t.Errorf("JumpedOver at %s = %v, want %v", tc.at, got, tc.want)
		}
	}
}
