package waittiming

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// Analyzer reports durations and deadlines that span an admission wait and
// the work after it.
var Analyzer = &analysis.Analyzer{
	Name:     "waittiming",
	Doc:      doc,
	URL:      report.URL("waittiming"),
	Requires: []*analysis.Analyzer{inspect.Analyzer, report.Analyzer, admission.Analyzer},
	Run:      run,
	// retriesFact: an exported function that retries with pauses (retryspan.go).
	FactTypes: []analysis.Fact{new(retriesFact), new(bookkeepingFact)},
}

//go:embed doc.go
var docFile string

var doc = report.Doc(docFile, "waittiming")

var (
	extraWaits = calls.New("-waittiming.waits") // no built-in entries: the waits package knows those
	mutexWaits bool
)

func init() {
	report.AddWhyFlag(&Analyzer.Flags)
	Analyzer.Flags.Var(extraWaits, "waits", "further admission waits, comma-separated: pkg/path.Func, pkg/path.Type.Method or (*pkg/path.Type).Method")
	Analyzer.Flags.Var(retryingCalls, "retries", "further library calls that retry with pauses between attempts, comma-separated, in the notation of -waittiming.waits; \"-name\" takes a built-in entry out")
	Analyzer.Flags.BoolVar(&mutexWaits, "mutex", false, "count sync.Mutex.Lock, sync.RWMutex.Lock and RLock as admission waits")
	knowledge.QuietPackages.Register(&Analyzer.Flags, Analyzer.Name)
	knowledge.PollIntervalWords.Register(&Analyzer.Flags, Analyzer.Name)
	knowledge.RetryingClientTrees.Register(&Analyzer.Flags, Analyzer.Name)
}

// A form is the way code takes a measurement.
type form int

const (
	formVar        form = iota // start := time.Now() … time.Since(start)
	formDeferCall              // defer metrics.MeasureSince(key, time.Now())
	formDeferLit               // defer func(start time.Time) {…}(time.Now())
	formTimer                  // t := prometheus.NewTimer(o) … t.ObserveDuration(), or a timer of the service's own
	formDeferTimer             // defer prometheus.NewTimer(o).ObserveDuration(), defer track("op")()
	formParam                  // func f(…, start time.Time) { …; time.Since(start) }: the caller's start, before f runs
)

// A measurement is one duration the code records, from a start timestamp to
// an end.
type measurement struct {
	form form
	// start is the call that reads the clock or starts the timer, and
	// startStmt the statement that runs it (an assignment or a defer). A
	// start handed in (formParam) has no call: start is nil, and startStmt
	// is the signature of the function whose parameter it is, which ends
	// before the body's first statement.
	start     *ast.CallExpr
	startStmt inspector.Cursor
	// startVar holds the start (the time or the timer) in formVar, formTimer
	// and formDeferLit (the literal's parameter); nil otherwise.
	startVar *types.Var
	// end is the expression that ends the measurement: time.Since(start),
	// t.Sub(start), a recorder taking start, t.ObserveDuration(), the
	// deferred call.
	end inspector.Cursor
	// endAt is where the end reads the clock: the position of that read, or
	// the closing brace of the function for an end that runs deferred.
	endAt token.Pos
	// deferStmt is the defer statement that runs the end, if it runs
	// deferred; fn is the function whose body the end runs in.
	deferStmt inspector.Cursor
	fn        inspector.Cursor
}

