package waittiming

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// A finding is a measurement that spans an admission wait and work after it.
type finding struct {
	m      *measurement
	wait   admission.Wait
	waitAt inspector.Cursor
	// ip is where the fix splits the measurement; when it is not valid,
	// noFix says why there is no fix.
	ip    insertion
	noFix string
	// total is set when the measurement is the latency users see: the fix
	// keeps it and records the wait beside it.
	total bool
}

// An insertion is where the fix takes the second timestamp: right after the
// statement holding the wait, or first in the body the wait's header opens
// (if err := lim.Wait(ctx); err == nil {…}, g.Go(func() error {…})).
type insertion struct {
	stmt   inspector.Cursor // the statement the new lines go after, or before
	before bool
	list   inspector.Cursor // the block or clause whose statements they join
}

func (ip insertion) valid() bool { return ip.stmt.Valid() }

// pos returns where the inserted declarations start to be visible.
func (ip insertion) pos() token.Pos {
	if ip.before {
		return ip.stmt.Node().Pos()
	}
	return ip.stmt.Node().End()
}

// analyze decides whether m spans an admission wait followed by work, with
// no second timestamp after the wait, and where the fix would split it.
func (c *checker) analyze(m *measurement) (finding, bool) {
	startFn := code.EnclosingFunc(m.startStmt)
	if !startFn.Valid() || !m.fn.Valid() {
		return finding{}, false
	}
	// The end may run in a literal of the start's function: a goroutine, a
	// function handed to g.Go, or a literal called on the spot. Deeper
	// nesting, or a literal that runs who knows when, is left alone.
	_, lit, ok := c.spanFuncs(m)
	if !ok {
		c.silenceMeasurement(m, ruleEndElsewhere)
		return finding{}, false
	}

	cands := c.waitsAfter(m, startFn, lit)
	if len(cands) == 0 {
		c.silenceMeasurement(m, ruleNoWaitInSpan)
	}
	for i := len(cands) - 1; i >= 0; i-- {
		wcur := cands[i]
		w, _ := c.adm.At(wcur)
		if w.Kind == admission.PoolCheckout {
			c.silenceWait(wcur, rulePoolKeepsStats)
			continue
		}
		afterW, rule, ok := c.qualifiesWhy(m, wcur, w, lit)
		if !ok {
			c.silenceWait(wcur, rule)
			continue
		}
		if c.splitAfter(m, startFn, lit, afterW, w) {
			c.silenceMeasurement(m, ruleSplitTimestamp)
			return finding{}, false
		}
		if c.workTimedApart(m, startFn, afterW) {
			c.silenceMeasurement(m, ruleWorkTimedApart)
			return finding{}, false
		}
		work, received := c.workBetween(m, startFn, lit, afterW, m.endAt, w)
		work = work || c.endWorks(m.end.Node(), w)
		if !work || (w.Kind == admission.Pool && !received) {
			c.silenceWait(wcur, ruleNoWorkAfter)
			continue // a timer of the wait alone is the split itself
		}
		if m.deferStmt.Valid() && m.deferStmt.Node().Pos() < wcur.Node().Pos() && returnsBetween(c.pass.TypesInfo, m.fn, m.deferStmt.Node().End(), wcur.Node().Pos()) {
			// Paths that return before the wait are timed too: an end-to-end
			// figure of every path, not of the wait.
			c.silenceMeasurement(m, ruleEndToEnd)
			return finding{}, false
		}
		ip, why := c.insertionPoint(m, wcur, w, lit, afterW)
		return finding{m: m, wait: w, waitAt: wcur, ip: ip, noFix: why, total: c.isTotal(m)}, true
	}
	return finding{}, false
}

// spanFuncs returns the function m starts in and, when m ends in a
// literal of it that runs when the function reaches it (isRunLit) after
// the start, that literal; ok is false when m ends anywhere else.
func (c *checker) spanFuncs(m *measurement) (startFn, lit inspector.Cursor, ok bool) {
	startFn = code.EnclosingFunc(m.startStmt)
	if !startFn.Valid() || !m.fn.Valid() {
		return startFn, lit, false
	}
	if m.fn != startFn {
		if code.EnclosingFunc(m.fn) != startFn || !c.isRunLit(m.fn) || m.fn.Node().Pos() < m.startStmt.Node().End() {
			return startFn, lit, false
		}
		lit = m.fn
	}
	return startFn, lit, true
}

