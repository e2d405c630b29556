package code

import (
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// EnclosingFunc returns the innermost function declaration or literal that
// strictly encloses cur, or an invalid cursor.
func EnclosingFunc(cur inspector.Cursor) inspector.Cursor {
	for enc := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		if enc != cur {
			return enc
		}
	}
	return inspector.Cursor{}
}

// FuncBody returns the body of a function declaration or literal, or nil.
func FuncBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.FuncDecl:
		return n.Body
	case *ast.FuncLit:
		return n.Body
	}
	return nil
}

// FuncSignature returns the signature of a function declaration or literal,
// or nil.
func FuncSignature(info *types.Info, n ast.Node) *types.Signature {
	var t types.Type
	switch n := n.(type) {
	case *ast.FuncDecl:
		if obj := info.Defs[n.Name]; obj != nil {
			t = obj.Type()
		}
	case *ast.FuncLit:
		t = info.TypeOf(n)
	}
	sig, _ := t.(*types.Signature)
	return sig
}

// StmtOf returns the innermost statement around (or at) cur, or an invalid
// cursor.
func StmtOf(cur inspector.Cursor) inspector.Cursor {
	for c := cur; c.Valid() && c.Node() != nil; c = c.Parent() {
		if _, ok := c.Node().(ast.Stmt); ok {
			return c
		}
	}
	return inspector.Cursor{}
}

// Terminates reports whether a statement list ends by leaving it for good:
// a return, a panic, or (with branches) a break, continue or goto.
func Terminates(list []ast.Stmt, branches bool) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return branches && s.Tok != token.FALLTHROUGH
	case *ast.ExprStmt:
		if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// JumpedOver reports whether a variable declared at pos, in the function
// body body, would be jumped over by a goto: a goto before pos to a label
// after pos in the innermost block around pos (or a block nested in it),
// which the compiler rejects ("goto L jumps over variable declaration").
// A fix that declares a variable where one did not exist asks this first.
func JumpedOver(info *types.Info, body *ast.BlockStmt, pos token.Pos) bool {
	if body == nil {
		return false
	}
	// The declaration's scope ends with the innermost block around pos.
	end := body.End()
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		switch n.(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			end = n.End()
		}
		return true
	})
	jumped := false
	ast.Inspect(body, func(n ast.Node) bool {
		br, ok := n.(*ast.BranchStmt)
		if !ok || br.Tok != token.GOTO || br.Label == nil || br.Pos() >= pos {
			return !jumped
		}
		if l := info.Uses[br.Label]; l != nil && pos < l.Pos() && l.Pos() < end {
			jumped = true
		}
		return !jumped
	})
	return jumped
}

// IsDeferredLit reports whether the function literal at cur is called by a
// defer statement: defer func() {...}().
func IsDeferredLit(cur inspector.Cursor) bool {
	call, ok := cur.Parent().Node().(*ast.CallExpr)
	if !ok || call.Fun != cur.Node() {
		return false
	}
	_, ok = cur.Parent().Parent().Node().(*ast.DeferStmt)
	return ok
}

// IsSpawnedLit reports whether the function literal at cur runs as a
// goroutine: started by a go statement, or handed to a method named Go or
// TryGo (errgroup.Group, sync.WaitGroup, worker pools).
func IsSpawnedLit(cur inspector.Cursor) bool {
	call, ok := cur.Parent().Node().(*ast.CallExpr)
	if !ok {
		return false
	}
	if call.Fun == cur.Node() {
		_, ok := cur.Parent().Parent().Node().(*ast.GoStmt)
		return ok
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && (sel.Sel.Name == "Go" || sel.Sel.Name == "TryGo")
}

// Assignee returns the expression the value at cur is assigned to: the
// left-hand side of an assignment or declaration, or the key of a keyed
// composite-literal element; nil otherwise.
func Assignee(cur inspector.Cursor) ast.Expr {
	value := cur.Node()
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == len(p.Rhs) {
			for i, rhs := range p.Rhs {
				if rhs == value {
					return p.Lhs[i]
				}
			}
		}
	case *ast.ValueSpec:
		if len(p.Names) == len(p.Values) {
			for i, rhs := range p.Values {
				if rhs == value {
					return p.Names[i]
				}
			}
		}
	case *ast.KeyValueExpr:
		if key, ok := p.Key.(*ast.Ident); ok && p.Value == value {
			return key
		}
	}
	return nil
}

