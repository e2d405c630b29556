package retrysend

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// A bound says what ends a loop other than a successful send.
type bound uint8

const (
	unbounded bound = iota // for {}: only the send ends it
	flagged                // for !sent {}: the send case sets the flag
	cancelled              // for ctx.Err() == nil {}: cancellation ends it
	counted                // for i := 0; i < n; i++ {}, for range n {}
	deadline               // for time.Now().Before(d) {}, for time.Since(t) < d {}
)

// A loop is a loop statement whose body holds a non-blocking send.
type loop struct {
	cur   inspector.Cursor // the *ast.ForStmt or *ast.RangeStmt
	stmt  ast.Stmt
	outer ast.Stmt     // the labeled statement around stmt, or stmt
	label *types.Label // nil when the loop has no label
	body  *ast.BlockStmt

	bound       bound
	flag        *types.Var // flagged: the variable the condition negates
	ctx         ast.Expr   // cancelled: the context
	count       ast.Expr   // counted: the number of iterations (with countN when constant)
	countN      int64
	counter     *types.Var // counted: the loop's counter, or nil
	start       int64      // counted: the counter's first value
	timeout     string     // deadline: the timer's duration, as source
	timeoutKept []span     // deadline: the source timeout takes along
}

// An attempt is the loop's body split around the select, with what each
// path of one iteration does.
type attempt struct {
	before, after sendselect.Path // the body's statements before and after the select
	dflt          sendselect.Path // the default case
	send          sendselect.Path // the send case

	beforeStmts, afterStmts, dfltStmts []ast.Stmt // what before, after and dflt summarise

	// stops are the checks before the select that leave the loop when a
	// channel is ready (select { case <-ctx.Done(): return ctx.Err();
	// default: }): the loop's own way of honouring cancellation, which
	// its fix keeps as cases of the blocking select.
	stops []*ast.CommClause
}

// sendLeaves reports whether a successful send leaves the loop: in its case,
// or in the statements after the select when the case falls through to them.
func (a attempt) sendLeaves() bool {
	return a.send.End.Leaves() || (a.send.End == sendselect.Falls && a.after.End.Leaves())
}

// sendReturns is like sendLeaves for a return or a panic, which also skip
// what follows the loop.
func (a attempt) sendReturns() bool {
	ret := func(e sendselect.End) bool { return e == sendselect.Returns || e == sendselect.Panics }
	return ret(a.send.End) || (a.send.End == sendselect.Falls && ret(a.after.End))
}

// defaultStays reports whether a failed send carries on with the loop.
func (a attempt) defaultStays() bool {
	return a.dflt.End == sendselect.Continues || (a.dflt.End == sendselect.Falls && a.after.End.Stays())
}

// waits returns the statements one failed attempt waits in.
func (a attempt) waits() []ast.Stmt {
	w := append(append([]ast.Stmt(nil), a.before.Waits...), a.dflt.Waits...)
	if a.dflt.End == sendselect.Falls {
		w = append(w, a.after.Waits...)
	}
	return w
}

// sleeps reports whether a failed attempt lets time pass, rather than only
// yielding the processor.
func (a attempt) sleeps(info *types.Info) bool {
	for _, w := range a.waits() {
		if !sendselect.IsSpin(info, w) {
			return true
		}
	}
	return false
}

// sleep returns the duration a failed attempt sleeps, when it sleeps once
// with time.Sleep and does not otherwise wait.
func (a attempt) sleep() ast.Expr {
	w := a.waits()
	if len(w) != 1 {
		return nil
	}
	for _, p := range []sendselect.Path{a.before, a.dflt, a.after} {
		if p.Sleep != nil && p.Waits[0] == w[0] {
			return p.Sleep
		}
	}
	return nil
}

func (a attempt) honoursCtx() bool {
	return len(a.stops) > 0 || a.before.HonoursCtx || a.dflt.HonoursCtx || a.after.HonoursCtx
}

// retryLoop reports a loop that retries the non-blocking send s until it
// succeeds (retryloop) or a fixed number of times or until a deadline
// (pollingsend).
func (c *retryChecker) retryLoop(s send) *finding {
	l, a, at, rule := c.retryShape(s)
	if rule != nil {
		c.rep.Silence(at, rule)
		return nil
	}
	if l.bound == counted || l.bound == deadline {
		return c.pollingSend(s, l, a)
	}
	return c.retrySend(s, l, a)
}