func run(pass *analysis.Pass) (any, error) {
	rep := report.New(pass)
	defer rep.Finish()
	extraWaits.Verify(pass.Pkg)

	res := pass.ResultOf[admission.Analyzer].(*admission.Result)
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	e := &env{
		pass:  pass,
		rep:   rep,
		res:   res,
		adm:   res.Finder(admission.Options{Strict: true, Extra: extraWaits, Mutex: mutexWaits}),
		insp:  insp,
		names: edits.NewNames(pass),
	}
	// The packages that import this one judge its calls with its facts,
	// whether it measures or not.
	e.bookkeeping = e.bookkeepingFuncs()
	if !mayMeasure(pass.Pkg) && !res.HasTimerHelpers() {
		rep.SilencePackage(pass.Files, ruleNoClock)
		return nil, nil
	}
	c := &checker{
		env:    e,
		starts: make(map[*types.Var][]inspector.Cursor),
		timers: res.HasTimerHelpers(),
	}
	r := &retrier{env: e, chk: c}
	r.exportRetries()
	d := &deadlineChecker{env: e}
	var deadlines []inspector.Cursor
	var timed []timedCall
	for file := range insp.Root().Children() {
		if rep.Skip(file.Node().(*ast.File)) {
			continue
		}
		for cur := range file.Preorder((*ast.CallExpr)(nil)) {
			if isTimeoutCall(pass.TypesInfo, cur.Node().(*ast.CallExpr)) {
				deadlines = append(deadlines, cur)
				continue
			}
			if c.timers {
				if t, ok := r.timedCallAt(cur); ok { // timedcall.go
					timed = append(timed, t)
				}
			}
			c.collect(cur)
		}
	}

	var found []finding
	var retries []retry
	var handoffs []handoff
	var hidden []hiddenRetry
	var inner []innerCall
	for _, m := range c.measurements() {
		if f, ok := c.analyze(m); ok {
			found = append(found, f)
		} else if rt, ok := r.retryAround(m); ok {
			retries = append(retries, rt)
		} else if h, ok := c.handoffIn(m); ok {
			handoffs = append(handoffs, h)
		} else if h, ok := r.hiddenRetryIn(m); ok {
			hidden = append(hidden, h)
		} else if ic, ok := r.innerCallIn(m); ok {
			inner = append(inner, ic)
		}
	}
	c.reportTimings(found)
	r.reportRetryGroups(retries)
	for _, h := range handoffs {
		c.reportHandoff(h)
	}
	for _, h := range hidden {
		r.reportHiddenRetry(h)
	}
	for _, ic := range inner {
		r.reportInnerCall(ic)
	}
	for _, t := range timed {
		r.reportTimedCall(t)
	}
	for _, cur := range deadlines {
		if d.queuedAfterCancel(cur) { // cancelled.go
			continue
		}
		d.checkDeadline(cur)
	}
	for _, q := range c.enqueuedStarts() {
		c.reportEnqueued(q)
	}
	for _, s := range c.staleStamps() {
		c.reportStaleStamp(s)
	}
	return nil, nil
}

// mayMeasure reports whether a package can take a measurement or a deadline
// at all: every form reads the clock through package time, starts a
// Prometheus timer, or derives a context.
func mayMeasure(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		switch imp.Path() {
		case "time", "context", timing.PrometheusPath:
			return true
		}
	}
	return false
}

// An env is what every part of one pass shares: the pass, its reporter, the
// admission result and finder, the inspector and the names taken in fixes.
type env struct {
	// assigned indexes what the package gives each variable and field,
	// built on first use (assignedValues).
	assigned map[*types.Var][]ast.Expr

	pass  *analysis.Pass
	rep   *report.Reporter
	res   *admission.Result
	adm   *admission.Finder
	insp  *inspector.Inspector
	names *edits.Names
	// bookkeeping holds the package's functions that only record
	// (bookkeeping.go).
	bookkeeping map[*types.Func]bool
	// awaited holds, per go statement of a literal asked about, where its
	// function receives what the goroutine sends (code.AwaitedAt).
	awaited map[*ast.GoStmt]token.Pos
}

// A checker holds what one pass learns about measurements.
type checker struct {
	*env

	// starts lists, per local variable, the assignments of a timestamp or a
	// Prometheus timer to it; ends lists the expressions that end a
	// measurement from a variable, and deferred the measurements that start
	// in a defer statement.
	starts   map[*types.Var][]inspector.Cursor
	ends     []varEnd
	deferred []*measurement
	// fieldEnds are the ends from a time.Time field (time.Since(job.start)),
	// which enqueued.go follows to where the field is stamped.
	fieldEnds []fieldEnd

	stages map[*types.Var][]string // label names of *Vec observers, by variable

	timers bool // a function here or imported measures time for its callers

	// selfTimed: whether each function of the package times its own work
	// (timedapart.go), on first use.
	selfTimed map[*types.Func]bool
}

// A retrier finds retries inside a measured span: a loop (or a goto) of
// attempts separated by pauses, in the measuring function or in one it
// calls, and builds their findings and fixes.
type retrier struct {
	*env
	chk     *checker               // the measurements whose retries it finds
	retries map[*types.Func]*retry // whether each function of the package retries, on first use
	// ifaceRetries: whether every implementation of an interface method
	// retries, on first use (nil: not every one, or none known).
	ifaceRetries map[*types.Func]*retry
	// resultRetries: whether the function each function returns retries,
	// on first use.
	resultRetries map[*types.Func]*retry
	mayRetry      *bool // whether an implementation in reach can retry (mayRetryHere)
	impls         code.ImplFinder
}

