package code

import (
	"go/ast"
	"go/constant"
	"go/types"
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
	tv, ok := info.Types[n]
	return !ok || tv.Value == nil || tv.Value.Kind() != constant.Int || constant.Sign(tv.Value) >= 0
}
