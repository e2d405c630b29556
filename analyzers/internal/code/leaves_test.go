package code_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

func TestLeavesLoop(t *testing.T) {
	const src = `package p

func f(ch chan int, ok bool) {
outer:
	for {
	loop:
		for range ch {
			if ok { return }
			if ok { panic("x") }
			if ok { break }
			if ok { break loop }
			if ok { continue loop }
			if ok { continue outer }
			if ok { break outer }
			if ok { goto done }
			if ok { continue }
			if ok { println() }
			select {
			case <-ch:
				if ok { break }
			}
		}
	}
done:
}
`
	f, info := checkSource(t, src)
	root := inspector.New([]*ast.File{f}).Root()
	var loop inspector.Cursor
	for c := range root.Preorder((*ast.RangeStmt)(nil)) {
		loop = c
	}
	var got []bool
	for c := range loop.Preorder((*ast.IfStmt)(nil)) {
		_, inSelect := c.Parent().Node().(*ast.CommClause)
		got = append(got, code.LeavesLoop(info, loop, c.Node().(*ast.IfStmt).Body.List, inSelect))
	}
	// return, panic, break, break loop, continue loop, continue outer,
	// break outer, goto done, continue, println, break in a select.
	want := []bool{true, true, true, true, false, true, true, true, false, false, false}
	if len(got) != len(want) {
		t.Fatalf("%d ifs, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("if %d: LeavesLoop = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestCallFreeAndSetLimit(t *testing.T) {
	_, f, info, _ := load(t)
	var lit *ast.FuncLit
	ast.Inspect(f, func(n ast.Node) bool {
		if l, ok := n.(*ast.FuncLit); ok && lit == nil {
			lit = l
		}
		return true
	})
	if !code.CallFree(info, nil, lit) || !code.HasFuncLit(lit) {
		t.Errorf("a function literal is call-free and is one")
	}
	now := f.Decls[len(f.Decls)-1].(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values[0]
	if code.CallFree(info, nil, now) {
		t.Errorf("CallFree(time.Now()) = true")
	}
	inTime := func(fn *types.Func) bool { return fn.Pkg().Path() == "time" }
	if !code.CallFree(info, inTime, now) {
		t.Errorf("CallFree(time.Now(), time allowed) = false")
	}
	if _, _, ok := code.SetLimit(info, now.(*ast.CallExpr)); ok {
		t.Errorf("SetLimit(time.Now()) = true")
	}
}

// checkSource parses and type-checks src, which imports nothing, recording
// definitions and uses.
func checkSource(t *testing.T, src string) (*ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: make(map[*ast.Ident]types.Object), Uses: make(map[*ast.Ident]types.Object)}
	if _, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	return f, info
}
