package spawn

import (
	"go/ast"
	"go/token"
	"go/types"
	"go/version"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// stability knows which variables keep their value between a spawn and the
// moment its goroutine reads them.
type stability struct {
	c        fixer
	fn       ast.Node
	loop     ast.Node
	spawn    token.Pos
	oldLoops bool                // the file predates per-iteration loop variables (Go 1.22)
	assigned map[*types.Var]bool // assigned within the loop, or after the spawn
	headers  map[*types.Var]bool // declared by the header of a loop around the spawn
}

func (c fixer) stability(fn, loop, spawnCur inspector.Cursor, file *ast.File) *stability {
	info := c.pass.TypesInfo
	st := &stability{
		c:       c,
		fn:      fn.Node(),
		loop:    loop.Node(),
		spawn:   spawnCur.Node().Pos(),
		headers: make(map[*types.Var]bool),
	}
	v := info.FileVersions[file]
	if v == "" {
		v = c.pass.Pkg.GoVersion()
	}
	st.oldLoops = v != "" && version.Compare(v, "go1.22") < 0

	st.assigned = code.ReassignedIn(info, loop.Node())
	for v := range changedInPlace(info, loop.Node()) {
		st.assigned[v] = true
	}
	for l := range spawnCur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
		if l.Node().Pos() < fn.Node().Pos() {
			break
		}
		switch n := l.Node().(type) {
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						if v, ok := info.Defs[id].(*types.Var); ok {
							st.headers[v] = true
						}
					}
				}
			}
		case *ast.ForStmt:
			if init, ok := n.Init.(*ast.AssignStmt); ok && init.Tok == token.DEFINE {
				for _, e := range init.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						if v, ok := info.Defs[id].(*types.Var); ok {
							st.headers[v] = true
						}
					}
				}
			}
		}
	}
	return st
}

// check reports whether expr can be evaluated inside the goroutine with the
// result the spawn would have had, and which loop variables must be copied
// for that.
func (st *stability) check(expr ast.Expr) (stable bool, copies []*types.Var) {
	info := st.c.pass.TypesInfo
	stable = true
	ast.Inspect(expr, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, ok := info.Types[n.Fun]; !ok || !tv.IsType() {
				stable = false
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				stable = false
			}
		case *ast.FuncLit, *ast.StarExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.SliceExpr, *ast.TypeAssertExpr:
			if tv, ok := info.Types[n.(ast.Expr)]; ok && tv.IsType() {
				return false
			}
			if _, generic := n.(*ast.IndexExpr); generic && isInstantiation(info, n.(ast.Expr)) {
				return false
			}
			stable = false // reads memory that may change before the goroutine runs
		case *ast.Ident:
			v, ok := info.Uses[n].(*types.Var)
			if !ok || v.IsField() || v.Parent() == st.c.pass.Pkg.Scope() || v.Pos() < st.fn.Pos() || v.Pos() >= st.fn.End() {
				return true // a constant, a function, a field, package state
			}
			switch {
			case st.headers[v] && st.oldLoops:
				copies = append(copies, v)
			case st.assigned[v] && (v.Pos() < st.loop.Pos() || !code.Inside(v.Pos(), loopBody(st.loop))):
				stable = false // changes every iteration; the goroutine would see a later value
			case st.assigned[v] && st.assignedAfterSpawn(v):
				stable = false
			}
		}
		return stable
	})
	return stable, copies
}

// assignedAfterSpawn reports whether v is assigned in the loop after the
// spawn, whole or through a field or element it holds by value (v.n++).
func (st *stability) assignedAfterSpawn(v *types.Var) bool {
	info := st.c.pass.TypesInfo
	found := false
	changes := func(e ast.Expr) bool { return code.Var(info, e) == v || valueRoot(info, e) == v }
	ast.Inspect(st.loop, func(n ast.Node) bool {
		if n == nil || n.Pos() <= st.spawn {
			return !found
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				found = found || changes(lhs)
			}
		case *ast.IncDecStmt:
			found = found || changes(n.X)
		}
		return !found
	})
	return found
}

// changedInPlace returns the local variables that node changes through a
// field or array element they hold by value: j.id++, p.pos.x = 0.
func changedInPlace(info *types.Info, node ast.Node) map[*types.Var]bool {
	out := make(map[*types.Var]bool)
	ast.Inspect(node, func(n ast.Node) bool {
		var lhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs = n.Lhs
		case *ast.IncDecStmt:
			lhs = []ast.Expr{n.X}
		}
		for _, e := range lhs {
			if v := valueRoot(info, e); v != nil {
				out[v] = true
			}
		}
		return true
	})
	return out
}

// valueRoot returns the local variable at the root of x.f.g or x[i] when
// every step goes through a value (a struct or an array, no pointer, slice
// or map): changing the expression changes that variable. Otherwise nil.
func valueRoot(info *types.Info, e ast.Expr) *types.Var {
	for {
		var x ast.Expr
		switch n := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			x = n.X
		case *ast.IndexExpr:
			x = n.X
		default:
			return nil
		}
		t := info.TypeOf(x)
		if t == nil {
			return nil
		}
		switch t.Underlying().(type) {
		case *types.Struct, *types.Array:
		default:
			return nil
		}
		if id, ok := ast.Unparen(x).(*ast.Ident); ok {
			v, _ := info.Uses[id].(*types.Var)
			if v != nil && code.IsLocal(v) {
				return v
			}
			return nil
		}
		e = x
	}
}

// isInstantiation reports whether expr instantiates a generic function.
func isInstantiation(info *types.Info, expr ast.Expr) bool {
	var id *ast.Ident
	switch e := ast.Unparen(expr).(type) {
	case *ast.IndexExpr:
		id, _ = ast.Unparen(e.X).(*ast.Ident)
		if sel, ok := ast.Unparen(e.X).(*ast.SelectorExpr); ok {
			id = sel.Sel
		}
	case *ast.IndexListExpr:
		id, _ = ast.Unparen(e.X).(*ast.Ident)
		if sel, ok := ast.Unparen(e.X).(*ast.SelectorExpr); ok {
			id = sel.Sel
		}
	}
	if id == nil {
		return false
	}
	_, ok := info.Instances[id]
	return ok
}