// A deadlineChecker finds deadlines derived right before an admission wait
// whose context the work after the wait uses, and builds their fixes.
type deadlineChecker struct {
	*env
}

// A varEnd is an expression that ends a measurement from the variable v.
type varEnd struct {
	v   *types.Var
	cur inspector.Cursor
}

// collect records what the call at cur starts or ends.
func (c *checker) collect(cur inspector.Cursor) {
	info := c.pass.TypesInfo
	call := cur.Node().(*ast.CallExpr)
	switch {
	case timing.IsTimestamp(info, call) || c.isTimerStart(call):
		if v := assignedLocal(info, cur); v != nil {
			c.starts[v] = append(c.starts[v], cur)
			return
		}
		if outer, ok := timeOfNow(info, cur); ok {
			if v := assignedLocal(info, outer); v != nil {
				c.starts[v] = append(c.starts[v], outer) // start := time.Now().UTC()
				return
			}
		}
		if m := c.deferredStart(cur); m != nil {
			c.deferred = append(c.deferred, m)
		}
	case c.isTimerStop(call):
		if v := timerVar(info, call); v != nil {
			c.ends = append(c.ends, varEnd{v, cur})
		} else {
			c.rep.Silence(call, ruleStartElsewhere) // s.timer.ObserveDuration()
		}
	default:
		if start, _, ok := timing.Elapsed(info, call); ok {
			if v := localVar(info, start); v != nil {
				c.ends = append(c.ends, varEnd{v, cur})
			} else if fe, ok := fieldEndOf(info, cur, start); ok {
				c.fieldEnds = append(c.fieldEnds, fe) // stamped when queued? (enqueued.go)
			} else {
				c.rep.Silence(call, ruleStartElsewhere)
			}
			return
		}
		_, deferred := cur.Parent().Node().(*ast.DeferStmt)
		for i, arg := range call.Args {
			if v := localVar(info, arg); v != nil && (code.IsTime(v.Type()) || c.isRelativeReading(v)) && c.recordsSince(call, i, deferred) {
				c.ends = append(c.ends, varEnd{v, cur})
				return
			}
		}
	}
}

// timeOfNow returns, for a clock read at cur, the call that converts it
// without moving it in time (time.Now().UTC(), .Local(), .Round(0)), when
// there is one.
func timeOfNow(info *types.Info, cur inspector.Cursor) (inspector.Cursor, bool) {
	found := false
	for {
		sel, ok := cur.Parent().Node().(*ast.SelectorExpr)
		if !ok || sel.X != cur.Node() {
			return cur, found
		}
		switch sel.Sel.Name {
		case "UTC", "Local", "Round", "Truncate", "In":
		default:
			return cur, found
		}
		call := cur.Parent().Parent()
		if c, ok := call.Node().(*ast.CallExpr); !ok || c.Fun != ast.Expr(sel) || !code.IsTime(info.TypeOf(c)) {
			return cur, found
		}
		cur, found = call, true
	}
}

// measurements pairs each end with the start it measures from: the last
// assignment of a timestamp (or timer) to its variable before it.
func (c *checker) measurements() []*measurement {
	var ms []*measurement
	litStarts := make(map[*types.Var]bool) // the parameters deferred literals measure from
	for _, m := range c.deferred {
		if m.form == formDeferLit && !slices.ContainsFunc(c.ends, func(e varEnd) bool { return e.v == m.startVar }) {
			continue // the literal takes a time but measures nothing from it
		}
		if m.form == formDeferLit {
			litStarts[m.startVar] = true
		}
		ms = append(ms, m)
	}
	for _, e := range c.ends {
		var start inspector.Cursor
		for _, s := range c.starts[e.v] {
			if s.Node().Pos() < e.cur.Node().Pos() && (!start.Valid() || s.Node().Pos() > start.Node().Pos()) {
				start = s
			}
		}
		if !start.Valid() {
			if litStarts[e.v] {
				continue
			}
			if m, ok := c.paramMeasurement(e); ok {
				ms = append(ms, m)
				continue
			}
			c.rep.Silence(e.cur.Node(), ruleStartElsewhere)
			continue
		}
		call := start.Node().(*ast.CallExpr)
		endCall := e.cur.Node().(*ast.CallExpr)
		m := &measurement{form: formVar, start: call, startStmt: code.StmtOf(start), startVar: e.v, end: e.cur}
		if rule := c.unpaired(call, endCall); rule != nil {
			c.rep.Silence(endCall, rule)
			continue
		}
		if c.isTimerStart(call) {
			m.form = formTimer
		}
		if !c.locateEnd(m) {
			c.rep.Silence(endCall, ruleEndUnlocated)
			continue
		}
		ms = append(ms, m)
	}
	return ms
}

