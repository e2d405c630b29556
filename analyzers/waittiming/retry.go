package waittiming

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// A retry is a loop of attempts separated by pauses (sleeps, timers,
// backoff waits) that runs inside a measured span: under failure the figure
// is mostly waiting, and the metric says it is work.
type retry struct {
	m *measurement
	// loop is the for statement, or the labeled statement a goto returns
	// to; last is the statement of the loop's list after which the loop is
	// done (the loop itself, or the one holding the last goto back).
	loop, last inspector.Cursor
	pauses     []inspector.Cursor
	name       string // what pauses: "time.Sleep", "a timer", …
	// returned is set for the retry of the function a call's callee
	// returns, not of the callee itself (runner := NewRunner(…); runner(op)).
	returned bool
	// via is set for the retry of a method a call of another package's
	// function is handed to call back: the call as written (req.RequestWith).
	via string
}

// retryIn returns the retry loop inside m's span, if there is one: a loop
// (or a label a goto returns to) after the start and before the end, on
// every path to the end, whose body attempts work, pauses, and leaves or
// loops on the outcome of an error check.
func (c *retrier) retryIn(m *measurement, startFn, lit inspector.Cursor) (retry, bool) {
	if m.fn != startFn || lit.Valid() {
		return retry{}, false
	}
	from, to := m.startStmt.Node().End(), m.endAt
	if m.deferStmt.Valid() && m.deferStmt.Node().End() > from {
		from = m.deferStmt.Node().End()
	}
	var found retry
	ok := false
	kinds := []ast.Node{(*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.LabeledStmt)(nil), (*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil)}
	startFn.Inspect(kinds, func(cur inspector.Cursor) bool {
		if ok {
			return false
		}
		if descend, decided := c.runsBetween(cur, startFn, lit, from, to); decided {
			return descend
		}
		if cur.Node().Pos() < from {
			return true
		}
		var r retry
		switch n := cur.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			r, ok = c.forRetry(cur)
		case *ast.LabeledStmt:
			if _, isLoop := n.Stmt.(*ast.ForStmt); isLoop {
				return true
			}
			if _, isLoop := n.Stmt.(*ast.RangeStmt); isLoop {
				return true
			}
			r, ok = c.gotoRetry(cur)
		}
		if !ok {
			return true
		}
		if rule := c.offPath(m, r, to); rule != nil {
			c.rep.Silence(r.loop.Node(), rule)
			ok = false
			return true
		}
		r.m = m
		found = r
		return false
	})
	return found, ok
}

// offPath returns the rule that keeps the retry loop r out of m's span, or
// nil: m must end after the loop's last attempt, and the loop run on every
// path from the start to the end.
func (c *retrier) offPath(m *measurement, r retry, to token.Pos) *report.Rule {
	switch {
	case r.last.Node().End() > to:
		return ruleEndsInLoop
	case !c.onPathToEnd(m, r.loop):
		return ruleNotOnEveryPath
	}
	return nil
}

// onPathToEnd reports whether the statement at cur runs, once, on every
// path from m's start to its end: not in a loop the start precedes, an
// error branch, or a branch that returns before the end.
func (c *retrier) onPathToEnd(m *measurement, cur inspector.Cursor) bool {
	_, ok := c.chk.qualifies(m, cur.Parent(), admission.Wait{}, inspector.Cursor{})
	return ok
}