// isRunLit reports whether the function literal at cur runs when its
// function reaches it: as a goroutine, called on the spot, or handed to a
// wait that runs it (g.Go(func() error {…})). A literal handed to anything
// else (a handler registration, a retry helper) runs who knows when.
func (c *checker) isRunLit(cur inspector.Cursor) bool {
	call, ok := cur.Parent().Node().(*ast.CallExpr)
	if !ok {
		return false
	}
	if call.Fun == cur.Node() {
		return true // go func() {…}() or func() {…}()
	}
	_, isWait := c.adm.At(cur.Parent())
	return isWait && code.ArgIndex(call, cur.Node()) >= 0
}

// waitsAfter returns the admission waits of m's function(s) that start after
// m's start and before its end, in order. Waits in deferred statements, in
// goroutines and in literals other than lit do not delay the measured work.
func (c *checker) waitsAfter(m *measurement, startFn, lit inspector.Cursor) []inspector.Cursor {
	from, to := m.startStmt.Node().End(), m.endAt
	var found []inspector.Cursor
	kinds := []ast.Node{
		(*ast.CallExpr)(nil), (*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.SelectStmt)(nil),
		(*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil),
	}
	startFn.Inspect(kinds, func(cur inspector.Cursor) bool {
		n := cur.Node()
		if descend, decided := c.runsBetween(cur, startFn, lit, from, to); decided {
			return descend
		}
		if n.Pos() > from {
			if _, ok := c.adm.At(cur); ok {
				found = append(found, cur)
			}
		}
		return true
	})
	return found
}

// runsBetween decides, for a walk of root (a function, or a statement)
// that looks at what runs between from and to, whether to descend into the
// node at cur, when its kind settles that: nodes outside the range, deferred
// statements (they run at return), goroutines and function literals other
// than lit (they run elsewhere, or later) are skipped, except a goroutine
// its function waits for before to (code.AwaitedAt), whose work is the
// function's own.
func (e *env) runsBetween(cur, root, lit inspector.Cursor, from, to token.Pos) (descend, decided bool) {
	n := cur.Node()
	if cur == root {
		return true, true
	}
	if n.End() <= from || n.Pos() >= to {
		return false, true
	}
	switch n.(type) {
	case *ast.FuncLit:
		if cur == lit {
			return true, true
		}
		g, isGo := goOfLit(cur)
		return isGo && e.awaitedBefore(g, to), true
	case *ast.DeferStmt:
		return false, true
	case *ast.GoStmt:
		return lit.Valid() && cur.Contains(lit) || e.awaitedBefore(cur, to), true
	}
	return false, false
}

// goOfLit returns the go statement that starts the function literal at
// cur (go func() {…}()), if one does.
func goOfLit(cur inspector.Cursor) (inspector.Cursor, bool) {
	call, ok := cur.Parent().Node().(*ast.CallExpr)
	if !ok || ast.Unparen(call.Fun) != cur.Node() {
		return inspector.Cursor{}, false
	}
	g := cur.Parent().Parent()
	_, ok = g.Node().(*ast.GoStmt)
	return g, ok
}

// awaitedBefore reports whether the function waits for the goroutine the
// go statement at g starts before to; asked once per go statement.
func (e *env) awaitedBefore(g inspector.Cursor, to token.Pos) bool {
	gs := g.Node().(*ast.GoStmt)
	at, done := e.awaited[gs]
	if !done {
		if e.awaited == nil {
			e.awaited = make(map[*ast.GoStmt]token.Pos)
		}
		at = code.AwaitedAt(e.pass.TypesInfo, g)
		e.awaited[gs] = at
	}
	return at.IsValid() && at < to
}

// qualifies reports whether the wait at wcur delays m's work on every path
// that reaches m's end, and returns where the work after it starts.
func (c *checker) qualifies(m *measurement, wcur inspector.Cursor, w admission.Wait, lit inspector.Cursor) (token.Pos, bool) {
	afterW, _, ok := c.qualifiesWhy(m, wcur, w, lit)
	return afterW, ok
}

