package code

import (
	"go/ast"
	"go/types"

	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
)

// SetLimit recognises g.SetLimit(n) on an errgroup.Group: it returns the
// group's variable (nil when the receiver is not a variable or field) and n.
// Whether the call puts a limit in force is [SetsLimit]'s question.
func SetLimit(info *types.Info, call *ast.CallExpr) (g *types.Var, n ast.Expr, ok bool) {
	if CalleeName(call) != "SetLimit" || len(call.Args) != 1 {
		return nil, nil, false
	}
	if !IsMethod(CalleeFunc(info, call), ErrgroupPath, "Group", "SetLimit") {
		return nil, nil, false
	}
	if sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr); isSel {
		g = Var(info, sel.X)
	}
	return g, call.Args[0], true
}

// SetsLimit reports whether SetLimit(n) limits the group: a negative n
// (SetLimit(-1)) removes the limit instead.
func SetsLimit(info *types.Info, n ast.Expr) bool {
	v, ok := consts.Int(info, n)
	return !ok || v >= 0
}
