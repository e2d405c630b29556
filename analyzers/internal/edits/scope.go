package edits

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// VisibleAt reports whether every variable and package name node uses
// denotes the same object at pos: source copied there means what it meant
// where it was. Fields are reached through their struct and need no check.
func VisibleAt(pass *analysis.Pass, node ast.Node, pos token.Pos) bool {
	scope := pass.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return false
	}
	ok := true
	ast.Inspect(node, func(n ast.Node) bool {
		id, isIdent := n.(*ast.Ident)
		if !isIdent || !ok {
			return ok
		}
		switch obj := pass.TypesInfo.Uses[id].(type) {
		case *types.Var:
			if !obj.IsField() {
				_, at := scope.LookupParent(id.Name, pos)
				ok = at == obj
			}
		case *types.PkgName:
			_, at := scope.LookupParent(id.Name, pos)
			ok = at == obj
		}
		return ok
	})
	return ok
}

// LocalsInScopeAt reports whether every local variable node uses is
// declared before pos in a scope that holds pos. It is a weaker question
// than [VisibleAt]: whether another declaration shadows a name at pos, and
// package-level names, are not looked at.
func LocalsInScopeAt(info *types.Info, node ast.Node, pos token.Pos) bool {
	ok := true
	ast.Inspect(node, func(n ast.Node) bool {
		id, isIdent := n.(*ast.Ident)
		if !isIdent || !ok {
			return ok
		}
		v, isVar := info.Uses[id].(*types.Var)
		if !isVar || v.IsField() || v.Pkg() == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
			return true
		}
		ok = v.Pos() < pos && v.Parent().Contains(pos)
		return ok
	})
	return ok
}