// AssignedTo returns the variable or field the value at cur is assigned to,
// declared with, or given as in a keyed composite literal.
func AssignedTo(info *types.Info, cur inspector.Cursor) *types.Var {
	if lhs := Assignee(cur); lhs != nil {
		return Var(info, lhs)
	}
	return nil
}

// AssignedIn returns the variables that node, outside skip (nil: nowhere),
// changes: assigns with =, op= or :=, increments, assigns as range key or
// value, or takes the address of (after &x, anything may change x).
// A variable that := declares counts: the node gives it its value.
func AssignedIn(info *types.Info, node, skip ast.Node) map[types.Object]bool {
	assigned := make(map[types.Object]bool)
	eachAssigned(info, node, skip, true, func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if obj := info.ObjectOf(id); obj != nil {
				assigned[obj] = true
			}
		}
	})
	return assigned
}

// ReassignedIn returns the variables and fields that node changes after
// their declaration: assigns with = or op=, increments, assigns as the key or
// value of a range with =, or takes the address of. Unlike AssignedIn, a
// variable that node declares (:=, range :=) is not counted: a goroutine that
// captures it sees a value no later statement of the node changes.
func ReassignedIn(info *types.Info, node ast.Node) map[*types.Var]bool {
	assigned := make(map[*types.Var]bool)
	eachAssigned(info, node, nil, false, func(e ast.Expr) {
		if v := Var(info, e); v != nil {
			assigned[v] = true
		}
	})
	return assigned
}

// eachAssigned calls mark with every expression node (outside skip) assigns
// to, increments, ranges into or takes the address of; with declarations,
// also the variables := and range := declare.
func eachAssigned(info *types.Info, node, skip ast.Node, declarations bool, mark func(ast.Expr)) {
	ast.Inspect(node, func(n ast.Node) bool {
		if skip != nil && n == skip {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && !declarations && n.Tok == token.DEFINE && info.Defs[id] != nil {
					continue // a new variable, not an assignment
				}
				mark(lhs)
			}
		case *ast.IncDecStmt:
			mark(n.X)
		case *ast.RangeStmt:
			if declarations || n.Tok == token.ASSIGN {
				if n.Key != nil {
					mark(n.Key)
				}
				if n.Value != nil {
					mark(n.Value)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				mark(n.X)
			}
		}
		return true
	})
}

// Assigns reports whether node changes v, as AssignedIn decides it.
func Assigns(info *types.Info, node ast.Node, v types.Object) bool {
	return AssignedIn(info, node, nil)[v]
}

// EnclosingDecl returns the function declaration around cur, through any
// function literals, and whether there is one.
func EnclosingDecl(cur inspector.Cursor) (inspector.Cursor, bool) {
	for d := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		return d, true
	}
	return inspector.Cursor{}, false
}

// Inside reports whether pos lies within n.
func Inside(pos token.Pos, n ast.Node) bool {
	return n.Pos() <= pos && pos < n.End()
}

// ArgIndex returns the index of arg among call's arguments, or -1.
func ArgIndex(call *ast.CallExpr, arg ast.Node) int {
	for i, a := range call.Args {
		if a == arg {
			return i
		}
	}
	return -1
}

// InSelectWithDefault reports whether the channel operation at cur (a send
// statement, or a receive expression) is a case of a select that has a
// default: it tries, it does not wait.
func InSelectWithDefault(cur inspector.Cursor) bool {
	child := cur.Node()
	for p := cur.Parent(); p.Valid(); child, p = p.Node(), p.Parent() {
		switch n := p.Node().(type) {
		case *ast.CommClause:
			sel, ok := p.Parent().Parent().Node().(*ast.SelectStmt)
			return ok && n.Comm == child && HasDefault(sel)
		case *ast.ExprStmt, *ast.AssignStmt, *ast.ParenExpr:
			// <-ch, v := <-ch and v, ok = <-ch wrap a receive case.
		default:
			return false
		}
	}
	return false
}

// IsSelectComm reports whether the send or receive at cur is (part of) the
// communication of a select case.
func IsSelectComm(cur inspector.Cursor) bool {
	for p := cur.Parent(); p.Valid(); p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.CommClause:
			return n.Comm != nil && n.Comm.Pos() <= cur.Node().Pos() && cur.Node().End() <= n.Comm.End()
		case *ast.ExprStmt, *ast.AssignStmt, *ast.ParenExpr, *ast.SendStmt:
			continue
		}
		return false
	}
	return false
}