// retryShape decides whether a loop retries the non-blocking send s: it
// returns the loop and one attempt of it, or the rule that says why not
// and the node it applies to.
func (c *retryChecker) retryShape(s send) (loop, attempt, ast.Node, *report.Rule) {
	l, ok := c.loopAround(s.cur)
	if !ok {
		return loop{}, attempt{}, s.nb.Send, ruleNoRetryLoop
	}
	a, rule := c.splitAttempt(l, s)
	if rule != nil {
		return loop{}, attempt{}, s.nb.Send, rule
	}
	if !c.invariant(l, s.nb.Case, s.nb.Send.Chan, s.nb.Send.Value) {
		return loop{}, attempt{}, s.nb.Send, ruleChangingItem
	}
	switch l.bound {
	case flagged:
		if !setsFlag(c.info, s.nb.Case.Body, l.flag) || a.send.End == sendselect.Continues || assignedOutsideSend(c.info, l, s, l.flag) {
			return loop{}, attempt{}, s.nb.Send, ruleFlagNotSend
		}
	default:
		if !a.sendLeaves() {
			return loop{}, attempt{}, s.nb.Send, ruleSendStays
		}
		if l.bound == counted && !a.sleeps(c.info) {
			// A bounded spin gives up within microseconds: it sheds, and
			// adds neither latency nor a backlog.
			return loop{}, attempt{}, l.stmt, ruleBoundedSpin
		}
	}
	return l, a, nil, nil
}

// loopAround returns the loop whose body holds the statement at cur, when its
// shape is one retry loops take.
func (c *retryChecker) loopAround(cur inspector.Cursor) (loop, bool) {
	if cur.ParentEdgeKind() != edge.BlockStmt_List {
		return loop{}, false
	}
	block := cur.Parent()
	l := loop{cur: block.Parent(), body: block.Node().(*ast.BlockStmt)}
	switch block.ParentEdgeKind() {
	case edge.ForStmt_Body:
		fs := l.cur.Node().(*ast.ForStmt)
		l.stmt = fs
		if !c.forBound(&l, fs) {
			return loop{}, false
		}
	case edge.RangeStmt_Body:
		rs := l.cur.Node().(*ast.RangeStmt)
		l.stmt = rs
		if !c.rangeBound(&l, rs) {
			return loop{}, false
		}
	default:
		return loop{}, false
	}
	l.outer = l.stmt
	if ls, ok := l.cur.Parent().Node().(*ast.LabeledStmt); ok {
		l.outer = ls
		l.label, _ = c.info.Defs[ls.Label].(*types.Label)
	}
	return l, true
}

// forBound decides what bounds a three-clause or condition-only loop.
func (c *retryChecker) forBound(l *loop, fs *ast.ForStmt) bool {
	if fs.Init != nil && !isCallFreeDefine(c.info, fs.Init) {
		return false
	}
	if fs.Post != nil && !sendselect.IsCount(c.info, fs.Post) {
		return false
	}
	switch cond := ast.Unparen(fs.Cond).(type) {
	case nil:
		l.bound = unbounded
		return true
	case *ast.UnaryExpr:
		// for !sent {}
		id, ok := ast.Unparen(cond.X).(*ast.Ident)
		if !ok || cond.Op != token.NOT {
			return false
		}
		v, ok := c.info.Uses[id].(*types.Var)
		if !ok || !isLocal(v) {
			return false
		}
		l.bound, l.flag = flagged, v
		return true
	case *ast.BinaryExpr:
		if ctx, ok := c.ctxErrNil(cond); ok {
			l.bound, l.ctx = cancelled, ctx
			return true
		}
		if timeout, kept, ok := c.deadlineCond(cond); ok {
			l.bound, l.timeout, l.timeoutKept = deadline, timeout, kept
			return true
		}
		return c.countedCond(l, fs, cond)
	case *ast.CallExpr:
		if timeout, kept, ok := c.deadlineCond(cond); ok {
			l.bound, l.timeout, l.timeoutKept = deadline, timeout, kept
			return true
		}
	}
	return false
}