// unpaired returns the rule that keeps the start call and the end endCall
// of one variable from making a measurement, or nil: a timer must be
// stopped by its own stop, and a timer's stop must end a timer.
func (c *checker) unpaired(call, endCall *ast.CallExpr) *report.Rule {
	switch {
	case c.isTimerStart(call):
		if !c.stops(call, endCall) {
			return ruleStartEndMismatch
		}
	case c.isTimerStop(endCall):
		if _, _, elapsed := timing.Elapsed(c.pass.TypesInfo, endCall); !elapsed {
			return ruleStartEndMismatch
		}
	}
	return nil
}

// locateEnd sets where m's end runs: the function, whether it runs deferred,
// and where it reads the clock.
func (c *checker) locateEnd(m *measurement) bool {
	m.deferStmt, m.fn = deferOf(m.end)
	if !m.fn.Valid() {
		return false
	}
	if m.deferStmt.Valid() {
		m.endAt = code.FuncBody(m.fn.Node()).Rbrace
		return true
	}
	call := m.end.Node().(*ast.CallExpr)
	if _, end, ok := timing.Elapsed(c.pass.TypesInfo, call); ok && end != ast.Expr(call) {
		// t2.Sub(start): the end is where t2 read the clock.
		if now, ok := ast.Unparen(end).(*ast.CallExpr); ok && timing.IsTimestamp(c.pass.TypesInfo, now) {
			m.endAt = now.Pos()
			return true
		}
		v := localVar(c.pass.TypesInfo, end)
		if v == nil {
			return false
		}
		var at token.Pos
		for _, s := range c.starts[v] {
			if p := s.Node().Pos(); p < call.Pos() && p > at && timing.IsTimestamp(c.pass.TypesInfo, s.Node().(*ast.CallExpr)) {
				at = p
			}
		}
		if !at.IsValid() {
			return false
		}
		m.endAt = at
		return true
	}
	m.endAt = call.Pos()
	return true
}

// deferredStart returns the measurement a timestamp at cur starts when it is
// an argument of a deferred call (defer metrics.MeasureSince(key,
// time.Now()), defer func(start time.Time) {…}(time.Now())), the timer of
// defer prometheus.NewTimer(o).ObserveDuration() or of a timer of the
// service's own, or the start of defer track("op")().
func (c *checker) deferredStart(cur inspector.Cursor) *measurement {
	info := c.pass.TypesInfo
	call := cur.Node().(*ast.CallExpr)
	parent := cur.Parent()
	if c.isTimerStart(call) {
		if h := c.timerHelper(call); h != nil && h.StopFunc {
			// defer track("op")(): the start runs at the defer.
			if oc, ok := parent.Node().(*ast.CallExpr); ok && oc.Fun == ast.Expr(call) && len(oc.Args) == 0 {
				if _, ok := parent.Parent().Node().(*ast.DeferStmt); ok {
					return newDeferred(formDeferTimer, call, parent)
				}
			}
			return nil
		}
		sel, ok := parent.Node().(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		obs := parent.Parent()
		if oc, ok := obs.Node().(*ast.CallExpr); !ok || oc.Fun != sel || !c.stops(call, oc) {
			return nil
		}
		if _, ok := obs.Parent().Node().(*ast.DeferStmt); !ok {
			return nil
		}
		return newDeferred(formDeferTimer, call, obs)
	}
	outer, ok := parent.Node().(*ast.CallExpr)
	if !ok || outer.Fun == ast.Expr(call) {
		return nil
	}
	if _, ok := parent.Parent().Node().(*ast.DeferStmt); !ok {
		return nil
	}
	i := code.ArgIndex(outer, call)
	if lit, ok := ast.Unparen(outer.Fun).(*ast.FuncLit); ok {
		p := paramAt(info, lit, i)
		if p == nil || !code.IsTime(p.Type()) {
			return nil
		}
		m := newDeferred(formDeferLit, call, parent)
		m.startVar = p
		return m
	}
	if !c.recordsSince(outer, i, true) {
		return nil
	}
	return newDeferred(formDeferCall, call, parent)
}

func newDeferred(f form, start *ast.CallExpr, end inspector.Cursor) *measurement {
	m := &measurement{form: f, start: start, end: end, startStmt: end.Parent()}
	m.deferStmt, m.fn = end.Parent(), code.EnclosingFunc(end.Parent())
	if m.fn.Valid() {
		m.endAt = code.FuncBody(m.fn.Node()).Rbrace
	}
	return m
}

// deferOf returns, for an end at cur, the defer statement that runs it (the
// statement itself, or the one calling a closure around it) and the function
// whose body the end runs in.
func deferOf(cur inspector.Cursor) (deferStmt, fn inspector.Cursor) {
	if d, ok := cur.Parent().Node().(*ast.DeferStmt); ok && d.Call == cur.Node() {
		return cur.Parent(), code.EnclosingFunc(cur.Parent())
	}
	for enc := range cur.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		if _, ok := enc.Node().(*ast.FuncLit); ok && code.IsDeferredLit(enc) {
			d := enc.Parent().Parent()
			return d, code.EnclosingFunc(d)
		}
		return inspector.Cursor{}, enc
	}
	return inspector.Cursor{}, inspector.Cursor{}
}

