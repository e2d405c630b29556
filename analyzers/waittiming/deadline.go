package waittiming

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// isTimeoutCall reports whether call derives a context with a deadline.
func isTimeoutCall(info *types.Info, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !strings.HasPrefix(sel.Sel.Name, "With") {
		return false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "context" || len(call.Args) < 2 {
		return false
	}
	switch fn.Name() {
	case "WithTimeout", "WithDeadline", "WithTimeoutCause", "WithDeadlineCause":
		return true
	}
	return false
}

// checkDeadline reports a deadline derived at cur, right before an admission
// wait, whose context the work after the wait uses: the time spent queueing
// comes out of the work's budget.
func (c *deadlineChecker) checkDeadline(cur inspector.Cursor) {
	info := c.pass.TypesInfo
	call := cur.Node().(*ast.CallExpr)
	stmt := cur.Parent()
	assign, ok := stmt.Node().(*ast.AssignStmt)
	if !ok || len(assign.Lhs) != 2 || len(assign.Rhs) != 1 || !isListStmt(stmt) {
		c.rep.Silence(call, ruleNotLocalPair)
		return
	}
	if isDeadlineCall(info, call) && !readsClock(info, call.Args[1]) {
		c.rep.Silence(call, ruleAbsoluteDeadline)
		return // an absolute deadline the caller set: the budget of the whole call
	}
	// -maxQueueDuration, queueTimeout: a bound on the wait by design. It is
	// reported only when its context goes on to bound the work after the
	// wait too (reportQueueBudget); every other way it is left alone.
	forQueue := namesTheWait(call.Args[1])
	derived := localVar(info, assign.Lhs[0])
	cancel := localVar(info, assign.Lhs[1])
	if derived == nil {
		c.rep.Silence(call, ruleNotLocalPair)
		return
	}
	moved := []inspector.Cursor{stmt}
	next, ok := stmt.NextSibling()
	if ok && isDeferCall(info, next.Node(), cancel) {
		moved = append(moved, next)
		next, ok = next.NextSibling()
	}
	// if timeout > 0 { ctx, cancel = context.WithTimeout(ctx, timeout);
	// defer cancel() }: the deadline, when set, covers what follows the if.
	conditional := false
	if ifs := conditionalSetup(stmt); !ok && assign.Tok == token.ASSIGN && ifs.Valid() {
		conditional = true
		next, ok = ifs.NextSibling()
	}

	// The first statement that uses the context must be the wait: a
	// deadline that also bounds work before the wait is a budget for both.
	var waitAt inspector.Cursor
	var w admission.Wait
	for ; ok; next, ok = next.NextSibling() {
		if code.Assigns(info, next.Node(), derived) && !c.res.RebindsContext(next.Node(), derived) {
			c.rep.Silence(call, ruleReassigned)
			return
		}
		if wc, wt, found := c.waitIn(next); found {
			waitAt, w = wc, wt
			break
		}
		if send, q := c.queuedWith(next, derived); send != nil {
			// A buffered job queue: the send returns at once, and the job
			// waits in the queue with its deadline running.
			if forQueue {
				c.rep.Silence(call, ruleNamedForQueue)
				return
			}
			if !usedAfter(info, next, derived) {
				c.reportCarried(call, "the queue of "+q.Name(), send)
			} else {
				c.rep.Silence(call, ruleAwaitsReply)
			}
			return
		}
		if at, callee, iw := c.queueFirstCallee(next, derived); at != nil {
			if forQueue {
				c.rep.Silence(call, ruleNamedForQueue)
			} else {
				c.reportQueueFirst(call, at, callee, iw) // ctxfirst.go
			}
			return
		}
		if c.res.RebindsContext(next.Node(), derived) {
			continue // ctx, span := tracer.Start(ctx, "op"): the deadline goes on
		}
		if c.spendsContext(next.Node(), derived) || (cancel != nil && usesVar(info, next.Node(), cancel)) {
			c.rep.Silence(call, ruleUsedBeforeWait)
			return
		}
	}
	if !waitAt.Valid() {
		c.rep.Silence(call, ruleNoWaitAfter)
		return
	}
	if c.carriedToWorkers(w, derived) {
		// The job takes the context to the pool's workers (loki's push
		// tasks): whatever the worker does with it, the wait for a free
		// worker has already spent part of it.
		switch {
		case forQueue:
			c.rep.Silence(call, ruleNamedForQueue)
		case !usedAfter(info, next, derived):
			c.reportCarried(call, w.Name, w.Node)
		default:
			c.rep.Silence(call, ruleAwaitsReply)
		}
		return
	}
	if cancel != nil && usesVar(info, next.Node(), cancel) {
		c.rep.Silence(call, ruleCancelAtWait)
		return
	}
	waitStmt, stmtW := next, next
	if check := errCheckAfter(info, stmtW); check.Valid() {
		stmtW = check
	}
	after, ok := stmtW.NextSibling()
	if !ok {
		c.rep.Silence(call, ruleUnusedAfterWait)
		return
	}
	var work *ast.CallExpr
	for s, ok := after, true; ok && work == nil; s, ok = s.NextSibling() {
		if code.Assigns(info, s.Node(), derived) {
			break
		}
		work = c.passesVar(s, derived, w)
	}
	if work == nil {
		c.rep.Silence(call, ruleUnusedAfterWait)
		return
	}
	if forQueue {
		c.reportQueueBudget(call, w, work)
		return
	}

	d := analysis.Diagnostic{
		Pos:      call.Pos(),
		End:      call.End(),
		Category: "deadline",
		Message: "the " + timeoutText(info, call) + " starts before the wait in " + w.Name +
			", so time spent queueing comes out of the work's budget; create it after the wait",
		Related: []analysis.RelatedInformation{
			{Pos: w.Node.Pos(), End: w.Node.End(), Message: "the wait: " + w.Name},
			{Pos: work.Pos(), End: work.End(), Message: "the work that gets what is left of the budget"},
		},
	}
	fix, why := c.deadlineFix(deadlineSite{assign: assign, derived: derived, moved: moved, waitStmt: waitStmt, stmtW: stmtW, w: w})
	if conditional {
		fix, why = nil, "the deadline is set under a condition (if timeout > 0 {…}), which the fix would have to move too"
	}
	if fix == nil {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: call.Pos(), End: call.End(), Message: "no automatic fix: " + why + "; derive the work's context after the wait by hand, and give the wait a bound of its own"})
	} else {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	c.rep.Report(d)
}

