package waittiming

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// A handoff is a request sent to a job queue — a buffered channel that a
// goroutine of the package drains in a loop — with a channel for its reply,
// which the measured function then receives. The measurement includes the
// time the request queued behind the earlier ones (and, for a batching
// writer, behind their batches): the send returns when the request is
// queued, and the wait ends in the goroutine that takes it, so no second
// timestamp in this function splits it.
type handoff struct {
	m     *measurement
	send  inspector.Cursor // the send statement
	reply inspector.Cursor // the receive of the reply
	queue *types.Var
}

// handoffIn returns the hand-off to a job queue inside m's span, if there is
// one: the send and the receive of the reply both run, on every path to the
// end, between m's start and its end.
func (c *checker) handoffIn(m *measurement) (handoff, bool) {
	startFn := code.EnclosingFunc(m.startStmt)
	if !startFn.Valid() || m.fn != startFn {
		return handoff{}, false
	}
	from, to := m.startStmt.Node().End(), m.endAt
	var found handoff
	ok := false
	startFn.Inspect([]ast.Node{(*ast.SendStmt)(nil), (*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil)}, func(cur inspector.Cursor) bool {
		if ok {
			return false
		}
		if descend, decided := c.runsBetween(cur, startFn, inspector.Cursor{}, from, to); decided {
			return descend
		}
		s, isSend := cur.Node().(*ast.SendStmt)
		if !isSend || s.Pos() < from {
			return true
		}
		q := code.Var(c.pass.TypesInfo, s.Chan)
		if q == nil || !c.adm.IsJobQueue(q) {
			return true
		}
		if _, onPath := c.qualifies(m, cur, admission.Wait{}, inspector.Cursor{}); !onPath {
			c.rep.Silence(s, ruleNotOnEveryPath)
			return true
		}
		reply, has := c.replyReceive(m, startFn, s, to)
		if !has {
			c.rep.Silence(s, ruleNoReplyWait)
			return true
		}
		found, ok = handoff{m: m, send: cur, reply: reply, queue: q}, true
		return false
	})
	return found, ok
}

// replyReceive returns the receive, after the send s and before to, of a
// channel the sent request carries for its reply: a local channel stored in
// the request (&request{done: ch}), a channel field of the request
// (<-req.done), or a local channel a sent closure closes or sends on.
func (c *checker) replyReceive(m *measurement, fn inspector.Cursor, s *ast.SendStmt, to token.Pos) (inspector.Cursor, bool) {
	info := c.pass.TypesInfo
	chans, req := c.replyChans(fn, s.Value)
	if len(chans) == 0 && req == nil {
		return inspector.Cursor{}, false
	}
	var found inspector.Cursor
	fn.Inspect([]ast.Node{(*ast.UnaryExpr)(nil), (*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil)}, func(cur inspector.Cursor) bool {
		if found.Valid() {
			return false
		}
		if descend, decided := c.runsBetween(cur, fn, inspector.Cursor{}, s.End(), to); decided {
			return descend
		}
		u, ok := cur.Node().(*ast.UnaryExpr)
		if !ok || u.Op != token.ARROW {
			return true
		}
		x := ast.Unparen(u.X)
		if v := code.Var(info, x); v != nil && chans[v] {
			found = cur
		} else if sel, ok := x.(*ast.SelectorExpr); ok && req != nil && code.Var(info, sel.X) == req {
			found = cur // <-req.done
		}
		if found.Valid() {
			if _, onPath := c.qualifies(m, found, admission.Wait{}, inspector.Cursor{}); !onPath {
				found = inspector.Cursor{}
			}
		}
		return !found.Valid()
	})
	return found, found.Valid()
}

// replyChans returns the local channels the sent value v carries
// (admission.Carried), and the local variable that holds the request when
// v is one whose type has a channel field (<-req.done).
func (c *checker) replyChans(fn inspector.Cursor, v ast.Expr) (map[*types.Var]bool, *types.Var) {
	info := c.pass.TypesInfo
	var req *types.Var
	if id, ok := ast.Unparen(v).(*ast.Ident); ok {
		req = localVar(info, id)
		if req == nil {
			return nil, nil
		}
		if !hasChanField(req.Type()) {
			req = nil
		}
	}
	return admission.Carried(info, fn, v, code.IsChan), req
}

// hasChanField reports whether t is, or points to, a struct with a field of
// channel type: a request that carries its reply channel.
func hasChanField(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if code.IsChan(f.Type()) {
			return true
		}
	}
	return false
}

// reportHandoff reports a measurement across a hand-off to a job queue. It
// has no fix: the wait ends where the consumer takes the request.
func (c *checker) reportHandoff(h handoff) {
	m := h.m
	pos, end := m.end.Node().Pos(), m.end.Node().End()
	if m.form == formDeferLit {
		lit := m.end.Node().(*ast.CallExpr).Fun.(*ast.FuncLit)
		pos, end = m.deferStmt.Node().Pos(), lit.Type.End()
	}
	d := analysis.Diagnostic{
		Pos:      pos,
		End:      end,
		Category: "wholecall",
		Message: subject(c.pass.TypesInfo, m) + " spans the queue of " + h.queue.Name() +
			" and the work of the goroutine that drains it, so time queued behind earlier requests is reported as slow work; timestamp the request when the consumer takes it and record the queue wait separately",
		Related: []analysis.RelatedInformation{
			{Pos: h.send.Node().Pos(), End: h.send.Node().End(), Message: "the request is queued here"},
			{Pos: h.reply.Node().Pos(), End: h.reply.Node().End(), Message: "its reply is received here"},
			{Pos: h.send.Node().Pos(), End: h.send.Node().End(), Message: "no automatic fix: the wait ends in the goroutine that takes the request; add a timestamp to the request, set it there, and record the queue wait and the run separately by hand"},
		},
	}
	d.Related = append(d.Related, startRelated(m, pos, end)...)
	c.rep.Report(d)
}
