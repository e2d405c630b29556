package spawn

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// Goroutines left waiting for a signal: a function makes a channel, starts
// a goroutine that first waits to receive from it (<-done, v := <-start:
// a cleanup or a follow-up run once the function says so), and can return
// without sending on it or closing it — a return comes first on a path the
// go statement is on, or the send or close is a case of a select whose
// other case returns. The goroutine then waits forever: one more per call
// that returns so. A close deferred right after the make, or any send or
// close the function defers, signals on every path.
//
// The channel must be the function's own: made by it, used there only to
// send, close, ask len or cap of, and received from only by the
// goroutine's literal, at the top of its body, as a statement of its own
// (a select may give up on another case).

// unsignalledWaiters reports the goroutines that wait on a channel their
// function may return without signalling.
func (c requestSpawns) unsignalledWaiters() {
	for cur, fn := range c.repeatedGoStmts() {
		gs := cur.Node().(*ast.GoStmt)
		lit, ok := ast.Unparen(gs.Call.Fun).(*ast.FuncLit)
		if !ok || c.reported(gs) {
			continue
		}
		ch := waitedLocalChan(c.pass.TypesInfo, lit.Body, fn.Node())
		if ch == nil {
			continue
		}
		signals, ok := c.signalsOf(fn, ch, lit)
		if !ok {
			continue
		}
		exit := c.leavesWithoutSignal(fn, cur, signals)
		if exit == nil {
			continue
		}
		c.asked[cur.Node()] = true
		c.findings = append(c.findings, unsignalledFinding(c.sh, gs, fn, ch, exit))
	}
}

// waitedLocalChan returns the channel the goroutine's body first waits on,
// a receive statement at its top (<-done, v := <-start, v, ok := <-start)
// before any other statement that calls or waits, when it is a variable
// declared in fn outside the body; or nil.
func waitedLocalChan(info *types.Info, body *ast.BlockStmt, fn ast.Node) *types.Var {
	if len(body.List) == 0 {
		return nil
	}
	var x ast.Expr
	switch st := body.List[0].(type) {
	case *ast.ExprStmt:
		x = st.X
	case *ast.AssignStmt:
		if len(st.Rhs) == 1 {
			x = st.Rhs[0]
		}
	}
	u, ok := ast.Unparen(x).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	v := code.Var(info, u.X)
	if v == nil || v.IsField() || !code.IsChan(v.Type()) || !code.Inside(v.Pos(), fn) || code.Inside(v.Pos(), body) {
		return nil
	}
	return v
}

// signalsOf returns the sends on ch and closes of it in fn's body, outside
// function literals but deferred ones, and false when ch is not fn's own:
// not made there, received from outside the goroutine's literal lit, or
// used otherwise (stored, handed over, captured by another literal).
func (c requestSpawns) signalsOf(fn inspector.Cursor, ch *types.Var, lit *ast.FuncLit) ([]inspector.Cursor, bool) {
	info := c.pass.TypesInfo
	made := false
	var signals []inspector.Cursor
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if info.Defs[id] == ch {
			made = c.madeAt(cur)
			continue
		}
		if info.Uses[id] != ch {
			continue
		}
		inLit := code.Inside(id.Pos(), lit)
		switch p := cur.Parent().Node().(type) {
		case *ast.UnaryExpr:
			if p.Op != token.ARROW || !inLit {
				return nil, false // another receiver
			}
		case *ast.SendStmt:
			if p.Chan != id || inLit {
				return nil, false
			}
			signals = append(signals, cur.Parent())
		case *ast.CallExpr:
			switch code.BuiltinName(info, p) {
			case "close":
				if inLit {
					return nil, false
				}
				signals = append(signals, cur.Parent())
			case "len", "cap":
			default:
				return nil, false
			}
		default:
			return nil, false
		}
		if !inLit && code.EnclosingFunc(cur).Node() != fn.Node() && !deferred(cur, fn) {
			return nil, false // signalled from another goroutine or a callback: when is not in view
		}
	}
	return signals, made
}

// deferred reports whether cur lies in a defer statement of fn (directly,
// or in the literal it defers).
func deferred(cur, fn inspector.Cursor) bool {
	for p := cur.Parent(); p.Valid() && p != fn; p = p.Parent() {
		if _, ok := p.Node().(*ast.DeferStmt); ok {
			return true
		}
	}
	return false
}

// leavesWithoutSignal returns a statement through which fn can return,
// after the go statement at gs, without signalling: a return before the
// first signal on a path the go statement is on, the other case of a
// select whose case sends the signal, or, with no signal at all, the end
// of fn. It returns nil when a signal is deferred (it runs on every path)
// or every path signals.
func (c requestSpawns) leavesWithoutSignal(fn, gs inspector.Cursor, signals []inspector.Cursor) ast.Node {
	var first inspector.Cursor
	for _, s := range signals {
		if deferred(s, fn) {
			return nil
		}
		if s.Node().Pos() < gs.Node().End() {
			continue
		}
		if !first.Valid() || s.Node().Pos() < first.Node().Pos() {
			first = s
		}
	}
	if !first.Valid() {
		return nil // signalled before the go statement, or never: not followed
	}
	if send, ok := first.Node().(*ast.SendStmt); ok {
		if cc, ok := first.Parent().Node().(*ast.CommClause); ok && cc.Comm == ast.Stmt(send) {
			if sel, ok := first.Parent().Parent().Parent().Node().(*ast.SelectStmt); ok {
				for _, other := range sel.Body.List {
					if other != ast.Stmt(cc) && returns(&ast.BlockStmt{List: other.(*ast.CommClause).Body}) {
						return other
					}
				}
			}
		}
	}
	if early := returnBetween(fn, gs, first.Node().Pos()); early != nil {
		return early
	}
	return nil
}

// unsignalledFinding builds the diagnostic of a goroutine left waiting for
// a signal. It has no fix: where the signal belongs (a deferred close, a
// send on the early path) is the function's to say.
func unsignalledFinding(sh *shared.Pkg, gs *ast.GoStmt, fn inspector.Cursor, ch *types.Var, exit ast.Node) *shared.Finding {
	name := sh.FuncName(fn)
	return &shared.Finding{
		Diag: analysis.Diagnostic{
			Pos:      gs.Pos(),
			End:      gs.End(),
			Category: "detached",
			Message: fmt.Sprintf("goroutine started by %s waits to receive from %s, a channel the function made, and %s can return without sending on it or closing it: the goroutine then waits forever, one more per such call; by hand: close %s on every path (defer close(%s) after the make), or select on the request's context beside it",
				name, ch.Name(), name, ch.Name(), ch.Name()),
			Related: []analysis.RelatedInformation{{Pos: exit.Pos(), End: exit.End(), Message: "the function can return here without signalling " + ch.Name()}},
		},
	}
}