// forRetry reports whether the loop at cur retries: it attempts work,
// pauses between attempts, and leaves on success (if err == nil { break })
// or goes round again on failure (if err != nil { sleep; continue }, for
// err != nil). A loop that leaves on failure and goes on on success is a
// batch, paced or not.
func (c *retrier) forRetry(cur inspector.Cursor) (retry, bool) {
	var body *ast.BlockStmt
	var cond ast.Expr
	switch n := cur.Node().(type) {
	case *ast.ForStmt:
		body, cond = n.Body, n.Cond
	case *ast.RangeStmt:
		body = n.Body
	}
	bodyCur, ok := cur.FindNode(body)
	if !ok {
		return retry{}, false
	}
	stmt := cur
	if _, labeled := cur.Parent().Node().(*ast.LabeledStmt); labeled {
		stmt = cur.Parent() // L: for { … }: the label goes with the loop
	}
	r, ok, _ := c.attempts(retry{loop: stmt, last: stmt}, []inspector.Cursor{bodyCur})
	if !ok {
		return retry{}, false
	}
	if cond != nil {
		if failed, ok := c.outcome(cond); ok && failed {
			return r, true // for err != nil { … }
		}
	}
	retries := false
	bodyCur.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.SwitchStmt)(nil), (*ast.TypeSwitchStmt)(nil), (*ast.SelectStmt)(nil), (*ast.IfStmt)(nil)}, func(n inspector.Cursor) bool {
		if retries {
			return false
		}
		ifs, ok := n.Node().(*ast.IfStmt)
		if !ok {
			return n == bodyCur // break in an inner loop, switch or select is not this loop's
		}
		failed, ok := c.outcome(ifs.Cond)
		if !ok {
			failed, ok = attemptFlag(c.pass.TypesInfo, bodyCur, ifs.Cond)
		}
		switch {
		case !ok:
		case !failed && code.LeavesLoop(c.pass.TypesInfo, cur, ifs.Body.List, false):
			retries = true // if err == nil { break }
		case failed && slices.ContainsFunc(r.pauses, func(p inspector.Cursor) bool { return code.Inside(p.Node().Pos(), ifs.Body) }):
			retries = true // if err != nil { sleep; continue }
		}
		return true
	})
	return r, retries
}

// outcome reports whether cond checks an attempt's error, and whether it
// holds when the attempt failed: err != nil, errors.Is(err, x), err != nil
// || resp.StatusCode >= 500 (failed); err == nil, err == nil && ok
// (succeeded).
func (c *retrier) outcome(cond ast.Expr) (failed, ok bool) {
	info := c.pass.TypesInfo
	switch e := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			// err == nil && ok holds on success only; err != nil || bad on
			// failure; err != nil && tries < n on failure.
			fx, okx := c.outcome(e.X)
			fy, oky := c.outcome(e.Y)
			switch {
			case okx && oky && fx != fy:
				return false, false
			case okx:
				return fx, true
			case oky:
				return fy, true
			}
			return false, false
		}
		return errCheck(info, e)
	case *ast.CallExpr:
		if fn := code.Callee(info, e); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && (fn.Name() == "Is" || fn.Name() == "As") {
			return true, true
		}
	}
	return false, false
}

// attemptFlag reports whether cond tests a boolean an attempt in the loop
// body returned, and whether it holds when the attempt failed: !found in
// parents, found := s.findParents(…); if !found { pause; continue }
// (failed), found (succeeded).
func attemptFlag(info *types.Info, body inspector.Cursor, cond ast.Expr) (failed, ok bool) {
	e := ast.Unparen(cond)
	if u, isNot := e.(*ast.UnaryExpr); isNot && u.Op == token.NOT {
		e, failed = ast.Unparen(u.X), true
	}
	id, isIdent := e.(*ast.Ident)
	if !isIdent {
		return false, false
	}
	v, isVar := info.Uses[id].(*types.Var)
	if !isVar || !types.Identical(v.Type().Underlying(), types.Typ[types.Bool]) {
		return false, false
	}
	for cur := range body.Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		if len(as.Rhs) != 1 {
			continue
		}
		if _, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); !isCall {
			continue
		}
		for _, lhs := range as.Lhs {
			if code.Var(info, lhs) == v {
				return failed, true
			}
		}
	}
	return false, false
}

// gotoRetry reports whether the labeled statement at cur is the head of a
// loop made with goto: a later statement of the same list holds a goto back
// to it, and what lies between attempts work and pauses.
func (c *retrier) gotoRetry(cur inspector.Cursor) (retry, bool) {
	label := c.pass.TypesInfo.Defs[cur.Node().(*ast.LabeledStmt).Label]
	if label == nil {
		return retry{}, false
	}
	stmts := []inspector.Cursor{cur}
	last := inspector.Cursor{}
	for s, ok := cur, true; ok; s, ok = s.NextSibling() {
		if s != cur {
			stmts = append(stmts, s)
		}
		if gotosTo(c.pass.TypesInfo, s, label) {
			last = s
		}
	}
	if !last.Valid() {
		return retry{}, false
	}
	var region []inspector.Cursor
	for _, s := range stmts {
		region = append(region, s)
		if s == last {
			break
		}
	}
	// The goto back is the retry; it sits in the branch an error check,
	// or another check of the outcome, takes.
	r, ok, checked := c.attempts(retry{loop: cur, last: last}, region)
	return r, ok && checked
}