// spendsContext reports whether st uses ctx for more than binding it or
// handing it to bookkeeping: a deadline that reaches work before the wait
// is that work's budget too. A call that is no work (a log or metrics call
// that takes the context for its values, a context check) leaves the
// budget whole; a use anywhere else (an argument of work, a field, a
// closure, a send) may spend it.
func (c *deadlineChecker) spendsContext(st ast.Node, ctx *types.Var) bool {
	info := c.pass.TypesInfo
	spends := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if spends {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if !c.isWorkCall(n, admission.Wait{}) {
				// Its context arguments only feed its records; what
				// else it is given may still be work (log(ctx, f(ctx))).
				for _, a := range n.Args {
					if id, ok := ast.Unparen(a).(*ast.Ident); ok && info.Uses[id] == ctx {
						continue
					}
					ast.Inspect(a, visit)
				}
				if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && code.Var(info, sel.X) == ctx {
					return false // ctx.Done(), ctx.Err(): asks, spends nothing
				}
				ast.Inspect(n.Fun, visit)
				return false
			}
		case *ast.Ident:
			spends = info.Uses[n] == ctx
		}
		return !spends
	}
	ast.Inspect(st, visit)
	return spends && c.res.UsesContextBeyondBinding(st, ctx)
}

// conditionalSetup returns the if statement whose body only sets up the
// deadline assigned at stmt, when there is one: the assignment, the
// declaration of its cancel function, the deferred cancel (if timeout > 0
// { var cancel context.CancelFunc; ctx, cancel = context.WithTimeout(ctx,
// timeout); defer cancel() }). A context assigned there, declared before
// the if, carries the deadline into the statements after it.
func conditionalSetup(stmt inspector.Cursor) inspector.Cursor {
	block := stmt.Parent()
	ifs := block.Parent()
	is, ok := ifs.Node().(*ast.IfStmt)
	if !ok || is.Body != block.Node() || is.Else != nil || !isListStmt(ifs) {
		return inspector.Cursor{}
	}
	for _, st := range is.Body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st != stmt.Node() {
				return inspector.Cursor{}
			}
		case *ast.DeclStmt, *ast.DeferStmt:
		default:
			return inspector.Cursor{}
		}
	}
	return ifs
}

