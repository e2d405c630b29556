package unboundedqueue

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// lengths answers whether an expression reads a queue's length or a count:
// the questions the queue kinds ask of a guard.
type lengths struct {
	sh   *shared.Pkg
	pass *analysis.Pass
}

// isCounter reports whether expr is an integer field or package variable: a
// comparison with one (q.n >= q.max, pending > limit) is how queues that
// count their items bound them.
func (c lengths) isCounter(expr ast.Expr) bool {
	v := code.Var(c.pass.TypesInfo, expr)
	if !c.sh.IsSharedVar(v) {
		return false
	}
	b, ok := v.Type().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// mentionsLength reports whether expr contains len(q), cap(q) or q.Len() for
// the queue variable v, or a call of a function of the package that returns
// one of these (a deferredCount() method returning l.list.Len(), up to two
// such calls deep).
func (c lengths) mentionsLength(expr ast.Expr, v *types.Var) bool {
	return c.mentionsLengthDepth(expr, v, 0)
}

func (c lengths) mentionsLengthDepth(expr ast.Expr, v *types.Var, depth int) bool {
	info := c.pass.TypesInfo
	found := false
	ast.Inspect(expr, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		switch code.BuiltinName(info, call) {
		case "len", "cap":
			if len(call.Args) == 1 && code.Var(info, call.Args[0]) == v {
				found = true
			}
		case "":
			if isMethodOn(info, call, v, "Len") {
				found = true
			} else if depth < 2 && len(call.Args) == 0 {
				found = c.returnsLength(c.sh.Callee(call), v, depth+1)
			}
		}
		return !found
	})
	return found
}

// returnsLength reports whether fn, a function of the package, returns the
// length of the queue v in one of its return statements.
func (c lengths) returnsLength(fn *types.Func, v *types.Var, depth int) bool {
	d, ok := c.sh.Res.FuncDecl(fn)
	if !ok {
		return false
	}
	for cur := range d.Preorder((*ast.ReturnStmt)(nil)) {
		for _, r := range cur.Node().(*ast.ReturnStmt).Results {
			if c.mentionsLengthDepth(r, v, depth) {
				return true
			}
		}
	}
	return false
}

// isMethodOn reports whether call calls one of the named methods on v.
func isMethodOn(info *types.Info, call *ast.CallExpr, v *types.Var, names ...string) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || code.Var(info, sel.X) != v {
		return false
	}
	for _, name := range names {
		if sel.Sel.Name == name {
			return true
		}
	}
	return false
}

// isConst reports whether expr is a constant with the exact value val.
func isConst(info *types.Info, expr ast.Expr, val string) bool {
	tv, ok := info.Types[expr]
	return ok && tv.Value != nil && tv.Value.ExactString() == val
}