// qualifiesWhy is qualifies, with the named rule that rejects the wait.
func (c *checker) qualifiesWhy(m *measurement, wcur inspector.Cursor, w admission.Wait, lit inspector.Cursor) (token.Pos, *report.Rule, bool) {
	afterW := wcur.Node().End()
	handsLit := false
	if call, ok := wcur.Node().(*ast.CallExpr); ok && lit.Valid() && code.ArgIndex(call, lit.Node()) >= 0 {
		handsLit = true // g.Go(func() error {…}): the work is the literal
		afterW = lit.Node().(*ast.FuncLit).Body.Lbrace + 1
	}
	if w.Kind == admission.LimitedGroup && !handsLit {
		return 0, ruleBatchWait, false // a batch timed around g.Wait() includes its own queueing
	}
	wFn := code.EnclosingFunc(wcur)
	if c.ownFresh(wcur, w, wFn) {
		return 0, ruleFreshLimiter, false
	}
	if lit.Valid() && wFn != lit && !handsLit {
		// A wait before the literal delays it only if the literal runs after
		// the wait: a goroutine started, or a literal called, later.
		if wcur.Node().End() > lit.Node().Pos() {
			return 0, ruleWaitOutsideLit, false
		}
	}
	for p := wcur; p.Valid() && p != wFn; p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if !p.Contains(m.startStmt) && !attemptsLoop(c.pass.TypesInfo, p, wcur) {
				return 0, ruleWaitPerIteration, false // a wait per iteration of a batch the start precedes
			}
		case *ast.BlockStmt:
			if isErrorBranch(c.pass.TypesInfo, p) {
				return 0, ruleErrorBranchWait, false // waits only when something failed
			}
			if !m.deferStmt.Valid() && code.Terminates(n.List, false) && !p.Contains(m.end) {
				return 0, ruleReturnsBefore, false // that path returns before the end
			}
			if gotoBack(c.pass.TypesInfo, n) && !p.Contains(m.end) {
				return 0, ruleRetryPath, false // a path that goes round again: a retry's
			}
		case *ast.CaseClause:
			if !m.deferStmt.Valid() && code.Terminates(n.Body, false) && !p.Contains(m.end) {
				return 0, ruleReturnsBefore, false
			}
		case *ast.CommClause:
			if !m.deferStmt.Valid() && code.Terminates(n.Body, false) && !p.Contains(m.end) {
				return 0, ruleReturnsBefore, false
			}
		}
	}
	return afterW, nil, true
}

// attemptsLoop reports whether the loop at loop runs the call at at as
// attempts of one operation: the loop runs at least once (for {…}, for i
// := range 3, for i := 0; i < 3; i++) and leaves as soon as the call
// succeeds,
//
//	for i := range 3 {
//		if err := withLimit(i); err != errRetry {
//			return err
//		}
//	}
//
// Its first attempt is on every path, and so is the wait inside it. A
// loop that leaves on failure instead (if err != nil { return err }), or
// that may not run at all (range items), is a batch.
func attemptsLoop(info *types.Info, loop, at inspector.Cursor) bool {
	var body *ast.BlockStmt
	switch n := loop.Node().(type) {
	case *ast.ForStmt:
		if n.Cond != nil && !code.CountsToConst(info, n) {
			return false
		}
		body = n.Body
	case *ast.RangeStmt:
		tv, ok := info.Types[n.X]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int || constant.Sign(tv.Value) <= 0 {
			return false
		}
		body = n.Body
	}
	for i, st := range body.List {
		if !code.Inside(at.Node().Pos(), st) {
			continue
		}
		ifs, ok := st.(*ast.IfStmt)
		if !ok && i+1 < len(body.List) {
			ifs, ok = body.List[i+1].(*ast.IfStmt) // err := attempt(); if err == nil { break }
			ok = ok && ifs.Init == nil
		}
		return ok && succeeded(info, ifs.Cond) && code.LeavesLoop(info, loop, ifs.Body.List, false)
	}
	return false
}

// succeeded reports whether cond holds when the error it tests is nil:
// err == nil, err != errRetry (a sentinel of the package), !errors.Is(err,
// errRetry).
func succeeded(info *types.Info, cond ast.Expr) bool {
	switch e := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		if nonNil, ok := errCheck(info, e); ok {
			return !nonNil
		}
		return e.Op == token.NEQ && isErrValue(info, e.X) && isSentinel(info, e.Y)
	case *ast.UnaryExpr:
		call, ok := ast.Unparen(e.X).(*ast.CallExpr)
		if e.Op != token.NOT || !ok {
			return false
		}
		fn := code.Callee(info, call)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is"
	}
	return false
}

