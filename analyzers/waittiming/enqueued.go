package waittiming

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// Stamped when queued: an item carries the time it was made in a field
// (job.enqueued = time.Now(), &request{start: time.Now()}), a function of
// the package sends it on a channel, and the goroutine that takes it from
// that channel works on it and then records time.Since(job.enqueued). The
// figure spans the time the item waited in the channel behind the earlier
// ones as well as the work, and the consumer took no timestamp of its own
// when it took the item: under load, queueing reads as slow work.
//
// Followed: a field of a struct type stamped with the clock in this
// package, by an assignment or a composite literal, in a function that
// then sends the stamped value (the variable, its address, or the literal)
// on a channel; and a consumer that takes the value from that same channel
// (v := <-ch, a select case, a range over it) in the function that records
// the duration, or in a function of the package that hands the item it
// took to the one that records (for j := range q { w.handle(j) }, with
// handle's parameter the item), with work between the take and the end.
// Not followed: items stamped or sent in another package, handed over by a
// slice or a list, or taken and handed on more than one call away.
//
// Silent when the consumer reads the clock between the take and the end
// (the wait can be split there), when it records the time since the stamp
// before its work too (the wait, measured apart), and when the record says
// it is meant to include the queueing (knowledge lists total-words and
// queue-record-words).

// A fieldEnd is an end of a measurement from a field: time.Since(job.start).
type fieldEnd struct {
	cur   inspector.Cursor // the end call
	x     *types.Var       // the variable whose field it reads: job
	field *types.Var       // start
}

// An enqueued is a measurement from a field stamped where the item is
// queued.
type enqueued struct {
	end   fieldEnd
	stamp ast.Node         // the stamp: job.start = time.Now(), start: time.Now()
	send  *ast.SendStmt    // where the stamped item is queued
	take  inspector.Cursor // where the consumer takes it
	// handoff, when valid, is the call by which the consumer hands the
	// item it took to the end's function: w.handle(j).
	handoff inspector.Cursor
}

// fieldEndOf returns the end at cur as a fieldEnd when its start is a
// time.Time field of a local variable or parameter.
func fieldEndOf(info *types.Info, cur inspector.Cursor, start ast.Expr) (fieldEnd, bool) {
	sel, ok := ast.Unparen(start).(*ast.SelectorExpr)
	if !ok {
		return fieldEnd{}, false
	}
	f, ok := info.Uses[sel.Sel].(*types.Var)
	if !ok || !f.IsField() || !code.IsTime(f.Type()) {
		return fieldEnd{}, false
	}
	x := code.Var(info, sel.X)
	if x == nil || x.IsField() || x.Parent() == nil || x.Parent() == x.Pkg().Scope() {
		return fieldEnd{}, false
	}
	return fieldEnd{cur: cur, x: x, field: f}, true
}

// enqueuedStarts returns the ends from fields that were stamped when their
// item was queued, and taken from that queue in the end's function.
func (c *checker) enqueuedStarts() []enqueued {
	var out []enqueued
	type stamped struct {
		stamp ast.Node
		send  *ast.SendStmt
		ok    bool
	}
	seen := make(map[*types.Var]stamped) // per field: one walk of the package
	for _, e := range c.fieldEnds {
		st, done := seen[e.field]
		if !done {
			st.stamp, st.send, st.ok = c.stampedAndSent(e.field)
			seen[e.field] = st
		}
		stamp, send, ok := st.stamp, st.send, st.ok
		var take, handoff inspector.Cursor
		if ok {
			take, handoff, ok = c.takenFrom(e, send)
		}
		if !ok {
			c.rep.Silence(e.cur.Node(), ruleStartInField)
			continue
		}
		if rule := c.consumerSplits(e, take, handoff); rule != nil {
			c.rep.Silence(e.cur.Node(), rule)
			continue
		}
		out = append(out, enqueued{end: e, stamp: stamp, send: send, take: take, handoff: handoff})
	}
	return out
}

// stampedAndSent returns a stamp of field with the clock in this package,
// followed in its function by a send of the stamped item on a channel.
func (c *checker) stampedAndSent(field *types.Var) (ast.Node, *ast.SendStmt, bool) {
	info := c.pass.TypesInfo
	for cur := range c.insp.Root().Preorder((*ast.AssignStmt)(nil), (*ast.KeyValueExpr)(nil)) {
		var item ast.Expr // what carries the stamp: the variable, or the literal
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				continue
			}
			for i, l := range n.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if !ok || info.Uses[sel.Sel] != field || !isClockRead(info, n.Rhs[i]) {
					continue
				}
				item = sel.X
			}
		case *ast.KeyValueExpr:
			key, ok := n.Key.(*ast.Ident)
			if !ok || info.Uses[key] != field || !isClockRead(info, n.Value) {
				continue
			}
			if lit, ok := cur.Parent().Node().(*ast.CompositeLit); ok {
				item = lit
				if u, ok := cur.Parent().Parent().Node().(*ast.UnaryExpr); ok {
					item = u // &request{start: time.Now()}
				}
			}
		}
		if item == nil {
			continue
		}
		fn := code.EnclosingFunc(cur)
		if !fn.Valid() {
			continue
		}
		if send := c.sendOfItem(fn, cur.Node(), item); send != nil {
			return cur.Node(), send, true
		}
	}
	return nil, nil, false
}

