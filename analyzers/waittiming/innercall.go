package waittiming

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// Waits hide in callees. A measurement that spans a call of a function
// whose main path waits for admission and then works (an InnerWait fact:
// Query doing c.lim.Wait(ctx) and then its request, a pool's Run taking a
// slot and then running the job; of this package or, through facts, of
// another) times the callee's queueing as its work, and no timestamp of
// the measuring function can split the two: the split belongs after the
// wait inside the callee. The finding has no fix.
//
// A measurement that is the latency users see (a handler's whole body, a
// figure named a total) should include the queueing; one that names a
// figure of waiting measures it on purpose. Both are left alone.

// A consumer's read that blocks until an item arrives (a condition loop on
// an empty queue) waits for data, not for admission: not reported here.

// A local closure that waits and then works is such a callee too, when the
// variable holding it is given the literal once and never assigned again
// (withLimit := func(i int) error { limiter.incr(ctx, i); …; return
// propose(…) }): its body is in view, and so is its wait.

// An innerCall is a measured call of a function that waits and then works.
type innerCall struct {
	m    *measurement
	call inspector.Cursor
	name string   // the callee, as the message names it
	wait ast.Node // the wait inside the callee, when it is in view
	iw   *admission.InnerWait
	// pooled is set for a library call that checks a connection out of
	// its client's pool first (knowledge list pooled-calls).
	pooled bool
}

// pooledCalls are the library calls that check a connection out of a pool
// that keeps no wait figure of its own before their work.
var pooledCalls = calls.NewPooled()

// innerCallIn returns the first call, between m's start and its end and on
// every path to the end, of a function with an InnerWait fact.
func (c *retrier) innerCallIn(m *measurement) (innerCall, bool) {
	startFn, lit, ok := c.chk.spanFuncs(m)
	if !ok {
		return innerCall{}, false
	}
	from, to := m.startStmt.Node().End(), m.endAt
	var self types.Object
	if fd, isDecl := startFn.Node().(*ast.FuncDecl); isDecl {
		self = c.pass.TypesInfo.Defs[fd.Name]
	}
	var found innerCall
	ok = false
	startFn.Inspect([]ast.Node{(*ast.CallExpr)(nil), (*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil)}, func(cur inspector.Cursor) bool {
		if ok {
			return false
		}
		if descend, decided := c.runsBetween(cur, startFn, lit, from, to); decided {
			return descend
		}
		call, isCall := cur.Node().(*ast.CallExpr)
		if !isCall || call.Pos() < from {
			return true
		}
		ic, isInner := c.innerCallAt(cur, self)
		if !isInner || ic.iw.Kind == admission.CondQueue {
			return true
		}
		if ic.iw.Kind == admission.PoolCheckout && !ic.pooled {
			c.rep.Silence(call, rulePoolKeepsStats)
			return true
		}
		if _, rule, onPath := c.chk.qualifiesWhy(m, cur, admission.Wait{}, lit); !onPath {
			if rule != ruleWaitPerIteration {
				rule = ruleNotOnEveryPath
			}
			c.rep.Silence(call, rule)
			return true
		}
		ic.m = m
		found, ok = ic, true
		return false
	})
	if !ok || c.recordsWaiting(m) {
		return innerCall{}, false
	}
	if c.chk.workTimedApart(m, startFn, found.call.Node().End()) {
		c.silenceMeasurement(m, ruleWorkTimedApart) // BeginWrite(); return s.reap(), which times itself
		return innerCall{}, false
	}
	if c.chk.isTotal(m) {
		c.silenceMeasurement(m, ruleCalleeWaitTotal)
		return innerCall{}, false
	}
	return found, true
}