// usedAfter reports whether a statement after stmt, in its list, uses v:
// the caller waits for the reply under the same deadline (select { case r
// := <-reply: … case <-ctx.Done(): … }), so it is the whole call's budget,
// end to end, not the work's.
func usedAfter(info *types.Info, stmt inspector.Cursor, v *types.Var) bool {
	for s, ok := stmt.NextSibling(); ok; s, ok = s.NextSibling() {
		if usesVar(info, s.Node(), v) {
			return true
		}
	}
	return false
}

// reportCarried reports the deadline derived by call, sent with a job to
// the workers at send after the wait named wait.
func (c *deadlineChecker) reportCarried(call *ast.CallExpr, wait string, send ast.Node) {
	c.rep.Report(analysis.Diagnostic{
		Pos:      call.Pos(),
		End:      call.End(),
		Category: "deadline",
		Message: "the " + timeoutText(c.pass.TypesInfo, call) + " starts before " + wait +
			" and travels with the job, so time spent waiting for a free worker comes out of the work's budget; send the budget with the job and derive the deadline in the worker when it takes the job",
		Related: []analysis.RelatedInformation{{Pos: send.Pos(), End: send.End(), Message: "the job leaves here, with the context"}},
	})
}

// reportQueueBudget reports a deadline named for the queue whose context
// bounds the work after the wait as well: the work gets only what the
// queue left of the budget, so a long wait ends as work that timed out
// (blamed on the work: a slow client, a slow backend). There is no safe
// fix: the wait keeps its bound, and the work's own budget is the code's
// to choose.
func (c *deadlineChecker) reportQueueBudget(call *ast.CallExpr, w admission.Wait, work *ast.CallExpr) {
	c.rep.Report(analysis.Diagnostic{
		Pos:      call.Pos(),
		End:      call.End(),
		Category: "deadline",
		Message: "the " + timeoutText(c.pass.TypesInfo, call) + " is named for the queue and bounds the wait in " + w.Name +
			", but its context goes on to the work after the wait, which gets only what the queue left of it: a long wait ends as work that timed out; by hand: keep it for the wait, and give the work a context of its own derived after the wait",
		Related: []analysis.RelatedInformation{
			{Pos: w.Node.Pos(), End: w.Node.End(), Message: "the wait: " + w.Name},
			{Pos: work.Pos(), End: work.End(), Message: "the work that gets what the queue left of the budget"},
		},
	})
}

// queuedWith returns a send in stmt (itself, or a case of its select) of a
// job holding derived to a buffered job queue of the package's workers,
// and the queue.
func (c *deadlineChecker) queuedWith(stmt inspector.Cursor, derived *types.Var) (*ast.SendStmt, *types.Var) {
	info := c.pass.TypesInfo
	var found *ast.SendStmt
	var q *types.Var
	var sends []*ast.SendStmt
	switch n := stmt.Node().(type) {
	case *ast.SendStmt:
		sends = append(sends, n)
	case *ast.SelectStmt:
		for _, cc := range n.Body.List {
			if s, ok := cc.(*ast.CommClause).Comm.(*ast.SendStmt); ok {
				sends = append(sends, s)
			}
		}
	}
	for _, s := range sends {
		if v := code.Var(info, s.Chan); v != nil && c.adm.IsJobQueue(v) && usesVar(info, s.Value, derived) {
			found, q = s, v
		}
	}
	return found, q
}