// assignedLocal returns the local variable the call at cur is assigned to
// (v := call, v = call, var v = call), or nil.
func assignedLocal(info *types.Info, cur inspector.Cursor) *types.Var {
	if lhs := code.Assignee(cur); lhs != nil {
		return localVar(info, lhs)
	}
	return nil
}

// localVar returns the function-local variable expr names, or nil: package
// variables and fields are shared, and their timestamps are not this call's.
func localVar(info *types.Info, expr ast.Expr) *types.Var {
	id, ok := ast.Unparen(expr).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	if v == nil {
		v, _ = info.Defs[id].(*types.Var)
	}
	if v == nil || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || v.Parent() == nil {
		return nil
	}
	return v
}

// paramAt returns the parameter of lit that receives argument i.
func paramAt(info *types.Info, lit *ast.FuncLit, i int) *types.Var {
	j := 0
	for _, field := range lit.Type.Params.List {
		if len(field.Names) == 0 {
			if j == i {
				return nil
			}
			j++
			continue
		}
		for _, name := range field.Names {
			if j == i {
				v, _ := info.Defs[name].(*types.Var)
				return v
			}
			j++
		}
	}
	return nil
}

// reportTimings reports the findings, one fix per insertion point: the
// measurements across one wait share the second timestamp, so their fixes
// are one. A finding with no place for the split, or whose fix cannot be
// built, is reported without a fix, with the reason.
func (c *checker) reportTimings(found []finding) {
	type key struct {
		stmt   ast.Node
		before bool
	}
	var order []key
	groups := make(map[key][]finding)
	for _, f := range found {
		if !f.ip.valid() {
			c.reportAll(timingDiagnostics(c.pass.TypesInfo, []finding{f}, nil, f.noFix, nil))
			continue
		}
		k := key{f.ip.stmt.Node(), f.ip.before}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], f)
	}
	for _, k := range order {
		fx := newFixer(c, groups[k][0].ip)
		fx.total = slices.ContainsFunc(groups[k], func(f finding) bool { return f.total })
		var fixed, unfixed []finding
		why := ""
		for _, f := range groups[k] {
			ok, reason := fx.add(f)
			if ok {
				fixed = append(fixed, f)
				continue
			}
			unfixed = append(unfixed, f)
			if why == "" {
				why = reason
			}
		}
		if len(fixed) == 0 {
			c.reportAll(timingDiagnostics(c.pass.TypesInfo, unfixed, nil, why, nil))
			continue
		}
		es := fx.finish()
		if c.declaresJumped(groups[k][0].ip.stmt, es) {
			c.reportAll(timingDiagnostics(c.pass.TypesInfo, groups[k], nil, "a goto jumps over where the fix declares the second timestamp", nil))
			continue
		}
		// Rewritten lines change width: realign trailing comments as gofmt
		// would.
		if finished, ok := edits.Finish(c.pass, es); ok {
			es = finished
		}
		c.reportAll(timingDiagnostics(c.pass.TypesInfo, fixed, es, "", unfixed))
	}
}

// reportAll reports each of ds.
func (c *checker) reportAll(ds []analysis.Diagnostic) {
	for _, d := range ds {
		c.rep.Report(d)
	}
}

