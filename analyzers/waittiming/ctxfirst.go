package waittiming

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// A deadline can flow into the queue: a callee whose first blocking step
// is an admission wait on the context it is given (limiter.Wait(ctx),
// sem.Acquire(ctx, 1), a select on ctx.Done() and a slot, a send to its
// workers) and only then does its work spends the caller's budget on the
// queue before the work sees any of it. The InnerWait fact with Ctx says
// so of the callee, in this package or another. The split belongs inside
// the callee (give the wait its own bound, or take a budget rather than a
// deadline), so the finding has no fix.

// queueFirstCallee returns the call at the head of stmt that passes
// derived as the context of a function whose first step waits on it, and
// the callee and its wait.
func (c *deadlineChecker) queueFirstCallee(stmt inspector.Cursor, derived *types.Var) (*ast.CallExpr, *types.Func, *admission.InnerWait) {
	w, iw, ok := c.adm.StmtWait(stmt)
	if !ok || iw == nil || !iw.Ctx || w.Via == nil {
		return nil, nil, nil
	}
	call, ok := w.Node.(*ast.CallExpr)
	if !ok || iw.Param < 0 || iw.Param >= len(call.Args) {
		return nil, nil, nil
	}
	if localVar(c.pass.TypesInfo, call.Args[iw.Param]) != derived {
		return nil, nil, nil
	}
	return call, w.Via, iw
}

// reportQueueFirst reports the deadline derived by call and handed to
// callee, whose first step waits on it.
func (c *deadlineChecker) reportQueueFirst(call, at *ast.CallExpr, callee *types.Func, iw *admission.InnerWait) {
	name := code.DisplayName(callee)
	if code.Callee(c.pass.TypesInfo, at) == nil {
		name += " via " + types.ExprString(at.Fun) // a func field or parameter
	}
	d := analysis.Diagnostic{
		Pos:      call.Pos(),
		End:      call.End(),
		Category: "deadline",
		Message: "the " + timeoutText(c.pass.TypesInfo, call) + " is handed to " + name + ", whose first step waits on it (" + iw.Name + ", " + iw.At + implPhrase(iw) +
			") before its work, so time spent queueing there comes out of the work's budget; give the wait a bound of its own and the work the budget",
		Related: []analysis.RelatedInformation{
			{Pos: at.Pos(), End: at.End(), Message: "the call that queues first: " + name},
		},
	}
	if n := c.adm.InnerWaitNode(callee); n != nil {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: n.Pos(), End: n.End(), Message: "the wait inside " + name + ": " + iw.Name})
	}
	d.Related = append(d.Related, analysis.RelatedInformation{Pos: call.Pos(), End: call.End(), Message: "no automatic fix: the wait is inside " + name + "; bound its wait apart (or derive the work's deadline in it after the wait) by hand"})
	c.rep.Report(d)
}
