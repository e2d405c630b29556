// Package consts evaluates constant expressions through types.Info, never by
// name, so a local variable that shadows a package constant is not mistaken
// for it.
package consts

import (
	"go/ast"
	"go/constant"
	"go/types"
)

// Int returns the value of expr if the type checker found it to be an integer
// constant that fits in an int64.
func Int(info *types.Info, expr ast.Expr) (int64, bool) {
	tv, ok := info.Types[expr]
	if !ok || tv.Value == nil {
		return 0, false
	}
	v := constant.ToInt(tv.Value)
	if v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// Named returns the named constant expr refers to (pkg.C or C), or nil.
func Named(info *types.Info, expr ast.Expr) *types.Const {
	switch e := ast.Unparen(expr).(type) {
	case *ast.Ident:
		c, _ := info.Uses[e].(*types.Const)
		return c
	case *ast.SelectorExpr:
		c, _ := info.Uses[e.Sel].(*types.Const)
		return c
	}
	return nil
}