// ctxErrNil matches ctx.Err() == nil.
func (c *retryChecker) ctxErrNil(cond *ast.BinaryExpr) (ast.Expr, bool) {
	if cond.Op != token.EQL || !code.IsNil(c.info, cond.Y) {
		return nil, false
	}
	call, ok := ast.Unparen(cond.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return nil, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Err" || !sendselect.IsContext(c.info.TypeOf(sel.X)) {
		return nil, false
	}
	if _, ok := ast.Unparen(sel.X).(*ast.Ident); !ok {
		return nil, false
	}
	return sel.X, true
}

// deadlineCond matches time.Now().Before(d) and time.Since(t) < d, and
// returns the time left, as the timer that replaces the loop would take it.
func (c *retryChecker) deadlineCond(cond ast.Expr) (string, []span, bool) {
	switch cond := ast.Unparen(cond).(type) {
	case *ast.CallExpr:
		// time.Now().Before(d)
		if sendselect.CallName(c.info, cond) != "(time.Time).Before" || len(cond.Args) != 1 {
			return "", nil, false
		}
		sel := ast.Unparen(cond.Fun).(*ast.SelectorExpr)
		now, ok := ast.Unparen(sel.X).(*ast.CallExpr)
		if !ok || sendselect.CallName(c.info, now) != "time.Now" || !code.CallFree(c.info, nil, cond.Args[0]) {
			return "", nil, false
		}
		until, ok := c.untilAt(now.Fun)
		if !ok {
			return "", nil, false
		}
		return until + "(" + edits.Source(c.pass, cond.Args[0]) + ")", []span{spanOf(cond.Args[0])}, true
	case *ast.BinaryExpr:
		// time.Since(t) < d
		since, ok := ast.Unparen(cond.X).(*ast.CallExpr)
		if !ok || cond.Op != token.LSS || sendselect.CallName(c.info, since) != "time.Since" ||
			!code.CallFree(c.info, nil, since.Args...) || !code.CallFree(c.info, nil, cond.Y) {
			return "", nil, false
		}
		return edits.Source(c.pass, cond.Y) + " - " + edits.Source(c.pass, since), []span{spanOf(cond.Y), spanOf(since)}, true
	}
	return "", nil, false
}