func isErrValue(info *types.Info, e ast.Expr) bool {
	t := info.TypeOf(e)
	return t != nil && types.Identical(t, errorType)
}

// isSentinel reports whether e names a package-level variable of type
// error: a value no nil error equals.
func isSentinel(info *types.Info, e ast.Expr) bool {
	v := code.Var(info, e)
	return v != nil && v.Parent() == v.Pkg().Scope() && isErrValue(info, e)
}

// gotoBack reports whether a block ends with a goto to a label above it: the
// path through it starts over (a retry by goto).
func gotoBack(info *types.Info, b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	br, ok := b.List[len(b.List)-1].(*ast.BranchStmt)
	if !ok || br.Tok != token.GOTO || br.Label == nil {
		return false
	}
	l := info.Uses[br.Label]
	return l != nil && l.Pos() < b.Pos()
}

// ownFresh reports whether the wait at wcur is on a semaphore, limiter or
// group its own function created earlier and waits on once: nobody else
// holds a slot yet, so it does not block. A wait in a loop the creation is
// outside of does: the earlier iterations hold the slots.
func (c *checker) ownFresh(wcur inspector.Cursor, w admission.Wait, wFn inspector.Cursor) bool {
	if w.On == nil {
		return false
	}
	body := code.FuncBody(wFn.Node())
	for _, at := range c.adm.CreatedAt(w.On) {
		if at < body.Pos() || at >= wcur.Node().Pos() {
			continue
		}
		repeats := false
		for p := wcur; p.Valid() && p != wFn; p = p.Parent() {
			switch p.Node().(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				if at < p.Node().Pos() || at >= p.Node().End() {
					repeats = true
				}
			}
		}
		if !repeats {
			return true
		}
	}
	return false
}

// isErrorBranch reports whether the block at cur runs only when an error is
// set: the body of if err != nil, or the else of if err == nil.
func isErrorBranch(info *types.Info, cur inspector.Cursor) bool {
	ifs, ok := cur.Parent().Node().(*ast.IfStmt)
	if !ok {
		return false
	}
	nonNil, ok := errCheck(info, ifs.Cond)
	if !ok {
		return false
	}
	switch cur.ParentEdgeKind() {
	case edge.IfStmt_Body:
		return nonNil
	case edge.IfStmt_Else:
		return !nonNil
	}
	return false
}

// errCheck reports whether cond compares an error with nil, and whether it
// holds when the error is set.
func errCheck(info *types.Info, cond ast.Expr) (nonNil, ok bool) {
	bin, isBin := ast.Unparen(cond).(*ast.BinaryExpr)
	if !isBin || (bin.Op != token.NEQ && bin.Op != token.EQL) {
		return false, false
	}
	x := bin.X
	if code.IsNil(info, x) {
		x = bin.Y
	} else if !code.IsNil(info, bin.Y) {
		return false, false
	}
	t := info.TypeOf(x)
	if t == nil || !types.Implements(t, errorInterface) {
		return false, false
	}
	return bin.Op == token.NEQ, true
}

var (
	errorType      = types.Universe.Lookup("error").Type()
	errorInterface = errorType.Underlying().(*types.Interface)
)

// returnsBetween reports whether fn's own body has a return statement
// between from and to that leaves with a result rather than an error: a
// fast path (a cache hit) that skips the wait. Error exits (a bad argument,
// a stopped client) are not runs of the work, timed or not.
func returnsBetween(info *types.Info, fn inspector.Cursor, from, to token.Pos) bool {
	sig := code.FuncSignature(info, fn.Node())
	found := false
	fn.Inspect([]ast.Node{(*ast.ReturnStmt)(nil), (*ast.FuncLit)(nil)}, func(cur inspector.Cursor) bool {
		n := cur.Node()
		if cur != fn {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
		}
		if ret, ok := n.(*ast.ReturnStmt); ok && n.Pos() > from && n.Pos() < to && !isErrorExit(info, sig, ret) && !onFailure(info, cur) {
			found = true
		}
		return !found
	})
	return found
}