// namesTheWait reports whether the budget is named for the wait it bounds:
// an identifier or field mentioning a queue or a wait (maxQueueDuration,
// queueTimeout, waitTimeout).
func namesTheWait(budget ast.Expr) bool {
	named := false
	ast.Inspect(budget, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			named = named || knowledge.WaitBudgetWords.Match(strings.ToLower(id.Name))
		}
		return !named
	})
	return named
}

// carriedToWorkers reports whether the wait w hands a job to a pool's
// workers and the job holds the derived context: task{ctx: ctx, …} sent on
// the workers' channel.
func (c *deadlineChecker) carriedToWorkers(w admission.Wait, derived *types.Var) bool {
	if w.Kind != admission.Pool || w.On == nil {
		return false
	}
	info := c.pass.TypesInfo
	carried := false
	ast.Inspect(w.Node, func(n ast.Node) bool { // the send, or the select whose case it is
		if send, ok := n.(*ast.SendStmt); ok && code.Var(info, send.Chan) == w.On && usesVar(info, send.Value, derived) {
			carried = true
		}
		return !carried
	})
	return carried
}

// A deadlineSite is a deadline derived before a wait: the assignment, the
// context it derives, the statements that move (the assignment and its
// defer cancel()), the wait's statement and the last statement of the wait
// (the error check after it, if any).
type deadlineSite struct {
	assign          *ast.AssignStmt
	derived         *types.Var
	moved           []inspector.Cursor
	waitStmt, stmtW inspector.Cursor
	w               admission.Wait
}

// deadlineFix moves the derivation below the wait (and the defers that
// release it). When the wait used the derived context and its parent has
// no deadline of its own (context.Background(), a parameter), the wait
// would be unbounded: it keeps a bound, a context of its own derived the same
// way, and the work gets a fresh budget after it.
func (c *deadlineChecker) deadlineFix(s deadlineSite) (*analysis.SuggestedFix, string) {
	info := c.pass.TypesInfo
	call := s.assign.Rhs[0].(*ast.CallExpr)
	parent := ast.Unparen(call.Args[0])
	last := c.afterReleaseDefers(s.stmtW, inspector.Cursor{})
	after, ok := last.NextSibling()
	if !ok {
		return nil, "nothing follows the wait in its block"
	}
	waitSpan := s.waitStmt.Node().Pos()
	var waitUses []*ast.Ident
	for st := s.waitStmt; ; {
		for cur := range st.Preorder((*ast.Ident)(nil)) {
			if id := cur.Node().(*ast.Ident); info.Uses[id] == s.derived {
				waitUses = append(waitUses, id)
			}
		}
		if st == s.stmtW {
			break
		}
		st, _ = st.NextSibling()
	}
	if usedBetween(info, s.moved[len(s.moved)-1], s.waitStmt, s.derived) && !isParentName(info, s.assign, parent) {
		// Bookkeeping before the wait (a log line) reads the context by the
		// name the fix moves below the wait.
		return nil, "the derived context is read before the wait under a name of its own, which the fix would move below those reads"
	}
	if !reEvaluable(info, parent) || !budgetReEvaluable(info, call.Args[1:]) {
		return nil, "the context's parent or budget is computed by a call the fix would repeat after the wait"
	}

	file := edits.EnclosingFile(c.pass.Files, s.assign.Pos())
	var texts []string
	var es []analysis.TextEdit
	for _, mv := range s.moved {
		sp := edits.DeleteStmt(c.pass, file, mv.Node())
		content := fileContent(c.pass, mv.Node().Pos())
		tf := c.pass.Fset.File(mv.Node().Pos())
		if content == nil || sp.Start == mv.Node().Pos() {
			return nil, "the derivation shares its line with other code"
		}
		text := string(content[tf.Offset(sp.TextStart):tf.Offset(sp.TextEnd)])
		texts = append(texts, dedent(text, edits.Indent(c.pass, mv.Node().Pos())))
		es = append(es, sp.Delete())
	}
	es = append(es, edits.InsertBefore(c.pass, after.Node(), strings.Join(texts, "\n")))

	switch {
	case len(waitUses) == 0:
		// The wait does not see the deadline: moving it is the whole fix.
		return c.deadlineEdits(s, "Create the timeout after the wait", es)
	case c.hasOwnDeadline(parent, s.assign.Pos()):
		// The parent's own deadline still bounds the wait.
		if _, same := parent.(*ast.Ident); !same || !isParentName(info, s.assign, parent) {
			text := edits.Source(c.pass, parent)
			for _, id := range waitUses {
				es = append(es, edits.Replace(id, text))
			}
		}
		return c.deadlineEdits(s, "Create the timeout after the wait", es)
	}
	// The wait keeps a bound of its own; the work gets a fresh budget.
	uses := make([]token.Pos, len(waitUses))
	for i, id := range waitUses {
		uses[i] = id.Pos()
	}
	waitCtx := c.names.Local(waitSpan, "waitCtx", uses...)
	cancelWait := c.names.Local(waitSpan, "cancelWait", uses...)
	callText := edits.Source(c.pass, call)
	es = append(es, edits.InsertBefore(c.pass, s.waitStmt.Node(), waitCtx+", "+cancelWait+" := "+callText+"\ndefer "+cancelWait+"()"))
	for _, id := range waitUses {
		es = append(es, edits.Replace(id, waitCtx))
	}
	return c.deadlineEdits(s, "Bound the wait with a timeout of its own and create the work's timeout after the wait", es)
}