// gotosTo reports whether the statement at cur holds a goto to label.
func gotosTo(info *types.Info, cur inspector.Cursor, label types.Object) bool {
	found := false
	for b := range cur.Preorder((*ast.BranchStmt)(nil)) {
		br := b.Node().(*ast.BranchStmt)
		if br.Tok == token.GOTO && br.Label != nil && info.Uses[br.Label] == label {
			found = true
		}
	}
	return found
}

// attempts completes r from the statements of a loop's body: it needs
// pauses and work outside them; checked says whether an if statement there
// checks an error.
func (c *retrier) attempts(r retry, region []inspector.Cursor) (_ retry, ok, checked bool) {
	work := false
	for _, root := range region {
		root.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.GoStmt)(nil), (*ast.DeferStmt)(nil),
			(*ast.ExprStmt)(nil), (*ast.IfStmt)(nil), (*ast.SelectStmt)(nil), (*ast.AssignStmt)(nil), (*ast.ReturnStmt)(nil), (*ast.CallExpr)(nil)}, func(cur inspector.Cursor) bool {
			switch n := cur.Node().(type) {
			case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				return false // an inner loop's pauses and checks are its own
			case *ast.CallExpr:
				if c.isWorkCall(n, admission.Wait{}) && !c.isPauseCall(cur) {
					work = true
				}
				return true
			case *ast.IfStmt:
				if c.mentionsError(n.Cond) {
					checked = true
				}
			}
			if name, ok := c.pauseAt(cur); ok {
				r.pauses = append(r.pauses, cur)
				r.name = name
				return false
			}
			return true
		})
	}
	return r, work && len(r.pauses) > 0, checked
}

// pauseAt reports whether the statement at cur pauses between attempts: a
// sleep, a timer, a backoff's wait, a helper that pauses, alone or as the
// condition of an if (if !bt.Wait(stop) { return }). A sleep for a
// duration named like a poll interval paces a loop, it does not back off.
func (c *retrier) pauseAt(cur inspector.Cursor) (string, bool) {
	if !isListStmt(cur) {
		return "", false
	}
	if namesPollInterval(cur.Node()) {
		return "", false
	}
	if p := c.res.PauseAt(cur); p != nil {
		return p.Name, true
	}
	ifs, ok := cur.Node().(*ast.IfStmt)
	if !ok {
		return "", false
	}
	head := condHeadCall(ifs)
	if head == nil {
		return "", false
	}
	hc, ok := cur.FindNode(head)
	if !ok {
		return "", false
	}
	if w, ok := c.adm.At(hc); ok && w.Kind == admission.Backoff {
		return w.Name, true
	}
	if ff, _ := c.res.HelperCall(head); ff != nil && ff.Pause != nil {
		return ff.Pause.Name, true
	}
	return "", false
}

// isPauseCall reports whether the call at cur is what a pause statement
// calls: time.Sleep, a backoff's Wait.
func (c *retrier) isPauseCall(cur inspector.Cursor) bool {
	call := cur.Node().(*ast.CallExpr)
	fn := code.Callee(c.pass.TypesInfo, call)
	if code.IsFunc(fn, "time", "Sleep") || code.IsFunc(fn, "time", "After") {
		return true
	}
	if w, ok := c.adm.At(cur); ok && w.Kind == admission.Backoff {
		return true
	}
	ff, _ := c.res.HelperCall(call)
	return ff != nil && ff.Pause != nil
}

// condHeadCall returns the call an if statement's condition (or its init)
// starts with: !bt.Wait(stop), err := b.Wait(ctx); err != nil.
func condHeadCall(ifs *ast.IfStmt) *ast.CallExpr {
	if as, ok := ifs.Init.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
		if call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok {
			return call
		}
	}
	e := ifs.Cond
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			e = x.X
			continue
		case *ast.BinaryExpr:
			e = x.X
			continue
		case *ast.CallExpr:
			return x
		}
		return nil
	}
}

