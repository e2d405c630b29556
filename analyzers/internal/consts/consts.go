// Package consts evaluates constant expressions through types.Info, never by
// name, so a local variable that shadows a package constant is not mistaken
// for it.
package consts

import (
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
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

// String returns the value of expr if the type checker found it to be a
// string constant.
func String(info *types.Info, expr ast.Expr) (string, bool) {
	tv, ok := info.Types[expr]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// Named returns the named constant expr refers to (pkg.C or C), or nil.
func Named(info *types.Info, expr ast.Expr) *types.Const {
	c, _ := code.Referenced(info, expr).(*types.Const)
	return c
}