// onFailure reports whether the return at cur leaves on a failure: it is
// in the body of an if that checks an error's failure (if err != nil {
// httpserver.Errorf(w, r, "%s", err); return }), as a handler without an
// error result leaves once it has written the error.
func onFailure(info *types.Info, cur inspector.Cursor) bool {
	for a := cur.Parent(); a.Valid(); a = a.Parent() {
		switch n := a.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		case *ast.IfStmt:
			if code.Inside(cur.Node().Pos(), n.Body) {
				if failed, ok := errCheck(info, n.Cond); ok && failed {
					return true
				}
			}
		}
	}
	return false
}

// isErrorExit reports whether ret returns a non-nil value as the function's
// error result.
func isErrorExit(info *types.Info, sig *types.Signature, ret *ast.ReturnStmt) bool {
	if sig == nil || sig.Results().Len() != len(ret.Results) {
		return false
	}
	for i, r := range ret.Results {
		if types.Identical(sig.Results().At(i).Type(), errorType) && !code.IsNil(info, r) {
			return true
		}
	}
	return false
}

// takenOnSomePaths reports whether the timestamp at cur is taken in a
// branch or loop, inside startFn, that holds neither the wait nor the end of
// m: if *logSlowQueries { actual := time.Now(); defer logIfSlow(actual) }
// times the run for some requests only, and the figure m records still
// holds the wait on every path. A timestamp in the wait's own select case
// (the path on which the wait is over) is on the figure's path.
func takenOnSomePaths(cur, startFn inspector.Cursor, m *measurement, w admission.Wait) bool {
	for a := cur.Parent(); a.Valid() && a != startFn; a = a.Parent() {
		switch a.Node().(type) {
		case *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.ForStmt, *ast.RangeStmt:
		default:
			continue
		}
		holdsEnd := a.Contains(m.end)
		holdsWait := w.Node != nil && a.Node().Pos() <= w.Node.Pos() && w.Node.End() <= a.Node().End()
		if !holdsEnd && !holdsWait {
			return true
		}
	}
	return false
}

// splitAfter reports whether m is already split after a wait: between from
// and m's end there is a second timestamp or timer, the start variable is
// assigned again, or another measurement from it ends (a timer of the wait
// alone: no work between the wait and it).
func (c *checker) splitAfter(m *measurement, startFn, lit inspector.Cursor, from token.Pos, w admission.Wait) bool {
	info := c.pass.TypesInfo
	to := m.endAt
	found := false
	kinds := []ast.Node{(*ast.CallExpr)(nil), (*ast.AssignStmt)(nil), (*ast.IncDecStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.DeferStmt)(nil)}
	startFn.Inspect(kinds, func(cur inspector.Cursor) bool {
		n := cur.Node()
		if found || n.End() <= from || n.Pos() >= to {
			return false
		}
		if m.deferStmt.Valid() && cur == m.deferStmt {
			return false // the end itself
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if n != m.start && n.Pos() > from && n != m.end.Node() && (timing.IsTimestamp(info, n) || c.isTimerStart(n)) {
				// A guard against spinning splits nothing (pacing.go), nor
				// does a timestamp only some paths take (a slow-query log
				// behind a flag).
				found = !c.pacesOnly(cur, startFn) && !takenOnSomePaths(cur, startFn, m, w)
			}
		case *ast.AssignStmt, *ast.IncDecStmt, *ast.UnaryExpr:
			found = m.startVar != nil && code.Assigns(info, n, m.startVar)
		}
		return !found
	})
	if found || m.startVar == nil {
		return found
	}
	for _, e := range c.ends {
		p := e.cur.Node().Pos()
		if e.v != m.startVar || e.cur == m.end || p <= from || p >= to {
			continue
		}
		if m.deferStmt.Valid() && m.deferStmt.Contains(e.cur) {
			continue
		}
		if c.endWorks(e.cur.Node(), w) || takenOnSomePaths(e.cur, startFn, m, w) {
			continue // a handler that times itself, or a figure of another path
		}
		if work, _ := c.workBetween(m, startFn, lit, from, p, w); work {
			continue // an earlier whole-call figure too, not a timer of the wait
		}
		return true
	}
	return false
}