// mentionsError reports whether an expression checks an error: compares a
// value of type error, or calls errors.Is or errors.As.
func (c *retrier) mentionsError(e ast.Expr) bool {
	info := c.pass.TypesInfo
	return code.AnyNode(e, nil, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if v, ok := info.Uses[n].(*types.Var); ok && types.Identical(v.Type(), errorType) {
				return true
			}
		case *ast.CallExpr:
			if fn := code.Callee(info, n); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && (fn.Name() == "Is" || fn.Name() == "As") {
				return true
			}
		}
		return false
	})
}

// namesPollInterval reports whether a pause names the interval of a poll
// (interval, poll, tick, period, every, refresh): it paces a loop, it does
// not back off. A name that says it spaces retries (RetryInterval,
// backoffPeriod) is a retry's, however it ends.
func namesPollInterval(e ast.Node) bool {
	poll, retry := false, false
	code.AnyNode(e, nil, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			name := strings.ToLower(id.Name)
			poll = poll || knowledge.PollIntervalWords.Match(name)
			retry = retry || knowledge.RetryPauseWords.Match(name)
		}
		return false
	})
	return poll && !retry
}

// saysWaiting reports whether the statement that records m names what it
// records as waiting or retrying (a readiness time, a time until, a figure
// of attempts): then the retries are the figure, not a hazard in it.
func (c *retrier) saysWaiting(m *measurement) bool {
	return recordSays(c.pass.TypesInfo, m, knowledge.RetryRecordWords)
}

// reportRetries reports the measurements that span one retry loop, each a
// finding of its own (as timingDiagnostics does for a wait), with one fix
// that records the time spent pausing apart from the attempts when it can
// be built, offered on each.
func (c *retrier) reportRetries(rs []retry) {
	r := rs[0]
	line := c.pass.Fset.Position(r.loop.Node().Pos()).Line
	es, why := c.retryFix(rs)
	firstPos, firstEnd := measuredAt(r.m)
	for i, o := range rs {
		m := o.m
		pos, end := measuredAt(m)
		d := analysis.Diagnostic{
			Pos:      pos,
			End:      end,
			Category: "retrywait",
			Message: subject(c.pass.TypesInfo, m) + " spans the retries at line " + strconv.Itoa(line) + ", whose attempts are separated by " + r.name +
				", so time spent waiting between attempts is reported as slow work; record the retry wait apart from the attempts",
		}
		for _, p := range r.pauses {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: p.Node().Pos(), End: p.Node().End(), Message: "a pause between attempts: " + r.name})
		}
		d.Related = append(d.Related, startRelated(m, pos, end)...)
		switch {
		case i == 0:
			if es == nil {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: pos, End: end, Message: "no automatic fix: " + why + "; sum the time spent in the pauses and record it apart from the attempts by hand"})
			}
		case es == nil:
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: firstPos, End: firstEnd, Message: "no automatic fix (see the measurement here); sum the time spent in the pauses and record it apart from the attempts by hand"})
		default:
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: firstPos, End: firstEnd, Message: "the fix records the retry wait for the measurement here too"})
		}
		if es != nil {
			// The one fix, offered on each: applied once, it covers them all.
			d.SuggestedFixes = []analysis.SuggestedFix{edits.Fix("Record the time spent between attempts apart from the attempts", es...)}
		}
		c.rep.Report(d)
	}
}

// measuredAt returns where a finding about m is reported: its end, or the
// head of a deferred literal that measures.
func measuredAt(m *measurement) (token.Pos, token.Pos) {
	if m.form == formDeferLit {
		lit := m.end.Node().(*ast.CallExpr).Fun.(*ast.FuncLit)
		return m.deferStmt.Node().Pos(), lit.Type.End()
	}
	return m.end.Node().Pos(), m.end.Node().End()
}