// untilAt returns how the file spells time.Until where it spells time.Now
// as now: through the same package name, or bare under a dot import (when
// no declaration shadows it there).
func (c *retryChecker) untilAt(now ast.Expr) (string, bool) {
	switch now := ast.Unparen(now).(type) {
	case *ast.SelectorExpr:
		return edits.Source(c.pass, now.X) + ".Until", true
	case *ast.Ident:
		scope := c.pass.Pkg.Scope().Innermost(now.Pos())
		if scope == nil {
			return "", false
		}
		_, obj := scope.LookupParent("Until", now.Pos())
		if fn, ok := obj.(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "time" {
			return "Until", true
		}
	}
	return "", false
}

// countedCond matches i := k; i < n; i++ (or i <= n) with an integer k.
func (c *retryChecker) countedCond(l *loop, fs *ast.ForStmt, cond *ast.BinaryExpr) bool {
	init, ok := fs.Init.(*ast.AssignStmt)
	if !ok || len(init.Lhs) != 1 || fs.Post == nil {
		return false
	}
	id, ok := init.Lhs[0].(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := c.info.Defs[id].(*types.Var)
	if !ok || !incrementsByOne(c.info, fs.Post, v) || code.Assigns(c.info, fs.Body, v) {
		// A counter the body moves too makes another number of attempts
		// than the header says.
		return false
	}
	if x, ok := ast.Unparen(cond.X).(*ast.Ident); !ok || c.info.Uses[x] != v {
		return false
	}
	start, ok := consts.Int(c.info, init.Rhs[0])
	if !ok || !code.CallFree(c.info, nil, cond.Y) {
		return false
	}
	extra := int64(0)
	switch cond.Op {
	case token.LSS:
	case token.LEQ:
		extra = 1
	default:
		return false
	}
	l.bound, l.counter, l.start = counted, v, start
	if n, ok := consts.Int(c.info, cond.Y); ok {
		l.count, l.countN = cond.Y, n-start+extra
		return l.countN > 0
	}
	if start != 0 || extra != 0 {
		return false
	}
	l.count = cond.Y
	return true
}

func incrementsByOne(info *types.Info, post ast.Stmt, v *types.Var) bool {
	switch post := post.(type) {
	case *ast.IncDecStmt:
		id, ok := ast.Unparen(post.X).(*ast.Ident)
		return ok && post.Tok == token.INC && info.Uses[id] == v
	case *ast.AssignStmt:
		id, ok := ast.Unparen(post.Lhs[0]).(*ast.Ident)
		n, isConst := consts.Int(info, post.Rhs[0])
		return ok && post.Tok == token.ADD_ASSIGN && info.Uses[id] == v && isConst && n == 1
	}
	return false
}

// rangeBound matches for range n and for i := range n over an integer n.
func (c *retryChecker) rangeBound(l *loop, rs *ast.RangeStmt) bool {
	t := c.info.TypeOf(rs.X)
	if t == nil || rs.Value != nil {
		return false
	}
	if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 || !code.CallFree(c.info, nil, rs.X) {
		return false
	}
	l.bound, l.count = counted, rs.X
	if id, ok := rs.Key.(*ast.Ident); ok {
		l.counter, _ = c.info.Defs[id].(*types.Var)
	}
	if n, ok := consts.Int(c.info, rs.X); ok {
		l.countN = n
		return n > 0
	}
	return true
}

func isCallFreeDefine(info *types.Info, s ast.Stmt) bool {
	as, ok := s.(*ast.AssignStmt)
	return ok && as.Tok == token.DEFINE && code.CallFree(info, nil, as.Rhs...)
}

// splitAttempt summarises one iteration of l around the select of s. Every
// statement but the send case's must only wait, count, log or update a
// local: a loop that does other work between attempts polls for that work.
func (c *retryChecker) splitAttempt(l loop, s send) (attempt, *report.Rule) {
	idx := s.cur.ParentEdgeIndex()
	stops, before := c.stopChecks(l.body.List[:idx], l)
	a := attempt{
		before: sendselect.LoopBody(c.info, before, l.label, c.isWait),
		after:  sendselect.LoopBody(c.info, l.body.List[idx+1:], l.label, c.isWait),
		dflt:   sendselect.Case(c.info, s.nb.Default.Body, l.label, c.isWait),
		send:   sendselect.Case(c.info, s.nb.Case.Body, l.label, c.isWait),

		beforeStmts: before,
		afterStmts:  l.body.List[idx+1:],
		dfltStmts:   s.nb.Default.Body,
		stops:       stops,
	}
	switch {
	case !a.defaultStays():
		return attempt{}, ruleDefaultLeaves
	case !a.before.Idle || a.before.Last != nil || !a.after.Idle || !a.dflt.Idle:
		return attempt{}, ruleWorksBetween
	case !onlyFinalBranch(s.nb.Case.Body, a.send.Last):
		return attempt{}, ruleInnerBranch
	}
	return a, nil
}

// stopChecks splits stmts, statements of l's body, into the checks that
// stop the loop when a channel is ready and the rest. A check is a select
// with an empty default and one receive, from ctx.Done() or a channel
// expression that calls nothing, whose body only keeps the books and then
// returns, panics or breaks out of l.
func (c *retryChecker) stopChecks(stmts []ast.Stmt, l loop) ([]*ast.CommClause, []ast.Stmt) {
	var stops []*ast.CommClause
	var rest []ast.Stmt
	for _, st := range stmts {
		if cc := c.stopCheck(st, l); cc != nil {
			stops = append(stops, cc)
		} else {
			rest = append(rest, st)
		}
	}
	return stops, rest
}

func (c *retryChecker) stopCheck(st ast.Stmt, l loop) *ast.CommClause {
	sel, ok := st.(*ast.SelectStmt)
	if !ok || len(sel.Body.List) != 2 {
		return nil
	}
	var recv *ast.CommClause
	for _, s := range sel.Body.List {
		cc := s.(*ast.CommClause)
		switch {
		case cc.Comm == nil:
			if len(cc.Body) > 0 {
				return nil
			}
		case recv == nil:
			recv = cc
		default:
			return nil
		}
	}
	es, ok := recv.Comm.(*ast.ExprStmt)
	if !ok {
		return nil
	}
	u, ok := ast.Unparen(es.X).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW || !c.isDoneCall(u.X) && !code.CallFree(c.info, nil, u.X) {
		return nil
	}
	p := sendselect.Case(c.info, recv.Body, l.label, c.isWait)
	if !p.Idle || len(p.Waits) > 0 || !p.End.Leaves() || !onlyFinalBranch(recv.Body, p.Last) {
		return nil
	}
	if p.End == sendselect.Branches && !c.fix.breaksLoop(p.Last, l, false) {
		return nil // a branch to a label around the loop
	}
	return recv
}

// isDoneCall reports whether x is ctx.Done() on a context variable.
func (c *retryChecker) isDoneCall(x ast.Expr) bool {
	if !sendselect.IsDone(c.info, x) {
		return false
	}
	sel := ast.Unparen(ast.Unparen(x).(*ast.CallExpr).Fun).(*ast.SelectorExpr)
	_, isIdent := ast.Unparen(sel.X).(*ast.Ident)
	return isIdent
}

// onlyFinalBranch reports whether the only break, continue or goto in body
// is last, its final statement: the fix moves body out of the loop and out
// of the select, where any other would change its target.
func onlyFinalBranch(body []ast.Stmt, last ast.Stmt) bool {
	for _, s := range body {
		if code.AnyNode(s, code.IsFuncLit, func(n ast.Node) bool { br, ok := n.(*ast.BranchStmt); return ok && br != last }) {
			return false
		}
	}
	return true
}

// invariant reports whether exprs denote the same channel and value in every
// iteration of l: they call nothing and l assigns none of their variables
// (outside the send case, which runs once, as the loop ends).
func (c *retryChecker) invariant(l loop, sendCase ast.Node, exprs ...ast.Expr) bool {
	if !code.CallFree(c.info, nil, exprs...) {
		return false
	}
	assigned := code.AssignedIn(c.info, l.stmt, sendCase)
	for _, e := range exprs {
		changed := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && assigned[c.info.Uses[id]] {
				changed = true
			}
			return !changed
		})
		if changed {
			return false
		}
	}
	return true
}