// endWorks reports whether the end is a call handed the start that does
// work of its own before it records: handler(startTime, w, r) of a family
// of handlers that each time the request. Its figure holds its work, so
// no work needs to run between the wait and the call.
func (c *checker) endWorks(end ast.Node, w admission.Wait) bool {
	call, ok := end.(*ast.CallExpr)
	if !ok {
		return false
	}
	if _, _, elapsed := timing.Elapsed(c.pass.TypesInfo, call); elapsed || c.isTimerStop(call) {
		return false
	}
	if h := c.timerHelper(call); h != nil && h.Since && h.RecordsFirst {
		// A recorder of the service's own that records before it calls
		// anything else (rp.recordWait(start): the time since start into
		// counters, then a hook). A handler handed the start does its
		// work before it records (QueryHandler(start, w)).
		return false
	}
	return c.isWorkCall(call, w)
}

// workBetween reports whether work runs between from and to on the way to
// m's end, and whether any of it receives (a pool's result). Calls in error
// branches, in deferred statements, in goroutines other than lit, cheap
// bookkeeping (logging, metrics, formatting, the clock) and the release of
// what was waited on are not work.
func (c *checker) workBetween(m *measurement, startFn, lit inspector.Cursor, from, to token.Pos, w admission.Wait) (work, received bool) {
	// The end's own statement records the figure: h.With(labels).Record(
	// time.Since(start)) evaluates With first, and that is not work.
	var endStmt ast.Node
	if !m.deferStmt.Valid() {
		endStmt = code.StmtOf(m.end).Node()
	}
	kinds := []ast.Node{
		(*ast.CallExpr)(nil), (*ast.UnaryExpr)(nil), (*ast.BlockStmt)(nil), (*ast.CaseClause)(nil),
		(*ast.CommClause)(nil), (*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil),
		(*ast.ExprStmt)(nil), (*ast.AssignStmt)(nil), (*ast.ReturnStmt)(nil), (*ast.IfStmt)(nil),
	}
	startFn.Inspect(kinds, func(cur inspector.Cursor) bool {
		n := cur.Node()
		if descend, decided := c.runsBetween(cur, startFn, lit, from, to); decided {
			return descend
		}
		if n == endStmt {
			return false
		}
		switch n := n.(type) {
		case *ast.BlockStmt:
			if isErrorBranch(c.pass.TypesInfo, cur) {
				return false
			}
			return m.deferStmt.Valid() || !code.Terminates(n.List, false) || n.End() > to
		case *ast.CaseClause:
			return m.deferStmt.Valid() || !code.Terminates(n.Body, false) || n.End() > to
		case *ast.CommClause:
			return m.deferStmt.Valid() || !code.Terminates(n.Body, false) || n.End() > to
		case *ast.DeferStmt:
			// A call deferred after the wait runs when the function
			// returns: after an end that is no deferred call itself.
			return m.deferStmt.Valid()
		case *ast.CallExpr:
			// Another wait, or an argument of one (sem.Acquire(r.Context(),
			// 1)): a figure of waits alone has no work in it. A literal
			// handed to one (g.Go(func() error { … })) may hold work.
			if _, isWait := c.adm.At(cur); isWait {
				return true
			}
			if _, isWaitArg := c.adm.At(cur.Parent()); isWaitArg && cur.ParentEdgeKind() == edge.CallExpr_Args {
				return true
			}
			if n.Pos() > from && c.isWorkCall(n, w) {
				work = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && n.Pos() > from && c.isWorkReceive(n, w) {
				work, received = true, true
			}
		}
		return true
	})
	return work, received
}

// isWorkCall reports whether call does work worth timing.
func (c *env) isWorkCall(call *ast.CallExpr, w admission.Wait) bool {
	info := c.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return false
	}
	if timing.IsTimestamp(info, call) {
		return false
	}
	switch obj := typeutil.Callee(info, call).(type) {
	case *types.Func:
		if obj.Name() == "Wait" && obj.Pkg() != nil && obj.Pkg().Path() == "sync" {
			return true // wg.Wait(): waiting for the work started in goroutines
		}
		if pkg := obj.Pkg(); pkg != nil && (knowledge.QuietPackages.Has(pkg.Path()) || strings.HasPrefix(pkg.Path(), timing.PrometheusPath)) {
			return false
		}
		if obj.Name() == "Error" && obj.Pkg() == nil {
			return false // err.Error()
		}
		if c.isBookkeeping(obj) {
			return false // the service's own metrics or logging helper
		}
		if c.isContextCheck(obj) {
			return false // asks whether the request was cancelled while it waited
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && w.On != nil && code.Var(info, sel.X) == w.On {
			return false // releasing what was waited on
		}
	case *types.Var:
		if t, ok := types.Unalias(obj.Type()).(*types.Named); ok && t.Obj().Pkg() != nil && t.Obj().Pkg().Path() == "context" {
			return false // cancel()
		}
	}
	return true
}

// isWorkReceive reports whether a receive waits for work's result, rather
// than releasing a semaphore or giving up on cancellation.
func (c *env) isWorkReceive(u *ast.UnaryExpr, w admission.Wait) bool {
	info := c.pass.TypesInfo
	if v := code.Var(info, u.X); v != nil {
		return v != w.On && !c.adm.IsSemaphoreChan(v) && !c.adm.IsTokenChan(v)
	}
	if call, ok := ast.Unparen(u.X).(*ast.CallExpr); ok {
		if fn, ok := typeutil.Callee(info, call).(*types.Func); ok && (fn.Name() == "Done" || (fn.Pkg() != nil && fn.Pkg().Path() == "time")) {
			return false
		}
	}
	return true
}

// insertionPoint returns where the fix takes the second timestamp: after the
// statement holding the wait (and after the defer that releases what it
// acquired), in the statement list that also holds what must see the new
// variable (the end, or the defer the fix moves there). When there is no
// such place, it says why.
func (c *checker) insertionPoint(m *measurement, wcur inspector.Cursor, w admission.Wait, lit inspector.Cursor, afterW token.Pos) (insertion, string) {
	anchor := m.end
	if m.deferStmt.Valid() {
		anchor = m.deferStmt
	} else if lit.Valid() && !lit.Contains(wcur) && wcur.Node().End() <= lit.Node().Pos() {
		anchor = lit
	}
	list, stmt := listAround(wcur, anchor)
	if !list.Valid() {
		return insertion{}, "the wait and the end of the measurement are in different functions"
	}
	moved := m.deferStmt.Valid() && m.deferStmt.Node().Pos() < wcur.Node().Pos()
	if moved && m.deferStmt.Parent() != list {
		return insertion{}, "the deferred measurement is in another block than the wait" // the fix moves the defer to the wait's list
	}
	if m.form == formTimer && m.startStmt.Parent() != list {
		return insertion{}, "the timer starts in another block than the wait" // the fix moves the timer to the wait's list
	}
	if !stmt.Contains(anchor) {
		if work, _ := c.workBetween(m, stmt, inspector.Cursor{}, afterW, stmt.Node().End(), w); work {
			return insertion{}, "the statement of the wait also does the work"
		}
		if check := errCheckAfter(c.pass.TypesInfo, stmt); check.Valid() && !check.Contains(anchor) {
			stmt = check
		}
		return insertion{stmt: c.afterReleaseDefers(stmt, anchor), list: list}, ""
	}
	if moved {
		return insertion{}, "the deferred measurement would move into the statement of the wait"
	}
	// The wait is in a header whose body holds the end.
	var body *ast.BlockStmt
	switch n := stmt.Node().(type) {
	case *ast.IfStmt:
		if n.Body.Pos() <= anchor.Node().Pos() && anchor.Node().End() <= n.Body.End() && wcur.Node().End() <= n.Body.Pos() {
			body = n.Body
		}
	default:
		if lit.Valid() && lit.Node().Pos() > wcur.Node().Pos() && lit.Node().End() <= wcur.Node().End() {
			body = lit.Node().(*ast.FuncLit).Body // g.Go(func() error {…})
		}
	}
	if body == nil || len(body.List) == 0 {
		return insertion{}, "the wait is in a statement that also holds the end"
	}
	bodyCur, ok := stmt.FindNode(body)
	if !ok {
		return insertion{}, "the wait is in a statement that also holds the end"
	}
	first, _ := bodyCur.FirstChild()
	return insertion{stmt: first, before: true, list: bodyCur}, ""
}

// afterReleaseDefers returns the last of the defer statements that follow
// stmt (defer sem.Release(1), defer release(), defer func() { <-sem }()),
// or stmt when none does: an acquire and the defer that gives its slot back
// read as one step, and the new lines go after both. A defer evaluates
// nothing but its arguments now, so the split stays right after the wait.
// A defer that holds the end, or whose arguments call anything, stays after
// the new lines.
func (c *env) afterReleaseDefers(stmt, anchor inspector.Cursor) inspector.Cursor {
	for next, ok := stmt.NextSibling(); ok; next, ok = next.NextSibling() {
		d, isDefer := next.Node().(*ast.DeferStmt)
		if !isDefer || (anchor.Valid() && next.Contains(anchor)) || !c.isReleaseDefer(d) {
			break
		}
		stmt = next
	}
	return stmt
}

// isReleaseDefer reports whether a defer statement only gives something
// back: a call whose arguments call nothing, of a function that is not a
// literal, or a literal whose body is one such call or one receive.
func (c *env) isReleaseDefer(d *ast.DeferStmt) bool {
	info := c.pass.TypesInfo
	if lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit); ok {
		if len(d.Call.Args) != 0 || len(lit.Body.List) != 1 {
			return false
		}
		es, ok := lit.Body.List[0].(*ast.ExprStmt)
		if !ok {
			return false
		}
		switch x := ast.Unparen(es.X).(type) {
		case *ast.UnaryExpr:
			return x.Op == token.ARROW && code.CallFree(info, nil, x.X)
		case *ast.CallExpr:
			return isPlainCall(info, x)
		}
		return false
	}
	return isPlainCall(info, d.Call)
}