// retryFix sums the pauses of a retry loop into a duration declared before
// the loop (or before the deferred measurements that read it), measures
// each figure from its start moved on by that sum, and records the sum the
// way the code records the figure.
func (c *retrier) retryFix(rs []retry) ([]analysis.TextEdit, string) {
	info := c.pass.TypesInfo
	r := rs[0]
	if hasForwardGoto(info, r.m.fn) {
		return nil, "a goto jumps forward in the function, over where the fix declares variables"
	}
	list := r.last.Parent()
	declAt := r.loop
	for _, o := range rs {
		if d := o.m.deferStmt; d.Valid() && d.Node().Pos() < declAt.Node().Pos() {
			if d.Parent() != list {
				return nil, "the deferred measurement is in another block than the loop"
			}
			declAt = d
		}
	}
	file := edits.EnclosingFile(c.pass.Files, declAt.Node().Pos())
	var uses []token.Pos
	for _, o := range rs {
		uses = append(uses, o.m.end.Node().Pos())
	}
	timeName, imp, ok := edits.AddImport(c.pass, file, "time", append(uses, declAt.Node().Pos())...)
	if !ok {
		return nil, "the fix needs package time, and the name time means something else here"
	}
	waitName := c.names.Local(declAt.Node().Pos(), "retryWait", uses...)
	es := []analysis.TextEdit{edits.InsertBefore(c.pass, declAt.Node(), "var "+waitName+" "+timeName+".Duration")}
	for _, p := range r.pauses {
		paused := c.names.Local(p.Node().Pos(), "paused")
		es = append(es,
			edits.InsertBefore(c.pass, p.Node(), paused+" := "+timeName+".Now()"),
			edits.InsertAfter(c.pass, p.Node(), waitName+" += "+timeName+".Since("+paused+")"))
	}
	logged := false // the debug record of the sum goes in once
	for _, o := range rs {
		more, why := c.retryMeasure(o, waitName, &logged)
		if more == nil {
			return nil, why
		}
		es = append(es, more...)
	}
	es = append(es, imp...)
	if finished, ok := edits.Finish(c.pass, es); ok {
		es = finished
	}
	return es, ""
}

// retryMeasure returns the edits that measure r's figure without the pauses
// summed in wait, and record wait beside it.
func (c *retrier) retryMeasure(r retry, wait string, logged *bool) ([]analysis.TextEdit, string) {
	m := r.m
	info := c.pass.TypesInfo
	switch m.form {
	case formVar:
		call := m.end.Node().(*ast.CallExpr)
		startArg := ast.Expr(nil)
		if s, _, ok := timing.Elapsed(info, call); ok {
			startArg = s
		} else if i := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return localVar(info, a) == m.startVar }); i >= 0 {
			startArg = call.Args[i]
		}
		if startArg == nil {
			return nil, "the recorder takes the start in a form the fix does not know"
		}
		var fx *fixer
		if m.deferStmt.Valid() {
			if _, isLit := ast.Unparen(m.deferStmt.Node().(*ast.DeferStmt).Call.Fun).(*ast.FuncLit); !isLit {
				return nil, "a deferred call takes its start when it is deferred, before the pauses are summed"
			}
			endStmt := code.StmtOf(m.end)
			fx = newFixer(c.chk, insertion{stmt: endStmt, before: true, list: endStmt.Parent()})
		} else {
			fx = newFixer(c.chk, insertion{stmt: r.last, list: r.last.Parent()})
			if !fx.sees(call.Pos()) {
				return nil, "the end is outside the block that holds the loop"
			}
		}
		fx.retry = wait
		fx.edits = append(fx.edits, edits.Replace(startArg, m.startVar.Name()+".Add("+wait+")"))
		if _, _, elapsed := timing.Elapsed(info, call); !elapsed || !fx.recordWait(m.end, wait, 0) {
			if !*logged && !fx.fallback(wait) {
				return nil, fx.why
			}
			*logged = true
		}
		return fx.finish(), ""
	case formDeferLit:
		var es []analysis.TextEdit
		recorded := false
		for _, e := range c.chk.ends {
			if e.v != m.startVar {
				continue
			}
			call := e.cur.Node().(*ast.CallExpr)
			s, _, ok := timing.Elapsed(info, call)
			if !ok {
				return nil, "the deferred literal records its start in a form the fix does not know"
			}
			endStmt := code.StmtOf(e.cur)
			fx := newFixer(c.chk, insertion{stmt: endStmt, before: true, list: endStmt.Parent()})
			fx.retry = wait
			fx.edits = append(fx.edits, edits.Replace(s, m.startVar.Name()+".Add("+wait+")"))
			if !recorded {
				if !fx.recordWait(e.cur, wait, 0) {
					if !*logged && !fx.fallback(wait) {
						return nil, fx.why
					}
					*logged = true
				}
				recorded = true
			}
			es = append(es, fx.finish()...)
		}
		return es, ""
	case formDeferCall:
		es, why := c.retryDeferCall(m, wait, !*logged)
		*logged = true
		return es, why
	case formParam:
		return nil, "the measurement starts in the caller, which hands the start in"
	}
	return nil, "a timer cannot leave out the pauses"
}