// setsFlag reports whether body assigns true to flag as one of its own
// statements.
func setsFlag(info *types.Info, body []ast.Stmt, flag *types.Var) bool {
	return flagAssignment(info, body, flag) != nil
}

func flagAssignment(info *types.Info, body []ast.Stmt, flag *types.Var) ast.Stmt {
	for _, s := range body {
		as, ok := s.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 {
			continue
		}
		id, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident)
		val, isTrue := ast.Unparen(as.Rhs[0]).(*ast.Ident)
		if ok && isTrue && info.Uses[id] == flag && info.Uses[val] == types.Universe.Lookup("true") {
			return s
		}
	}
	return nil
}

func isLocal(v *types.Var) bool {
	return v != nil && !v.IsField() && v.Pkg() != nil && v.Parent() != nil && v.Parent() != v.Pkg().Scope()
}

// retrySend builds the retryloop finding for a loop that retries s until it
// succeeds.
func (c *retryChecker) retrySend(s send, l loop, a attempt) *finding {
	fix, honours := c.fix.blockingSendFix(s, l, a)
	ch := edits.Source(c.pass, s.nb.Send.Chan)
	msg := c.retryMessage(ch, a, l.bound == cancelled, honours)
	rel := []analysis.RelatedInformation{related(s.nb.Send, "the non-blocking send")}
	if w := a.waits(); len(w) > 0 {
		rel = append(rel, related(w[0], "waits here, then tries again"))
	} else {
		rel = append(rel, related(s.nb.Default, "gives up at once and tries again"))
	}
	return &finding{
		file:    s.file,
		kind:    "retryloop",
		pos:     l.stmt.Pos(),
		end:     l.body.Lbrace,
		message: msg,
		related: rel,
		fix:     fix,
	}
}

// retryMessage describes a retry loop of the send on ch (its channel and,
// for a helper, "ch through Helper") whose failed attempts do a: how it waits,
// what that costs, whether it honours cancellation, and the remedy the fix
// applies.
func (c *retryChecker) retryMessage(ch string, a attempt, cancellable, fixHonours bool) string {
	how, cost := "spinning", "burns a CPU"
	if d := a.sleep(); d != nil {
		how = "sleeping between attempts"
		if ns, ok := consts.Int(c.info, d); ok {
			how = fmt.Sprintf("sleeping %v between attempts", time.Duration(ns))
		}
		cost = "adds latency"
	} else if a.sleeps(c.info) {
		how, cost = "waiting between attempts", "adds latency"
	}
	ignores := ", ignores cancellation"
	if cancellable || a.honoursCtx() {
		ignores = ""
	}
	remedy := "block on the send instead"
	switch {
	case fixHonours && len(a.stops) > 0:
		remedy = "block on the send, in a select that keeps the loop's stop case, instead"
	case fixHonours:
		remedy = "block on the send, with ctx.Done(), instead"
	}
	return fmt.Sprintf("loop retries a non-blocking send on %s until it succeeds, %s: it %s%s and lets work pile up upstream instead of pushing back; %s",
		ch, how, cost, ignores, remedy)
}

