package waittiming

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// A timestamp taken after the wait splits a measurement only when it
// measures: a guard that remembers when a request went out, to keep a loop
// from spinning (reqSendTime := time.Now() … if time.Since(reqSendTime) <
// minRetryWait { wait the rest }), records nothing, and the measurement
// that started before the wait still reports the wait as work. NATS's
// stream catch-up takes such a guard after blocking on its semaphore and
// logs "took" from a start before it.

// pacesOnly reports whether the timestamp read at ts, assigned to a local
// variable of fn, is read only to pace: every use is an elapsed time
// (time.Since(t), now.Sub(t)) that is compared, or assigned to a local that
// is only compared or used to compute a pause.
func (c *checker) pacesOnly(ts inspector.Cursor, fn inspector.Cursor) bool {
	info := c.pass.TypesInfo
	v := assignedLocal(info, ts)
	if v == nil {
		return false
	}
	uses := 0
	for id := range fn.Preorder((*ast.Ident)(nil)) {
		if info.Uses[id.Node().(*ast.Ident)] != v {
			continue
		}
		uses++
		call, ok := id.Parent().Node().(*ast.CallExpr)
		if !ok {
			return false
		}
		if start, _, ok := timing.Elapsed(info, call); !ok || ast.Unparen(start) != id.Node() {
			return false
		}
		if !c.onlyPaces(id.Parent(), fn) {
			return false
		}
	}
	return uses > 0
}

// onlyPaces reports whether the duration computed at e is only compared or
// used to compute a pause: directly, or through a local variable it is
// assigned to whose every use is.
func (c *checker) onlyPaces(e inspector.Cursor, fn inspector.Cursor) bool {
	info := c.pass.TypesInfo
	if as, ok := e.Parent().Node().(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && as.Rhs[0] == e.Node() {
		d := localVar(info, as.Lhs[0])
		if d == nil && as.Tok == token.DEFINE {
			d, _ = info.Defs[as.Lhs[0].(*ast.Ident)].(*types.Var)
		}
		if d == nil {
			return false
		}
		for id := range fn.Preorder((*ast.Ident)(nil)) {
			if info.Uses[id.Node().(*ast.Ident)] == d && !pacingUse(info, id) {
				return false
			}
		}
		return true
	}
	return pacingUse(info, e)
}

// pacingUse reports whether the duration at cur is compared (elapsed <
// min), or is an operand of arithmetic handed to a pause (time.After(min -
// elapsed), time.Sleep, a timer's Reset).
func pacingUse(info *types.Info, cur inspector.Cursor) bool {
	for p := cur.Parent(); p.Valid(); p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.ParenExpr:
			continue
		case *ast.BinaryExpr:
			switch n.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
				return true
			case token.ADD, token.SUB:
				continue
			}
			return false
		case *ast.CallExpr:
			fn := code.Callee(info, n)
			return code.IsFunc(fn, "time", "After") || code.IsFunc(fn, "time", "Sleep") || code.IsFunc(fn, "time", "NewTimer") ||
				code.IsMethod(fn, "time", "Timer", "Reset")
		default:
			return false
		}
	}
	return false
}
