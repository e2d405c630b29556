package waittiming

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// A wrapper that times a call of the function it is handed
// (metrics.Time("op", func() error {…})) measures whatever its callers
// hand it: its own span holds no wait, and the check, looking at the
// wrapper alone, has nothing to report. The wait is in the function at the
// call site. So the check looks there: a function literal, or a declared
// function passed by name, whose main path waits for admission and then
// works (an InnerWait, as for a call in a span), or that retries with
// pauses between its attempts, makes the wrapper's figure report the wait
// as work — unless the retry loop times each attempt with such a wrapper
// itself (the attempts have figures of their own). The wrapper is recognised by what it does, not by its name: it
// reads the clock (or starts a Prometheus timer), calls its func-typed
// parameter once, and records the time since (admission's timer helper
// Runs), in this package or, through facts, in another one.
//
// Not followed: a func value held in a variable or a field, a wrapper
// handed its function through a struct, and wrappers of libraries that are
// not analyzed (their packages carry no facts in the standalone driver).

// A timedCall is a call of a wrapper that times the function it is handed,
// which waits or retries before its work.
type timedCall struct {
	call    *ast.CallExpr
	wrapper *types.Func
	arg     ast.Expr
	iw      *admission.InnerWait // the wait inside, or
	r       *retry               // the retries inside
}

// timedCallAt returns the call at cur as a timedCall when it hands a
// wrapper that times it a function that waits or retries before its work.
func (c *retrier) timedCallAt(cur inspector.Cursor) (timedCall, bool) {
	call := cur.Node().(*ast.CallExpr)
	ff, wrapper := c.res.HelperCall(call)
	if ff == nil || ff.Timer == nil || !ff.Timer.Runs || wrapper == nil || ff.Timer.Param >= len(call.Args) {
		return timedCall{}, false
	}
	t := timedCall{call: call, wrapper: wrapper, arg: ast.Unparen(call.Args[ff.Timer.Param])}
	switch arg := t.arg.(type) {
	case *ast.FuncLit:
		lit, ok := cur.FindNode(arg)
		if !ok {
			return timedCall{}, false
		}
		if lf := c.res.LitFact(lit); lf != nil && lf.Inner != nil {
			t.iw = lf.Inner
			return t, true
		}
		body, ok := lit.FindNode(arg.Body)
		if !ok {
			return timedCall{}, false
		}
		if r, ok := c.retryInBody(body); ok && !c.timesAttempts(r) {
			t.r = &r
			return t, true
		}
		if r := c.wrappedRetry(body); r != nil && !c.timesAttempts(*r) {
			t.r = r
			return t, true
		}
	default:
		fn := code.FuncValue(c.pass.TypesInfo, arg)
		if fn == nil {
			return timedCall{}, false
		}
		if h := c.res.Helper(fn); h != nil && h.Inner != nil {
			t.iw = h.Inner
			return t, true
		}
		if fn.Pkg() == c.pass.Pkg {
			if r := c.retriesOf(fn); r != nil && !c.timesAttempts(*r) {
				t.r = r
				return t, true
			}
		} else if pause, ok := c.retriesElsewhere(fn); ok {
			t.r = &retry{name: pause}
			return t, true
		}
	}
	return timedCall{}, false
}

// timesAttempts reports whether the retry loop r times each attempt with
// a wrapper that times what it is handed (bootstrapTrace("init, attempt
// 2", func() {…}) inside the loop): the attempts have figures of their
// own, and the pauses show between them.
func (c *retrier) timesAttempts(r retry) bool {
	if !r.loop.Valid() {
		return false
	}
	found := false
	r.loop.Inspect([]ast.Node{(*ast.CallExpr)(nil)}, func(cur inspector.Cursor) bool {
		if ff, _ := c.res.HelperCall(cur.Node().(*ast.CallExpr)); ff != nil && ff.Timer != nil && ff.Timer.Runs {
			found = true
		}
		return !found
	})
	return found
}

// reportTimedCall reports a wrapper's figure over a function that waits or
// retries before its work. There is no fix: the wait is inside the
// function handed over, and the figure is the wrapper's.
func (c *retrier) reportTimedCall(t timedCall) {
	what := "the function literal it is handed"
	if _, ok := t.arg.(*ast.FuncLit); !ok {
		what = types.ExprString(t.arg)
	}
	name := code.DisplayName(t.wrapper)
	var why, fix string
	if t.iw != nil {
		why = kindPhrase(t.iw.Kind, "waits for admission") + " (" + t.iw.Name + ", " + t.iw.At + implPhrase(t.iw) + ") before its work, so time spent queueing is reported as work"
		fix = "take the wait out of what " + name + " times (wait first, then hand it the work), or record the wait apart inside"
	} else {
		why = "retries with pauses between its attempts (" + t.r.name + "), so time spent waiting between attempts is reported as slow work"
		fix = "record the retry wait apart from the attempts inside"
	}
	d := analysis.Diagnostic{
		Pos:      t.call.Pos(),
		End:      t.call.End(),
		Category: "wholecall",
		Message:  name + " times a call of " + what + ", which " + why + "; by hand: " + fix,
	}
	for _, p := range t.pauses() {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: p.Node().Pos(), End: p.Node().End(), Message: "a pause between attempts: " + t.r.name})
	}
	c.rep.Report(d)
}

// pauses returns the pauses of the retries inside, when they are in view.
func (t timedCall) pauses() []inspector.Cursor {
	if t.r == nil {
		return nil
	}
	return t.r.pauses
}