// declaresJumped reports whether an edit of es declares a variable (a line
// that starts with var or assigns with :=) where a goto of the function
// around at jumps over it, which the compiler rejects.
func (c *env) declaresJumped(at inspector.Cursor, es []analysis.TextEdit) bool {
	body := code.FuncBody(code.EnclosingFunc(at).Node())
	for _, e := range es {
		if declaration.Match(e.NewText) && code.JumpedOver(c.pass.TypesInfo, body, e.Pos) {
			return true
		}
	}
	return false
}

// declaration matches a line of inserted code that declares a variable.
var declaration = regexp.MustCompile(`(?m)^\s*(var\s|[\w\s,]+:=)`)

// timingDiagnostics reports the measurements fs across one wait: with the
// fix es, or, when es is nil, with why there is none; left are further
// measurements across the wait that the fix leaves alone. Each measurement
// is a finding of its own, at its own end: a figure is what a reader, a
// baseline or a //nolint names, and not every front end shows a related
// position (golangci-lint's text, a GitHub annotation). Each of fs carries
// the same fix, which rewrites them all; drivers apply identical edits once.
func timingDiagnostics(info *types.Info, fs []finding, es []analysis.TextEdit, why string, left []finding) []analysis.Diagnostic {
	first := timingDiagnostic(info, fs[0])
	fixMsg := "Take a second timestamp after the wait and record wait and run time separately"
	if slices.ContainsFunc(fs, func(f finding) bool { return f.total }) {
		fixMsg = "Record the wait separately and keep the total"
	}
	if es == nil {
		first.Related = append(first.Related, analysis.RelatedInformation{Pos: fs[0].wait.Node.End(), End: fs[0].wait.Node.End(), Message: "no automatic fix: " + why + "; take the second timestamp after the wait by hand"})
	} else {
		first.SuggestedFixes = []analysis.SuggestedFix{edits.Fix(fixMsg, es...)}
	}
	out := []analysis.Diagnostic{first}
	for _, o := range fs[1:] {
		d := timingDiagnostic(info, o)
		if es == nil {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: first.Pos, End: first.End, Message: "no automatic fix (see the measurement here); take the second timestamp after the wait by hand"})
		} else {
			// The one fix, offered on each: applied once, it splits them all.
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: first.Pos, End: first.End, Message: "the fix splits the measurement here too"})
			d.SuggestedFixes = first.SuggestedFixes
		}
		out = append(out, d)
	}
	for _, o := range left {
		d := timingDiagnostic(info, o)
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: first.Pos, End: first.End, Message: "the fix suggested for the measurement here leaves this one alone: measure it from the second timestamp by hand"})
		out = append(out, d)
	}
	return out
}

// timingDiagnostic reports the measurement of f across its wait, without
// a fix.
func timingDiagnostic(info *types.Info, f finding) analysis.Diagnostic {
	pos, end := measuredAt(f.m)
	related := []analysis.RelatedInformation{
		{Pos: f.wait.Node.Pos(), End: f.wait.Node.End(), Message: "the wait: " + f.wait.Name},
	}
	related = append(related, startRelated(f.m, pos, end)...)
	msg := subject(info, f.m) + " spans the wait in " + f.wait.Name +
		" and the work after it, so queueing is reported as slow work; take a second timestamp after the wait and record wait and run time separately"
	if f.total {
		msg = subject(info, f.m) + " is the latency users see and includes the wait in " + f.wait.Name +
			", which no figure shows apart; keep the total and record the wait separately"
	}
	return analysis.Diagnostic{Pos: pos, End: end, Category: "wholecall", Message: msg, Related: related}
}

// subject names the measurement in a message.
func subject(info *types.Info, m *measurement) string {
	prom := m.start != nil && timing.IsTimer(info, m.start)
	switch {
	case m.form == formParam:
		return "the duration since " + m.startVar.Name() + ", a start the caller takes before this function runs,"
	case m.form == formVar:
		return "the duration since " + m.startVar.Name()
	case m.form == formTimer && prom:
		return "the Prometheus timer " + m.startVar.Name()
	case m.form == formTimer:
		return "the timer " + m.startVar.Name() + " started by " + types.ExprString(m.start.Fun)
	case m.form == formDeferTimer && prom:
		return "the deferred Prometheus timer"
	case m.form == formDeferTimer:
		return "the deferred timer started by " + types.ExprString(m.start.Fun)
	}
	return "the measurement deferred with a start of " + types.ExprString(m.start)
}
