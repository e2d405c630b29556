package shared

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
)

func IsComparison(op token.Token) bool {
	return IsRelational(op) || op == token.EQL || op == token.NEQ
}

func IsRelational(op token.Token) bool {
	return op == token.LSS || op == token.LEQ || op == token.GTR || op == token.GEQ
}

// SameExpr reports whether two expressions are written the same way.
func SameExpr(a, b ast.Expr) bool {
	return types.ExprString(ast.Unparen(a)) == types.ExprString(ast.Unparen(b))
}

// CarriesItems reports whether t is a channel whose elements carry data.
// Channels of struct{} signal; channels of time.Time and os.Signal deliver
// ticks and signals, and channels of error results, not work items (a
// first-error channel is read once: a blocking send there would hang).
func CarriesItems(t types.Type) bool {
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	elem := ch.Elem()
	if s, ok := elem.Underlying().(*types.Struct); ok && s.NumFields() == 0 {
		return false
	}
	if types.Identical(elem, ErrorType) {
		return false
	}
	if n, ok := types.Unalias(elem).(*types.Named); ok && n.Obj().Pkg() != nil {
		if knowledge.NonItemTypes.HasType(n.Obj().Pkg().Path(), n.Obj().Name()) {
			return false
		}
	}
	return true
}

// IsComputed reports whether evaluating expr does no work worth a goroutine:
// it is call-free (see [code.CallFree]) and makes no function literal.
func (c *Pkg) IsComputed(expr ast.Expr) bool {
	return code.CallFree(c.Pass.TypesInfo, nil, expr) && !code.HasFuncLit(expr)
}

// RefersTo reports whether expr uses any of the objects.
func RefersTo(info *types.Info, expr ast.Expr, objs map[types.Object]ast.Expr) bool {
	return code.AnyNode(expr, nil, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if _, ok := objs[info.Uses[id]]; ok {
				return true
			}
		}
		return false
	})
}

// ReceivedFrom returns the channel a receive expression or a range
// statement receives from, or nil.
func ReceivedFrom(n ast.Node) ast.Expr {
	switch n := n.(type) {
	case *ast.UnaryExpr:
		if n.Op == token.ARROW {
			return n.X
		}
	case *ast.RangeStmt:
		return n.X
	}
	return nil
}

// InOverflowDefault reports whether the statement at cur is a statement of
// the default case of a select that also sends (to ch, when ch is not nil):
// the overflow of a non-blocking send, which the retrysend check reports and
// fixes. Reporting it here too would make two fixes for one statement.
func InOverflowDefault(info *types.Info, cur inspector.Cursor, ch *types.Var) bool {
	clause, ok := cur.Parent().Node().(*ast.CommClause)
	if !ok || clause.Comm != nil {
		return false
	}
	sel, ok := cur.Parent().Parent().Parent().Node().(*ast.SelectStmt)
	if !ok {
		return false
	}
	for _, s := range sel.Body.List {
		if send, ok := s.(*ast.CommClause).Comm.(*ast.SendStmt); ok && (ch == nil || code.Var(info, send.Chan) == ch) {
			return true
		}
	}
	return false
}

// NearestLoop returns the innermost loop around cur in the same function, or
// nil.
func NearestLoop(cur inspector.Cursor) ast.Node {
	for e := range cur.Parent().Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		switch n := e.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return n
		}
		return nil
	}
	return nil
}

// ReceiveIn returns the receive of v := <-ch, v, ok := <-ch or <-ch.
func ReceiveIn(s ast.Stmt) *ast.UnaryExpr {
	var x ast.Expr
	switch s := s.(type) {
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			x = s.Rhs[0]
		}
	case *ast.ExprStmt:
		x = s.X
	}
	if u, ok := ast.Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u
	}
	return nil
}

// IsCount reports whether expr reads a count of work in flight: an integer
// variable or field, an atomic load, or the length of a channel or map.
func (c *Pkg) IsCount(expr ast.Expr) bool {
	info := c.Pass.TypesInfo
	expr = ast.Unparen(expr)
	if call, ok := expr.(*ast.CallExpr); ok {
		if code.BuiltinName(info, call) == "len" && len(call.Args) == 1 {
			if t := info.TypeOf(call.Args[0]); t != nil {
				switch t.Underlying().(type) {
				case *types.Chan, *types.Map:
					return true
				}
			}
			return false
		}
		fn := c.Callee(call)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && strings.HasPrefix(fn.Name(), "Load")
	}
	v := code.Var(info, expr)
	if v == nil {
		return false
	}
	b, ok := v.Type().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// CommRecv returns the receive of a select case's comm: <-ch, v := <-ch,
// v, ok = <-ch.
func CommRecv(comm ast.Stmt) *ast.UnaryExpr {
	if comm == nil {
		return nil
	}
	return ReceiveIn(comm)
}