// usedBetween reports whether a statement after from and before to (its
// siblings) reads v.
func usedBetween(info *types.Info, from, to inspector.Cursor, v *types.Var) bool {
	for st, ok := from.NextSibling(); ok && st != to; st, ok = st.NextSibling() {
		if usesVar(info, st.Node(), v) {
			return true
		}
	}
	return false
}

// deadlineEdits returns the fix made of es, unless a goto would jump over a
// context it declares.
func (c *deadlineChecker) deadlineEdits(s deadlineSite, msg string, es []analysis.TextEdit) (*analysis.SuggestedFix, string) {
	if c.declaresJumped(s.waitStmt, es) {
		return nil, "a goto jumps over where the fix declares the context"
	}
	f := edits.Fix(msg, es...)
	return &f, ""
}

// isParentName reports whether the derived context's name, where the
// derivation stood, means the parent: ctx, cancel = context.WithTimeout(ctx,
// d), or ctx, cancel := … shadowing an outer ctx.
func isParentName(info *types.Info, assign *ast.AssignStmt, parent ast.Expr) bool {
	pid, ok := parent.(*ast.Ident)
	if !ok {
		return false
	}
	lhs := assign.Lhs[0].(*ast.Ident)
	return info.Uses[pid] == info.ObjectOf(lhs) || (info.Defs[lhs] != nil && pid.Name == lhs.Name)
}

// hasOwnDeadline reports whether parent is a local context that the same
// function derived with a deadline before pos: the wait stays bounded by it.
func (c *deadlineChecker) hasOwnDeadline(parent ast.Expr, pos token.Pos) bool {
	v := localVar(c.pass.TypesInfo, parent)
	if v == nil {
		return false
	}
	for cur := range c.insp.Root().Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		if as.Pos() >= pos || len(as.Rhs) != 1 || len(as.Lhs) != 2 {
			continue
		}
		rhs, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if ok && isTimeoutCall(c.pass.TypesInfo, rhs) && localVar(c.pass.TypesInfo, as.Lhs[0]) == v && v.Parent().Contains(as.Pos()) {
			return true
		}
	}
	return false
}