// isPlainCall reports whether call names its function without calling
// anything (f, x.f, x.y.f) and passes arguments that call nothing, and
// does not read the clock or start a timer.
func isPlainCall(info *types.Info, call *ast.CallExpr) bool {
	return isPlainRef(call.Fun) && code.CallFree(info, nil, call.Args...)
}

// listAround returns the innermost statement list (block or case clause)
// that holds both the wait at wcur and anchor, and its statement that holds
// the wait.
func listAround(wcur, anchor inspector.Cursor) (list, stmt inspector.Cursor) {
	child := wcur
	for p := wcur.Parent(); p.Valid(); p = p.Parent() {
		switch p.Node().(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			if isListStmt(child) && p.Contains(anchor) {
				return p, child
			}
		case *ast.FuncDecl, *ast.FuncLit:
			if !p.Contains(anchor) {
				return inspector.Cursor{}, inspector.Cursor{}
			}
		}
		child = p
	}
	return inspector.Cursor{}, inspector.Cursor{}
}

// isListStmt reports whether cur is a statement of a block or a case body.
func isListStmt(cur inspector.Cursor) bool {
	switch cur.ParentEdgeKind() {
	case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
		return true
	}
	return false
}

// errCheckAfter returns the statement after stmt when it only checks an
// error stmt assigned and leaves (err := p.Get(ctx); if err != nil { return
// err }): the wait's statement ends there.
func errCheckAfter(info *types.Info, stmt inspector.Cursor) inspector.Cursor {
	var assigned []ast.Expr
	switch s := stmt.Node().(type) {
	case *ast.AssignStmt:
		assigned = s.Lhs
	case *ast.DeclStmt:
		if gen, ok := s.Decl.(*ast.GenDecl); ok && len(gen.Specs) == 1 {
			if vs, ok := gen.Specs[0].(*ast.ValueSpec); ok {
				for _, name := range vs.Names {
					assigned = append(assigned, name)
				}
			}
		}
	}
	next, ok := stmt.NextSibling()
	if !ok || len(assigned) == 0 {
		return inspector.Cursor{}
	}
	ifs, ok := next.Node().(*ast.IfStmt)
	if !ok || ifs.Init != nil || ifs.Else != nil || !code.Terminates(ifs.Body.List, false) {
		return inspector.Cursor{}
	}
	if nonNil, ok := errCheck(info, ifs.Cond); !ok || !nonNil {
		return inspector.Cursor{}
	}
	checked := ast.Unparen(ifs.Cond.(*ast.BinaryExpr).X)
	if code.IsNil(info, checked) {
		checked = ast.Unparen(ifs.Cond.(*ast.BinaryExpr).Y)
	}
	id, ok := checked.(*ast.Ident)
	if !ok {
		return inspector.Cursor{}
	}
	for _, lhs := range assigned {
		if l, ok := lhs.(*ast.Ident); ok && l.Name == id.Name && info.ObjectOf(l) == info.ObjectOf(id) {
			return next
		}
	}
	return inspector.Cursor{}
}