// isClockRead reports whether e reads the clock: time.Now(), perhaps
// converted (time.Now().UTC()).
func isClockRead(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	if timing.IsTimestamp(info, call) {
		return true
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		switch sel.Sel.Name {
		case "UTC", "Local", "Round", "Truncate":
			return isClockRead(info, sel.X)
		}
	}
	return false
}

// sendOfItem returns the send, in fn after the stamp, of the stamped item:
// the variable (or its address) the stamp assigned, or the literal itself,
// directly or through a local the literal is assigned to.
func (c *checker) sendOfItem(fn inspector.Cursor, stamp ast.Node, item ast.Expr) *ast.SendStmt {
	info := c.pass.TypesInfo
	v := code.Var(info, item)
	if v == nil {
		// A literal: the local it is assigned to, or the literal sent as is.
		for p := range fn.Preorder((*ast.AssignStmt)(nil), (*ast.SendStmt)(nil)) {
			switch n := p.Node().(type) {
			case *ast.SendStmt:
				if n.Value == item {
					return n
				}
			case *ast.AssignStmt:
				if len(n.Lhs) == 1 && len(n.Rhs) == 1 && n.Rhs[0] == item {
					v = code.Var(info, n.Lhs[0])
				}
			}
		}
		if v == nil {
			return nil
		}
	}
	for p := range fn.Preorder((*ast.SendStmt)(nil)) {
		n := p.Node().(*ast.SendStmt)
		if n.Pos() < stamp.End() || code.EnclosingFunc(p).Node() != fn.Node() {
			continue
		}
		val := ast.Unparen(n.Value)
		if u, ok := val.(*ast.UnaryExpr); ok {
			val = u.X
		}
		if code.Var(info, val) == v {
			return n
		}
	}
	return nil
}

// takenFrom returns where the item the end measures is taken from the
// channel it was sent on: in the end's function (an assignment of a
// receive, x := <-ch or case x := <-ch:, or a range over the channel,
// before the end), or, when the item is a parameter of the end's function,
// in a function of the package that takes it so and then hands it to the
// end's function; handoff is then that call.
func (c *checker) takenFrom(e fieldEnd, send *ast.SendStmt) (take, handoff inspector.Cursor, ok bool) {
	q := chanOf(c.pass.TypesInfo, send.Chan)
	if q == nil {
		return inspector.Cursor{}, inspector.Cursor{}, false
	}
	fn := code.EnclosingFunc(e.cur)
	if !fn.Valid() {
		return inspector.Cursor{}, inspector.Cursor{}, false
	}
	if take, ok := c.takeOf(fn, e.x, q, e.cur.Node().Pos()); ok {
		return take, inspector.Cursor{}, true
	}
	return c.handedTaken(fn, e.x, q)
}

// takeOf returns the take, in fn before pos, that assigns x an item of q.
func (c *checker) takeOf(fn inspector.Cursor, x, q *types.Var, pos token.Pos) (inspector.Cursor, bool) {
	info := c.pass.TypesInfo
	for cur := range fn.Preorder((*ast.AssignStmt)(nil), (*ast.RangeStmt)(nil)) {
		if cur.Node().Pos() > pos {
			break
		}
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Rhs) != 1 || len(n.Lhs) == 0 || code.Var(info, n.Lhs[0]) != x {
				continue
			}
			if u, ok := ast.Unparen(n.Rhs[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW && chanOf(info, u.X) == q {
				return cur, true
			}
		case *ast.RangeStmt:
			if n.Key != nil && code.Var(info, n.Key) == x && chanOf(info, n.X) == q {
				return cur, true
			}
		}
	}
	return inspector.Cursor{}, false
}

// handedTaken returns, when x is a parameter of the declared function at
// fn, the only call of that function in the package that passes it an item
// its caller took from q, with the take.
func (c *checker) handedTaken(fn inspector.Cursor, x, q *types.Var) (take, handoff inspector.Cursor, ok bool) {
	info := c.pass.TypesInfo
	decl, isDecl := fn.Node().(*ast.FuncDecl)
	if !isDecl {
		return inspector.Cursor{}, inspector.Cursor{}, false
	}
	callee, _ := info.Defs[decl.Name].(*types.Func)
	if callee == nil {
		return inspector.Cursor{}, inspector.Cursor{}, false
	}
	params := callee.Signature().Params()
	at := -1
	for i := range params.Len() {
		if params.At(i) == x {
			at = i
		}
	}
	if at < 0 || callee.Signature().Variadic() && at == params.Len()-1 {
		return inspector.Cursor{}, inspector.Cursor{}, false
	}
	found := 0
	for cur := range c.insp.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if code.Callee(info, call) != callee {
			continue
		}
		found++
		if found > 1 || at >= len(call.Args) {
			return inspector.Cursor{}, inspector.Cursor{}, false // handed over from several places
		}
		v := code.Var(info, call.Args[at])
		caller := code.EnclosingFunc(cur)
		if v == nil || !caller.Valid() {
			return inspector.Cursor{}, inspector.Cursor{}, false
		}
		t, ok := c.takeOf(caller, v, q, call.Pos())
		if !ok {
			return inspector.Cursor{}, inspector.Cursor{}, false
		}
		take, handoff = t, cur
	}
	return take, handoff, found == 1
}