// innerCallAt returns the call at cur as an innerCall (without its
// measurement) when it calls a function with an InnerWait fact other than
// self, or a local closure with one.
func (c *retrier) innerCallAt(cur inspector.Cursor, self types.Object) (innerCall, bool) {
	call := cur.Node().(*ast.CallExpr)
	if name, ok := c.pooledCall(call); ok {
		iw := &admission.InnerWait{Kind: admission.PoolCheckout, Name: "a connection from its client's pool"}
		return innerCall{call: cur, name: name, iw: iw, pooled: true}, true
	}
	if iw, v, wait := c.adm.ClosureInnerWait(call); iw != nil {
		return innerCall{call: cur, name: "the closure " + v.Name(), wait: wait, iw: iw}, true
	}
	h, fn := c.adm.Helper(call)
	if h == nil || h.Inner == nil {
		// A func value: one of the functions the package hands to it.
		if fn = c.adm.InnerCallee(call); fn == nil || fn == self {
			return innerCall{}, false
		}
		name := code.DisplayName(fn) + " via " + types.ExprString(call.Fun)
		return innerCall{call: cur, name: name, wait: c.adm.InnerWaitNode(fn), iw: c.res.Helper(fn).Inner}, true
	}
	if fn == nil || fn == self {
		return innerCall{}, false
	}
	name := code.DisplayName(fn)
	return innerCall{call: cur, name: name, wait: c.adm.InnerWaitNode(fn), iw: h.Inner}, true
}

// pooledCall reports whether call is one of the pooled calls, or a call of
// an interface method whose every implementation in view is one (mocks in
// files the check skips, generated or test support, left out): a seam the
// package declares over a driver's collection so that tests can swap it.
// It returns the name the message gives the callee.
func (c *retrier) pooledCall(call *ast.CallExpr) (string, bool) {
	if fn := code.Callee(c.pass.TypesInfo, call); fn != nil {
		return code.DisplayName(fn), pooledCalls.Contains(fn)
	}
	m := code.CalleeFunc(c.pass.TypesInfo, call)
	if m == nil || !isInterfaceMethod(m) || !slices.ContainsFunc(c.pass.Pkg.Imports(), pooledCalls.Mentions) {
		return "", false // no driver imported: no implementation in view can be one
	}
	impls, ok := c.res.ImplementationsInView(m)
	if !ok {
		return "", false
	}
	var via *types.Func
	for _, impl := range impls {
		if c.rep.SkipPos(impl.Pos()) {
			continue // a generated mock of the seam, or a test fake
		}
		if c.res.PassesOn(impl, m) {
			continue // a decorator of the seam: it hands the call on
		}
		if !pooledCalls.Contains(impl) {
			return "", false
		}
		via = impl
	}
	if via == nil {
		return "", false
	}
	return code.DisplayName(m) + " via " + code.DisplayName(via), true
}

// reportInnerCall reports a measured call of a function that waits for
// admission before its work. It has no fix: the wait ends inside the callee.
func (c *retrier) reportInnerCall(ic innerCall) {
	m := ic.m
	pos, end := measuredAt(m)
	call := ic.call.Node()
	name := ic.name
	what := kindPhrase(ic.iw.Kind, "waits for admission") + " (" + ic.iw.Name + ", " + ic.iw.At + implPhrase(ic.iw) + ") before its work"
	if ic.iw.Kind == admission.JobQueue {
		// The jobs queue behind other callers' on a pool shared with them.
		what = "hands its work to a shared pool and waits for it (" + ic.iw.Name + ", " + ic.iw.At + implPhrase(ic.iw) + "), behind other callers' jobs"
	}
	advice := "record the wait apart inside " + name
	if ic.pooled {
		what = "checks a connection out of its client's pool before its work, a pool that keeps no wait figure of its own"
		advice = "measure the checkout apart (the client's pool monitor) or record the figure as the total it is"
	}
	d := analysis.Diagnostic{
		Pos:      pos,
		End:      end,
		Category: "wholecall",
		Message: subject(c.pass.TypesInfo, m) + " spans " + name + ", which " + what +
			", so time spent queueing is reported as work; " + advice,
		Related: []analysis.RelatedInformation{
			{Pos: call.Pos(), End: call.End(), Message: "the call that waits inside"},
		},
	}
	if n := ic.wait; n != nil {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: n.Pos(), End: n.End(), Message: "the wait inside " + name})
	}
	fixHint := "no automatic fix: the wait is inside " + name + "; take a timestamp after it there and record the wait apart from the work by hand"
	if ic.pooled {
		fixHint = "no automatic fix: the checkout is inside " + name + ", in a library"
	}
	d.Related = append(d.Related, analysis.RelatedInformation{Pos: call.Pos(), End: call.End(), Message: fixHint})
	c.rep.Report(d)
}