// assignedOutsideSend reports whether anything in l but the send case's own
// statements assigns v.
func assignedOutsideSend(info *types.Info, l loop, s send, v *types.Var) bool {
	own := flagAssignment(info, s.nb.Case.Body, v)
	found := false
	ast.Inspect(l.stmt, func(n ast.Node) bool {
		if n == own {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && info.Uses[id] == v && n != l.stmt.(*ast.ForStmt).Init {
					found = true
				}
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && info.Uses[id] == v {
				found = true
			}
		}
		return !found
	})
	return found
}

// pollingSend builds the pollingsend finding for a loop that tries s a
// bounded number of times or until a deadline, then gives up.
func (c *retryChecker) pollingSend(s send, l loop, a attempt) *finding {
	file := s.file.Node().(*ast.File)
	timePkg, timeImport, importable := edits.AddImport(c.pass, file, "time", l.stmt.Pos())
	b := budget{known: true, expr: l.timeout, kept: l.timeoutKept}
	if l.bound == counted {
		b = (&budgeter{c.pkg}).budgetOf(l, a, timePkg)
	}
	var fix *fixPlan
	// A timed send replaces the loop only when success skips the
	// rejection after it, which a return does; a break lands on it.
	if b.known && importable && a.sendReturns() {
		fix = c.fix.timedSendFix(s, l, a, b, timePkg, timeImport)
	}
	ch := edits.Source(c.pass, s.nb.Send.Chan)
	count := "a fixed number of times"
	if l.countN > 0 {
		count = fmt.Sprintf("%d times", l.countN)
	}
	var how string
	switch {
	case l.bound == deadline:
		how = "until a deadline"
	case b.constant && !b.varies:
		how = fmt.Sprintf("%s, %v apart (%v in all),", count, b.min, b.total)
	case b.constant:
		how = fmt.Sprintf("%s, %v to %v apart (%v in all),", count, b.min, b.max, b.total)
	case b.known && b.varies:
		how = fmt.Sprintf("%s, with sleeps that add up to %s,", count, b.expr)
	case b.varies:
		how = count + ", with a sleep that changes per attempt,"
	default:
		how = count
	}
	rel := []analysis.RelatedInformation{related(s.nb.Send, "the non-blocking send")}
	if w := a.waits(); len(w) > 0 {
		rel = append(rel, related(w[0], "waits here, then tries again"))
	}
	if next, ok := l.cur.NextSibling(); ok && l.outer == l.stmt {
		rel = append(rel, related(next.Node(), "gives up here"))
	}
	return &finding{
		file:    s.file,
		kind:    "pollingsend",
		pos:     l.stmt.Pos(),
		end:     l.body.Lbrace,
		message: fmt.Sprintf("bounded retry polls a non-blocking send on %s %s before giving up: it adds latency and burns CPU where one send could wait on a timer for the same budget; %s", ch, how, pollRemedy(b, a, fix != nil)),
		related: rel,
		fix:     fix,
	}
}

// pollRemedy says what to do about a polling loop with budget b whose
// failed attempts do a: a timed send, which the fix writes when it can;
// otherwise what to do by hand, as the check's page lists it.
func pollRemedy(b budget, a attempt, fixed bool) string {
	switch {
	case fixed:
		return "use a timed send instead"
	case !b.known:
		return "the check cannot add up its waits, so by hand: use one send that waits on a timer for the longest total wait the caller accepts"
	case !a.sendReturns():
		return "success leaves the loop onto the rejection's path, where a timed send could not tell it from a timeout, so by hand: make success return (or set the flag inside the timed select), then use a timed send"
	}
	return "no fix is safe here (the send case names the loop's variables, a goto jumps over where the timer would go, or the file cannot import time), so by hand: use a timed send for the same budget"
}
