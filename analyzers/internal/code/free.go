package code

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// CallFree reports whether evaluating exprs calls nothing but conversions,
// the builtins min, max, len and cap, and the functions for which allow
// reports true (nil: none), and receives from no channel: it has no effect
// beyond those calls, and gives the same result while the variables stay
// unchanged. A function literal counts as call-free: making one runs none of
// its body (see [HasFuncLit] where a literal matters).
func CallFree(info *types.Info, allow func(*types.Func) bool, exprs ...ast.Expr) bool {
	free := true
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if IsConversion(info, n) {
					return true
				}
				switch BuiltinName(info, n) {
				case "min", "max", "len", "cap":
					return true
				}
				if fn := CalleeFunc(info, n); fn != nil && allow != nil && allow(fn) {
					return true
				}
				free = false
			case *ast.UnaryExpr:
				if n.Op == token.ARROW {
					free = false
				}
			case *ast.FuncLit:
				return false
			}
			return free
		})
	}
	return free
}

// HasFuncLit reports whether any of exprs holds a function literal.
func HasFuncLit(exprs ...ast.Expr) bool {
	for _, e := range exprs {
		if AnyNode(e, nil, IsFuncLit) {
			return true
		}
	}
	return false
}

// AnyNode reports whether f holds for a node in n, looking into no node for
// which skip reports true (nil: none), such as the function literals or the
// go statements whose code does not run as part of n.
func AnyNode(n ast.Node, skip, f func(ast.Node) bool) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if found || m == nil || (skip != nil && skip(m)) {
			return false
		}
		found = f(m)
		return !found
	})
	return found
}

// Holds reports whether the syntax under cur holds a node of one of the
// types, asked of the inspector's index: a subtree without such a node is
// skipped whole, so a body with no send answers at once.
func Holds(cur inspector.Cursor, types ...ast.Node) bool {
	for range cur.Preorder(types...) {
		return true
	}
	return false
}