// reEvaluable reports whether evaluating e again after the wait gives the
// same context: a variable or field, or context.Background() or TODO().
func reEvaluable(info *types.Info, e ast.Expr) bool {
	if isPlainRef(e) {
		return true
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	fn := code.Callee(info, call)
	return code.IsFunc(fn, "context", "Background") || code.IsFunc(fn, "context", "TODO")
}

// budgetReEvaluable reports whether the budget arguments of a derivation
// can be evaluated again after the wait with the same meaning: they call
// nothing but package time (time.Now().Add(d), time.Duration(n)*time.Second)
// and conversions.
func budgetReEvaluable(info *types.Info, args []ast.Expr) bool {
	return code.CallFree(info, inTime, args...) && !code.HasFuncLit(args...)
}

func inTime(fn *types.Func) bool { return fn.Pkg() != nil && fn.Pkg().Path() == "time" }

// isDeadlineCall reports whether call is context.WithDeadline or
// WithDeadlineCause.
func isDeadlineCall(info *types.Info, call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && strings.HasPrefix(fn.Name(), "WithDeadline")
}

// readsClock reports whether e reads the clock (time.Now().Add(d)): a
// deadline relative to now, which deriving later moves.
func readsClock(info *types.Info, e ast.Expr) bool {
	return code.AnyNode(e, nil, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && timing.IsTimestamp(info, call) {
			return true
		}
		return false
	})
}

// timeoutText names the deadline: "2s timeout from context.WithTimeout",
// "deadline from context.WithDeadline".
func timeoutText(info *types.Info, call *ast.CallExpr) string {
	fn := typeutil.Callee(info, call).(*types.Func)
	name := "context." + fn.Name()
	if strings.HasPrefix(fn.Name(), "WithDeadline") {
		return "deadline from " + name
	}
	if d, ok := consts.Int(info, call.Args[1]); ok {
		return time.Duration(d).String() + " timeout from " + name
	}
	return "timeout from " + name
}

// waitIn returns the first admission wait a statement always reaches: not
// in a loop, an error branch, a goroutine or a deferred call.
func (c *deadlineChecker) waitIn(stmt inspector.Cursor) (inspector.Cursor, admission.Wait, bool) {
	var at inspector.Cursor
	var w admission.Wait
	kinds := []ast.Node{
		(*ast.CallExpr)(nil), (*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.SelectStmt)(nil),
		(*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil), (*ast.ForStmt)(nil), (*ast.RangeStmt)(nil),
		(*ast.BlockStmt)(nil), (*ast.CaseClause)(nil), (*ast.CommClause)(nil),
	}
	stmt.Inspect(kinds, func(cur inspector.Cursor) bool {
		if at.Valid() {
			return false
		}
		switch n := cur.Node().(type) {
		case *ast.FuncLit, *ast.DeferStmt, *ast.GoStmt, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.BlockStmt:
			return !isErrorBranch(c.pass.TypesInfo, cur) && !code.Terminates(n.List, false)
		case *ast.CaseClause, *ast.CommClause:
			return false // one case of several
		}
		if wt, ok := c.adm.At(cur); ok && wt.Kind != admission.LimitedGroup {
			at, w = cur, wt
			return false
		}
		return true
	})
	return at, w, at.Valid()
}

// passesVar returns a call in stmt that does work and passes v to it.
func (c *deadlineChecker) passesVar(stmt inspector.Cursor, v *types.Var, w admission.Wait) *ast.CallExpr {
	info := c.pass.TypesInfo
	var found *ast.CallExpr
	stmt.Inspect([]ast.Node{(*ast.CallExpr)(nil), (*ast.DeferStmt)(nil)}, func(cur inspector.Cursor) bool {
		if found != nil {
			return false
		}
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return false // deferred calls run after the work
		}
		for _, a := range call.Args {
			if id, ok := ast.Unparen(a).(*ast.Ident); ok && info.Uses[id] == v && c.isWorkCall(call, w) {
				found = call
				return false
			}
		}
		return true
	})
	return found
}

// isPlainRef reports whether e is a variable or a chain of field selections:
// reading it again later gives the same value without side effects.
func isPlainRef(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return isPlainRef(e.X)
	}
	return false
}

// isDeferCall reports whether node is defer f() for the function variable f.
func isDeferCall(info *types.Info, node ast.Node, f *types.Var) bool {
	d, ok := node.(*ast.DeferStmt)
	if !ok || f == nil || len(d.Call.Args) != 0 {
		return false
	}
	id, ok := ast.Unparen(d.Call.Fun).(*ast.Ident)
	return ok && info.Uses[id] == f
}