// HasDefault reports whether sel has a default case.
func HasDefault(sel *ast.SelectStmt) bool {
	for _, s := range sel.Body.List {
		if cc, ok := s.(*ast.CommClause); ok && cc.Comm == nil {
			return true
		}
	}
	return false
}

// ReceivedFrom returns the channel expression of a receive (<-ch), or nil.
func ReceivedFrom(e ast.Expr) ast.Expr {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u.X
	}
	return nil
}

// IsStd reports whether the package of pass is part of the standard
// library: outside any module, with its files inside GOROOT. A tool that
// does not know GOROOT treats every package as not std.
func IsStd(pass *analysis.Pass) bool {
	if pass.Module != nil && pass.Module.Path != "" && pass.Module.Path != "std" {
		return false
	}
	path := pass.Pkg.Path()
	if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
		return false
	}
	root := build.Default.GOROOT
	if root == "" || len(pass.Files) == 0 {
		return false
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	dir := filepath.Join(root, "src", filepath.FromSlash(path))
	return filepath.Dir(name) == dir
}

// IsStdPath reports whether the package with the given import path is part
// of the standard library: no dot in its first element, and a directory of
// that name in GOROOT. A tool that does not know GOROOT treats no package as
// std. The answer for each path is computed once.
func IsStdPath(path string) bool {
	if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
		return false
	}
	if v, ok := stdPaths.Load(path); ok {
		return v.(bool)
	}
	root := build.Default.GOROOT
	std := false
	if root != "" {
		fi, err := os.Stat(filepath.Join(root, "src", filepath.FromSlash(path)))
		std = err == nil && fi.IsDir()
	}
	stdPaths.Store(path, std)
	return std
}

var stdPaths sync.Map // import path → bool

// AnyCall reports whether f holds for a call in n, looking into no node for
// which skip reports true (nil: none), such as the function literals or the
// go statements whose calls do not run as part of n.
func AnyCall(n ast.Node, skip func(ast.Node) bool, f func(*ast.CallExpr) bool) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if found || m == nil || (skip != nil && skip(m)) {
			return false
		}
		if call, ok := m.(*ast.CallExpr); ok && f(call) {
			found = true
		}
		return !found
	})
	return found
}

// IsFuncLit reports whether n is a function literal, for AnyCall.
func IsFuncLit(n ast.Node) bool { _, ok := n.(*ast.FuncLit); return ok }

// IsGoStmt reports whether n is a go statement, for AnyCall.
func IsGoStmt(n ast.Node) bool { _, ok := n.(*ast.GoStmt); return ok }

// LeavesLoop reports whether list, a statement list inside the loop at loop
// (a for or range statement), ends by leaving that loop: a return, a panic,
// a break of the loop, or a break, continue or goto aimed at a statement
// outside it. inSwitch says that list sits in a switch or select inside the
// loop, where a break without a label leaves only that.
func LeavesLoop(info *types.Info, loop inspector.Cursor, list []ast.Stmt, inSwitch bool) bool {
	if !Terminates(list, true) {
		return false
	}
	br, ok := list[len(list)-1].(*ast.BranchStmt)
	if !ok {
		return true // a return or a panic
	}
	if br.Label == nil {
		return br.Tok == token.BREAK && !inSwitch
	}
	target, _ := info.Uses[br.Label].(*types.Label)
	if target == nil {
		return false
	}
	if l, ok := loop.Parent().Node().(*ast.LabeledStmt); ok && info.Defs[l.Label] == target {
		return br.Tok == token.BREAK // continue L starts the next iteration
	}
	return !Inside(target.Pos(), loop.Node())
}

// InGoroutine reports whether the code at cur runs in a goroutine of its
// own: in a function literal started by go or handed to a Go method (see
// [IsSpawnedLit]), or in the body of a declared function for which started
// reports true (a go target; each check says which calls start one).
func InGoroutine(info *types.Info, cur inspector.Cursor, started func(*types.Func) bool) bool {
	for enc := range cur.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		switch fn := enc.Node().(type) {
		case *ast.FuncLit:
			if IsSpawnedLit(enc) {
				return true
			}
		case *ast.FuncDecl:
			obj, _ := info.Defs[fn.Name].(*types.Func)
			return obj != nil && started(obj)
		}
	}
	return false
}

// StmtCall returns the call s makes when s is an expression statement of a
// call (f(x), x.m()), or nil.
func StmtCall(s ast.Stmt) *ast.CallExpr {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return nil
	}
	call, _ := ast.Unparen(es.X).(*ast.CallExpr)
	return call
}
