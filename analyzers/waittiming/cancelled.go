package waittiming

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
)

// Cancelled before it runs: a function derives a deadline (ctx, cancel :=
// context.WithTimeout(…); defer cancel()) and queues a job whose function
// literal uses that context on a channel that outlives the call (a field,
// a package variable, a parameter), then returns without waiting for the
// job. The job runs when the consumer takes it, after the function has
// returned and its deferred cancel has fired: the queue has eaten the
// whole budget, and the queued work runs with a context already done (a
// retry queued this way can never succeed).
//
// Followed: a send statement of the function itself whose value holds the
// literal (the literal, or a composite literal with it as a field's value,
// or its address), with the cancel deferred in the same function. Silent
// when the function receives, selects or waits after the send (awaits-reply:
// the job runs while it waits), and for a local channel the function may
// drain itself.

// queuedAfterCancel reports the sends of a job whose literal uses the
// deadline derived at cur after the function's deferred cancel fires, and
// reports whether it found one.
func (c *deadlineChecker) queuedAfterCancel(cur inspector.Cursor) bool {
	info := c.pass.TypesInfo
	call := cur.Node().(*ast.CallExpr)
	assign, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(assign.Lhs) != 2 || len(assign.Rhs) != 1 {
		return false
	}
	derived, cancel := localVar(info, assign.Lhs[0]), localVar(info, assign.Lhs[1])
	fn := code.EnclosingFunc(cur)
	if derived == nil || cancel == nil || !fn.Valid() {
		return false
	}
	deferAt := deferredCancel(info, fn, cancel)
	if deferAt == nil {
		return false
	}
	for s := range fn.Preorder((*ast.SendStmt)(nil)) {
		send := s.Node().(*ast.SendStmt)
		if send.Pos() < assign.End() || code.EnclosingFunc(s).Node() != fn.Node() {
			continue
		}
		if q := code.Var(info, send.Chan); q != nil && !q.IsField() && code.Inside(q.Pos(), fn.Node()) {
			continue // a channel of this call: it may take the job itself
		}
		lit := closureUsing(info, send.Value, derived)
		if lit == nil {
			continue
		}
		if waitsAfter(fn, s) {
			c.rep.Silence(call, ruleAwaitsReply)
			continue
		}
		c.reportCancelledBeforeRun(call, send, lit, deferAt, derived, cancel, fn)
		return true
	}
	return false
}

// deferredCancel returns the defer statement of fn, outside literals, that
// calls cancel (defer cancel()), or nil.
func deferredCancel(info *types.Info, fn inspector.Cursor, cancel *types.Var) *ast.DeferStmt {
	for d := range fn.Preorder((*ast.DeferStmt)(nil)) {
		if code.EnclosingFunc(d).Node() == fn.Node() && isDeferCall(info, d.Node(), cancel) {
			return d.Node().(*ast.DeferStmt)
		}
	}
	return nil
}

// closureUsing returns the function literal in the sent value v (v itself,
// a field's value of a composite literal, behind an &) whose body uses
// the context derived, or nil.
func closureUsing(info *types.Info, v ast.Expr, derived *types.Var) *ast.FuncLit {
	var found *ast.FuncLit
	ast.Inspect(v, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			if usesVar(info, n.Body, derived) {
				found = n
			}
			return false
		case *ast.CallExpr:
			return false // a value computed now, not a job run later
		}
		return true
	})
	return found
}

// waitsAfter reports whether fn, after the send at s and outside function
// literals, receives, selects or calls a Wait method: it waits while the job
// runs.
func waitsAfter(fn, s inspector.Cursor) bool {
	from := s.Node().End()
	return code.AnyNode(code.FuncBody(fn.Node()), func(n ast.Node) bool {
		_, lit := n.(*ast.FuncLit)
		return lit
	}, func(n ast.Node) bool {
		if n.Pos() < from {
			return false
		}
		switch n := n.(type) {
		case *ast.UnaryExpr:
			return n.Op == token.ARROW
		case *ast.SelectStmt:
			return true
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			return ok && sel.Sel.Name == "Wait"
		}
		return false
	})
}

// reportCancelledBeforeRun reports, at the call that derives it (as the
// other deadline findings), a deadline the function's deferred cancel ends
// while a job queued with a literal that uses it waits. It has no fix: what
// context the job should run under, and with what budget, is the code's to
// say.
func (c *deadlineChecker) reportCancelledBeforeRun(call *ast.CallExpr, send *ast.SendStmt, lit *ast.FuncLit, deferAt *ast.DeferStmt, derived, cancel *types.Var, fn inspector.Cursor) {
	c.rep.Report(analysis.Diagnostic{
		Pos:      call.Pos(),
		End:      call.End(),
		Category: "deadline",
		Message: "the " + timeoutText(c.pass.TypesInfo, call) + " is cancelled when " + funcLabel(fn) + " returns (defer " + cancel.Name() + "()), but the job queued on " + edits.Source(c.pass, send.Chan) + " runs a function literal that uses " + derived.Name() +
			": the job runs after the return, when a consumer takes it, so the queue eats the whole budget and the work starts with its context already done; by hand: give the job its own context when it runs (from context.WithoutCancel(" + derived.Name() + ") with a budget of its own, or the deadline sent with the job)",
		Related: []analysis.RelatedInformation{
			{Pos: send.Pos(), End: send.End(), Message: "the job is queued here"},
			{Pos: deferAt.Pos(), End: deferAt.End(), Message: "the deadline is cancelled here when the function returns"},
			{Pos: lit.Pos(), End: lit.Type.End(), Message: "the queued literal that uses it"},
		},
	})
}

// funcLabel names the function at fn for a message: its name, or "the
// function literal".
func funcLabel(fn inspector.Cursor) string {
	if d, ok := fn.Node().(*ast.FuncDecl); ok {
		return d.Name.Name
	}
	return "the function literal"
}
