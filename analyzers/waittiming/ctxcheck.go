package waittiming

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// isContextCheck reports whether fn, a function of this package, only asks
// whether a context is done: its body is a select with a ctx.Done() case
// and an empty default, then returns. It does not block, and its done case
// only keeps the books (counts, logs, calls a hook held in a field) and
// returns. A handler that rejects a request whose context expired while it
// waited calls one between the wait and the log of the rejection: that is a
// check, not work, and the figure logged is the wait.
func (c *env) isContextCheck(fn *types.Func) bool {
	if fn.Pkg() != c.pass.Pkg {
		return false
	}
	decl, ok := c.res.FuncDecl(fn)
	if !ok {
		return false
	}
	info := c.pass.TypesInfo
	checked := false
	for _, st := range decl.Node().(*ast.FuncDecl).Body.List {
		switch st := st.(type) {
		case *ast.SelectStmt:
			if checked || !isDoneOrDefault(info, st) {
				return false
			}
			checked = true
		case *ast.ReturnStmt:
			if !cheapResults(info, st) {
				return false
			}
		default:
			return false
		}
	}
	return checked
}

// isDoneOrDefault reports whether sel is select { case <-ctx.Done(): …;
// default: } whose done case only keeps the books and returns.
func isDoneOrDefault(info *types.Info, sel *ast.SelectStmt) bool {
	if len(sel.Body.List) != 2 {
		return false
	}
	done, dflt := false, false
	for _, s := range sel.Body.List {
		cc := s.(*ast.CommClause)
		if cc.Comm == nil {
			dflt = len(cc.Body) == 0
			continue
		}
		es, ok := cc.Comm.(*ast.ExprStmt)
		if !ok {
			return false
		}
		u, ok := ast.Unparen(es.X).(*ast.UnaryExpr)
		if !ok || u.Op != token.ARROW || !sendselect.IsDone(info, u.X) {
			return false
		}
		done = onlyRejects(info, cc.Body)
	}
	return done && dflt
}

// onlyRejects reports whether stmts only keep the books of a rejection and
// return: counts, logs, hooks held in fields or variables called with no
// arguments, a switch on ctx.Err() that does the same, and returns of cheap
// values.
func onlyRejects(info *types.Info, stmts []ast.Stmt) bool {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.ReturnStmt:
			if !cheapResults(info, st) {
				return false
			}
		case *ast.SwitchStmt:
			if st.Init != nil || st.Tag == nil || !admission.IsCheap(info, st.Tag) {
				return false
			}
			for _, s := range st.Body.List {
				cc := s.(*ast.CaseClause)
				if !code.CallFree(info, nil, cc.List...) || !onlyRejects(info, cc.Body) {
					return false
				}
			}
		case *ast.ExprStmt:
			if sendselect.IsCount(info, st) || sendselect.IsLog(info, st) {
				continue
			}
			if !isHookCall(info, st.X) {
				return false
			}
		case *ast.IncDecStmt:
		default:
			return false
		}
	}
	return true
}

// isHookCall reports whether x calls a function held in a field or variable
// with no arguments (listener.metrics.timeoutRequest()): the counters a
// service wires in, not a declared function that may do anything.
func isHookCall(info *types.Info, x ast.Expr) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 || !isPlainRef(call.Fun) {
		return false
	}
	return code.Var(info, call.Fun) != nil
}

// cheapResults reports whether a return computes its results without work.
func cheapResults(info *types.Info, ret *ast.ReturnStmt) bool {
	for _, r := range ret.Results {
		if !admission.IsCheap(info, r) {
			return false
		}
	}
	return true
}