// chanOf returns the variable or field a channel expression names.
func chanOf(info *types.Info, e ast.Expr) *types.Var {
	v := code.Var(info, e)
	if v == nil || !code.IsChan(v.Type()) {
		return nil
	}
	return v
}

// consumerSplits returns the rule that keeps an end from a field stamped at
// enqueue from being reported, or nil: no work between the take and the
// end, a clock read there (split-timestamp), an earlier record of the
// time since the stamp (no-work-after: the wait measured alone), a record
// that says it includes the queueing (records-queueing). Between the take
// and the end is, with a hand-over, the consumer from the take to the call
// and the end's function up to the end.
func (c *checker) consumerSplits(e fieldEnd, take, handoff inspector.Cursor) *report.Rule {
	info := c.pass.TypesInfo
	type span struct {
		fn       inspector.Cursor
		from, to token.Pos
	}
	from := take.Node().End()
	if r, ok := take.Node().(*ast.RangeStmt); ok {
		from = r.X.End() // the body runs after each take
	}
	endFn := code.EnclosingFunc(e.cur)
	spans := []span{{endFn, from, e.cur.Node().Pos()}}
	if handoff.Valid() {
		spans = []span{
			{code.EnclosingFunc(take), from, handoff.Node().Pos()},
			{endFn, code.FuncBody(endFn.Node()).Lbrace, e.cur.Node().Pos()},
		}
	}
	work, clock, early := false, false, false
	for _, sp := range spans {
		for cur := range sp.fn.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			if call.Pos() < sp.from || call.Pos() >= sp.to || code.Inside(call.Pos(), e.cur.Node()) {
				continue
			}
			switch {
			case timing.IsTimestamp(info, call):
				clock = true
			case c.readsField(call, e.field):
				early = true
			case c.isWorkCall(call, admission.Wait{}) && !code.Inside(e.cur.Node().Pos(), call):
				work = true
			}
		}
	}
	m := &measurement{end: e.cur}
	stamp := func(n ast.Node) bool { // the field's own name says nothing of the record
		sel, ok := n.(*ast.SelectorExpr)
		return ok && info.Uses[sel.Sel] == e.field
	}
	switch {
	case early:
		return ruleNoWorkAfter
	case clock:
		return ruleSplitTimestamp
	case !work:
		return ruleNoWorkAfter
	case recordSaysBut(info, m, knowledge.TotalWords, stamp) || recordSaysBut(info, m, knowledge.QueueRecordWords, stamp):
		return ruleRecordsQueueing
	}
	return nil
}

// readsField reports whether call measures from the field: time.Since(x.f).
func (c *checker) readsField(call *ast.CallExpr, field *types.Var) bool {
	start, _, ok := timing.Elapsed(c.pass.TypesInfo, call)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(start).(*ast.SelectorExpr)
	return ok && c.pass.TypesInfo.Uses[sel.Sel] == field
}

// reportEnqueued reports a measurement from a field stamped when its item
// was queued. It has no fix: the take and the end are the consumer's, the
// stamp the producer's, and the new field or figure is the code's to name.
func (c *checker) reportEnqueued(q enqueued) {
	end := q.end.cur.Node()
	d := analysis.Diagnostic{
		Pos:      end.Pos(),
		End:      end.End(),
		Category: "wholecall",
		Message: "the duration since " + q.end.x.Name() + "." + q.end.field.Name() + " spans the queue of " + types.ExprString(q.send.Chan) +
			", where the item waited behind earlier ones after it was stamped, and the work done on it after it was taken, so time queued is reported as slow work; by hand: take a timestamp when the item is taken and record the queue wait and the work separately",
		Related: []analysis.RelatedInformation{
			{Pos: q.stamp.Pos(), End: q.stamp.End(), Message: "the item is stamped here"},
			{Pos: q.send.Pos(), End: q.send.End(), Message: "and queued here"},
			{Pos: q.take.Node().Pos(), End: q.take.Node().End(), Message: "the consumer takes it here"},
		},
	}
	if q.handoff.Valid() {
		h := q.handoff.Node()
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: h.Pos(), End: h.End(), Message: "and hands it on here"})
	}
	c.rep.Report(d)
}