// retryDeferCall turns defer rec(key, time.Now()) into a deferred closure
// that measures from the start moved on by the pauses, and records them.
func (c *retrier) retryDeferCall(m *measurement, wait string, log bool) ([]analysis.TextEdit, string) {
	info := c.pass.TypesInfo
	d := m.deferStmt.Node().(*ast.DeferStmt)
	call := d.Call
	// The closure evaluates the call's other operands when it runs, not at
	// the defer: they must not be local variables that could change.
	var locals bool
	ast.Inspect(call, func(n ast.Node) bool {
		if n == ast.Node(m.start) {
			return false
		}
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && code.IsLocal(v) {
				locals = true
			}
		}
		return !locals
	})
	if locals || !isPlainRef(call.Fun) {
		return nil, "the deferred call takes local values when it is deferred"
	}
	q := c.names.Local(d.Pos(), "queued")
	rec := applyAt(edits.Source(c.pass, call), call.Pos(), []analysis.TextEdit{edits.Replace(m.start, q+".Add("+wait+")")})
	var imp []analysis.TextEdit
	if log {
		file := edits.EnclosingFile(c.pass.Files, d.Pos())
		slogName, slogImp, ok := edits.AddImport(c.pass, file, "log/slog", d.Pos())
		if !ok {
			return nil, "no recorder here can carry the wait, and the name slog means something else here"
		}
		imp = slogImp
		rec += "\n" + slogName + `.Debug("waited between attempts", "wait", ` + wait + ")"
	}
	text := q + " := " + edits.Source(c.pass, m.start) + "\n" + "defer func() {\n" + rec + "\n}()"
	text, ok := edits.FormatStmts(text, edits.Indent(c.pass, d.Pos()))
	if !ok {
		return nil, "the deferred call does not format"
	}
	return append([]analysis.TextEdit{{Pos: d.Pos(), End: d.End(), NewText: []byte(text)}}, imp...), ""
}

// hasForwardGoto reports whether the function at fn has a goto to a label
// further down: a declaration the fix adds could be jumped over.
func hasForwardGoto(info *types.Info, fn inspector.Cursor) bool {
	found := false
	for b := range fn.Preorder((*ast.BranchStmt)(nil)) {
		br := b.Node().(*ast.BranchStmt)
		if br.Tok != token.GOTO || br.Label == nil {
			continue
		}
		if l := info.Uses[br.Label]; l != nil && l.Pos() > br.Pos() {
			found = true
		}
	}
	return found
}

// retryAround returns the retry loop m spans, unless what m records says it
// is a figure of waiting or retrying.
func (c *retrier) retryAround(m *measurement) (retry, bool) {
	startFn := code.EnclosingFunc(m.startStmt)
	if !startFn.Valid() || m.fn != startFn {
		return retry{}, false
	}
	r, ok := c.retryIn(m, startFn, inspector.Cursor{})
	if ok && c.recordsWaiting(m) {
		return retry{}, false
	}
	return r, ok
}

// recordsWaiting reports whether m, which spans retries, names what it
// records as waiting or retrying, and says so as the rule records-waiting.
func (c *retrier) recordsWaiting(m *measurement) bool {
	if !c.saysWaiting(m) {
		return false
	}
	c.silenceMeasurement(m, ruleRecordsWaiting)
	return true
}

// reportRetryGroups reports the retries, one diagnostic per loop: the
// measurements across one loop share the sum of its pauses.
func (c *retrier) reportRetryGroups(rs []retry) {
	var order []ast.Node
	groups := make(map[ast.Node][]retry)
	for _, r := range rs {
		k := r.loop.Node()
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	for _, k := range order {
		c.reportRetries(groups[k])
	}
}
