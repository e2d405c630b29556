package waittiming

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// A fixer builds the one fix of the measurements that share an insertion
// point: it takes the second timestamp there, measures each run from it,
// and records each wait the way the code already records the duration.
type fixer struct {
	c    *checker
	pass *analysis.Pass
	file *ast.File
	ip   insertion

	why string // why the last measurement added has no fix
	// retry, when set, names the sum of the pauses between attempts that
	// the fix records: there is no second timestamp.
	retry string
	// total is set when the measurement is the latency users see (a whole
	// HTTP handler, a figure named a total): the fix keeps it as it is and
	// records the wait beside it.
	total bool

	started string // the new timestamp's name
	now     string // the clock read that gives it
	lines   []string
	moves   []move
	edits   []analysis.TextEdit
	imports []analysis.TextEdit
	queued  map[ast.Node]string // the name replacing each deferred start
	start   *types.Var          // the start variable of the measurement being added
	// relative is set when the clock's readings are time.Durations since
	// a fixed instant (timex.Now()): two of them subtract, they have no Sub.
	relative bool

	// declAt, when set, is a deferred closure that stays where it is because
	// it reads the function's results (to label failures, which a move
	// would stop recording): started is declared before it, from predecl,
	// and assigned again after the wait.
	declAt  ast.Node
	predecl []string
}

// A move takes a statement from before the wait to the insertion point: a
// deferred measurement must start after the wait.
type move struct {
	stmt    inspector.Cursor
	replace string // what stays where the statement was; "" removes its lines
}

func newFixer(c *checker, ip insertion) *fixer {
	return &fixer{
		c:       c,
		pass:    c.pass,
		file:    edits.EnclosingFile(c.pass.Files, ip.stmt.Node().Pos()),
		ip:      ip,
		queued:  make(map[ast.Node]string),
		started: c.names.Local(ip.pos(), "started"),
	}
}

// add plans the fix of one measurement, or says why it cannot be fixed in
// a way that compiles and keeps both figures; it leaves fx as it was then.
func (fx *fixer) add(f finding) (ok bool, why string) {
	saved := *fx
	saved.lines = slices.Clone(fx.lines)
	saved.moves = slices.Clone(fx.moves)
	saved.edits = slices.Clone(fx.edits)
	saved.imports = slices.Clone(fx.imports)
	fx.start, fx.why = nil, ""
	fx.relative = f.m.start != nil && code.IsExactly(fx.pass.TypesInfo.TypeOf(f.m.start), "time", "Duration")
	switch f.m.form {
	case formVar:
		ok = fx.addVar(f.m)
	case formDeferCall:
		ok = fx.addDeferCall(f.m)
	case formDeferLit:
		ok = fx.addDeferLit(f.m)
	case formTimer, formDeferTimer:
		ok = fx.addTimer(f.m)
	case formParam:
		ok = fx.fail("the start is a parameter: the caller takes it, and a timestamp after the wait here would change what the caller asked to measure")
	}
	if !ok {
		queued, why := fx.queued, fx.why
		*fx = saved
		fx.queued = queued
		if why == "" {
			why = "no edit the fix knows keeps both figures"
		}
		return false, why
	}
	return true, ""
}

// addVar: start := time.Now() … time.Since(start) becomes a run measured
// from started, and the wait started.Sub(start) is recorded beside it.
func (fx *fixer) addVar(m *measurement) bool {
	info := fx.pass.TypesInfo
	if fx.now == "" {
		if !edits.LocalsInScopeAt(fx.pass.TypesInfo, m.start, fx.ip.pos()) {
			return fx.fail("the clock the start reads is not in scope after the wait")
		}
		fx.now = edits.Source(fx.pass, m.start)
	}
	fx.start = m.startVar
	call := m.end.Node().(*ast.CallExpr)
	if m.deferStmt.Valid() && m.deferStmt.Node().Pos() < fx.ip.pos() {
		if fx.total || fx.readsResults(m) {
			if !fx.keepInPlace(m.deferStmt.Node(), fx.started+" := "+m.startVar.Name()) {
				return fx.fail("two deferred closures read the function's results")
			}
		} else {
			fx.addMove(move{stmt: m.deferStmt})
		}
	}
	if !fx.sees(call.Pos()) {
		return fx.fail("the end is outside the block that holds the wait")
	}
	wait := fx.elapsed(fx.started, m.startVar.Name())
	if start, _, ok := timing.Elapsed(info, call); ok {
		if !fx.total {
			fx.edits = append(fx.edits, edits.Replace(start, fx.started))
		}
		if !fx.recordWait(m.end, wait, 0) {
			return fx.fallback(fx.waitAtSplit(m.startVar.Name()))
		}
		return true
	}
	i := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return localVar(info, a) == m.startVar })
	if i < 0 {
		return fx.fail("the recorder takes the start in a form the fix does not know")
	}
	if !fx.total {
		fx.edits = append(fx.edits, edits.Replace(call.Args[i], fx.started))
	}
	if line, ok := fx.sibling(call, i, m.startVar.Name()); ok {
		fx.lines = append(fx.lines, line)
		return true
	}
	return fx.fallback(fx.waitAtSplit(m.startVar.Name()))
}

// waitAtSplit returns the wait, as recorded at the second timestamp, since
// the start named start: started.Sub(start), or, where the fix keeps the
// total and takes no second timestamp for it, the time since start.
func (fx *fixer) waitAtSplit(start string) string {
	if !fx.total {
		return fx.elapsed(fx.started, start)
	}
	if !fx.relative && strings.HasSuffix(fx.now, "time.Now()") && fx.now == fx.timeName()+".Now()" {
		return fx.timeName() + ".Since(" + start + ")"
	}
	return fx.elapsed(fx.now, start)
}

// elapsed returns the time from the reading earlier to the reading later:
// later.Sub(earlier), or later - earlier for a relative clock's readings.
func (fx *fixer) elapsed(later, earlier string) string {
	if fx.relative {
		return "(" + later + " - " + earlier + ")"
	}
	return later + ".Sub(" + earlier + ")"
}

// timeName returns the name of package time in the clock read fx.now.
func (fx *fixer) timeName() string {
	return strings.TrimSuffix(fx.now, ".Now()")
}

// addDeferCall: defer metrics.MeasureSince(key, time.Now()) moves after the
// wait and measures from started; where it stood, queued := time.Now() keeps
// the start of the wait, recorded by a sibling call under a wait key.
func (fx *fixer) addDeferCall(m *measurement) bool {
	q := fx.queuedName(m)
	if fx.now == "" {
		fx.now = edits.Source(fx.pass, m.start)
	}
	call := m.end.Node().(*ast.CallExpr)
	startIdx := code.ArgIndex(call, m.start)
	if fx.total {
		// queued := time.Now(); defer metrics.MeasureSince(key, queued).
		if !fx.keepInPlace(m.deferStmt.Node(), q+" := "+edits.Source(fx.pass, m.start)) {
			return fx.fail("two measurements deferred before the wait stay where they are")
		}
		fx.edits = append(fx.edits, edits.Replace(m.start, q))
	} else {
		fx.addMove(move{stmt: m.deferStmt, replace: q + " := " + edits.Source(fx.pass, m.start)})
		fx.edits = append(fx.edits, edits.Replace(m.start, fx.started))
	}
	if line, ok := fx.sibling(call, startIdx, q); ok {
		fx.lines = append(fx.lines, line)
		return true
	}
	return fx.fallback(fx.waitAtSplit(q))
}

// addDeferLit: defer func(start time.Time) {…}(time.Now()) moves after the
// wait and gets started; the literal's recorders also record the wait.
func (fx *fixer) addDeferLit(m *measurement) bool {
	q := fx.queuedName(m)
	if fx.now == "" {
		fx.now = edits.Source(fx.pass, m.start)
	}
	inPlace := fx.total || fx.readsResults(m)
	if inPlace {
		// defer func(start time.Time) {…}(queued), measuring from started.
		if !fx.keepInPlace(m.deferStmt.Node(), q+" := "+edits.Source(fx.pass, m.start), fx.started+" := "+q) {
			return fx.fail("two deferred closures read the function's results")
		}
		fx.edits = append(fx.edits, edits.Replace(m.start, q))
	} else {
		fx.addMove(move{stmt: m.deferStmt, replace: q + " := " + edits.Source(fx.pass, m.start)})
		fx.edits = append(fx.edits, edits.Replace(m.start, fx.started))
	}
	wait := fx.started + ".Sub(" + q + ")"
	for _, e := range fx.c.ends {
		if e.v != m.startVar {
			continue
		}
		call := e.cur.Node().(*ast.CallExpr)
		if start, _, ok := timing.Elapsed(fx.pass.TypesInfo, call); ok {
			if inPlace && !fx.total {
				fx.edits = append(fx.edits, edits.Replace(start, fx.started))
			}
			if fx.recordWait(e.cur, wait, 0) {
				return true
			}
			continue
		}
		i := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return localVar(fx.pass.TypesInfo, a) == m.startVar })
		if line, ok := fx.sibling(call, i, q); ok {
			fx.lines = append(fx.lines, line)
			return true
		}
	}
	return fx.fallback(wait)
}

// addTimer: t := prometheus.NewTimer(o) (or a deferred timer) moves after
// the wait, with the defers that observe it; queued := time.Now() keeps the
// start of the wait, which the same observer records under a wait label.
func (fx *fixer) addTimer(m *measurement) bool {
	startStmt := m.startStmt
	if m.form == formDeferTimer {
		startStmt = m.deferStmt
	}
	if _, done := fx.queued[startStmt.Node()]; done {
		return true // another end of the same timer planned it
	}
	// time.Now() goes where the timer started and after the wait.
	timeName, imp, ok := edits.AddImport(fx.pass, fx.file, "time", startStmt.Node().Pos(), fx.ip.pos())
	if !ok {
		return fx.fail("the fix needs time.Now(), and the name time means something else here")
	}
	q := fx.queuedName(m)
	if fx.now == "" {
		fx.now = timeName + ".Now()"
	}
	fx.imports = append(fx.imports, imp...)
	if fx.total {
		// The timer stays; queued := time.Now() before it keeps the start
		// of the wait.
		if !fx.keepInPlace(startStmt.Node(), q+" := "+timeName+".Now()") {
			return fx.fail("two measurements before the wait stay where they are")
		}
		return fx.recordTimerWait(m, fx.started+".Sub("+q+")")
	}
	fx.addMove(move{stmt: startStmt, replace: q + " := " + timeName + ".Now()"})
	if m.form == formTimer {
		// Defers that observe the timer before the wait move with it; any
		// other use there would see no timer.
		for stmt, ok := startStmt.NextSibling(); ok && stmt.Node().Pos() < fx.ip.pos(); stmt, ok = stmt.NextSibling() {
			if !usesVar(fx.pass.TypesInfo, stmt.Node(), m.startVar) {
				continue
			}
			d, isDefer := stmt.Node().(*ast.DeferStmt)
			if !isDefer || !fx.c.stops(m.start, d.Call) {
				return fx.fail("the timer is used before the wait")
			}
			fx.addMove(move{stmt: stmt})
		}
	}
	return fx.recordTimerWait(m, fx.started+".Sub("+q+")")
}

// recordTimerWait records the wait of a timer's measurement with the
// timer's observer under a stage label of "wait", or in the fallback.
func (fx *fixer) recordTimerWait(m *measurement, wait string) bool {
	if fx.c.isPrometheusTimer(m.start) {
		if line, ok := fx.observeWait(m.start.Args[0], wait); ok {
			fx.lines = append(fx.lines, line)
			return true
		}
	}
	return fx.fallback(wait)
}

// fail records why the measurement being added has no fix.
func (fx *fixer) fail(why string) bool {
	fx.why = why
	return false
}

// queuedName returns the name that keeps the start of a deferred
// measurement where it stood.
func (fx *fixer) queuedName(m *measurement) string {
	key := m.startStmt.Node()
	if m.deferStmt.Valid() && m.form != formVar && m.form != formTimer {
		key = m.deferStmt.Node()
	}
	if q, ok := fx.queued[key]; ok {
		return q
	}
	// queued replaces the start where it stood, and the wait is measured
	// from it after the wait.
	q := fx.c.names.Local(key.Pos(), "queued", fx.ip.pos())
	fx.queued[key] = q
	return q
}

func (fx *fixer) addMove(mv move) {
	for _, old := range fx.moves {
		if old.stmt == mv.stmt {
			return
		}
	}
	fx.moves = append(fx.moves, mv)
}

// keepInPlace declares started before the deferred closure d, with the
// lines decl, so that the closure (which stays) measures from the value
// started gets after the wait.
func (fx *fixer) keepInPlace(d ast.Node, decl ...string) bool {
	if fx.declAt != nil && fx.declAt != d {
		return false // one declaration of started per fix
	}
	if fx.declAt == nil {
		fx.declAt, fx.predecl = d, decl
	}
	return true
}

// readsResults reports whether m's end runs in a deferred closure that reads
// a named result of its function (err, to label failures).
func (fx *fixer) readsResults(m *measurement) bool {
	d, ok := m.deferStmt.Node().(*ast.DeferStmt)
	if !ok {
		return false
	}
	lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit)
	if !ok {
		return false
	}
	var results *ast.FieldList
	switch fn := m.fn.Node().(type) {
	case *ast.FuncDecl:
		results = fn.Type.Results
	case *ast.FuncLit:
		results = fn.Type.Results
	}
	if results == nil {
		return false
	}
	named := make(map[types.Object]bool)
	for _, f := range results.List {
		for _, name := range f.Names {
			named[fx.pass.TypesInfo.Defs[name]] = true
		}
	}
	reads := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && named[fx.pass.TypesInfo.Uses[id]] {
			reads = true
		}
		return !reads
	})
	return reads
}

// sees reports whether code at pos, once the fix is applied, sees the
// variables declared at the insertion point: it follows them in their list,
// or it moves there.
func (fx *fixer) sees(pos token.Pos) bool {
	for _, mv := range fx.moves {
		if mv.stmt.Node().Pos() <= pos && pos < mv.stmt.Node().End() {
			return true
		}
	}
	list := fx.ip.list.Node()
	from := fx.ip.pos()
	if fx.declAt != nil {
		from = fx.declAt.Pos()
	}
	return pos >= from && list.Pos() <= pos && pos < list.End()
}

// finish returns the edits of the fix.
func (fx *fixer) finish() []analysis.TextEdit {
	var lines []string
	var out []analysis.TextEdit
	needStarted := fx.retry == "" && fx.usesStarted()
	predecl := fx.predecl
	if !needStarted {
		predecl = slices.DeleteFunc(slices.Clone(predecl), fx.declaresStarted)
	}
	if fx.declAt != nil && len(predecl) > 0 {
		out = append(out, edits.InsertBefore(fx.pass, fx.declAt, strings.Join(predecl, "\n")))
	}
	switch {
	case !needStarted:
		// No second timestamp: the pauses were summed where they are, or
		// the wait is recorded from the start.
	case fx.declAt != nil && slices.ContainsFunc(fx.predecl, fx.declaresStarted):
		lines = append(lines, fx.started+" = "+fx.now)
	default:
		lines = append(lines, fx.started+" := "+fx.now)
	}
	for _, l := range fx.lines {
		if !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
	}
	slices.SortFunc(fx.moves, func(a, b move) int { return int(a.stmt.Node().Pos() - b.stmt.Node().Pos()) })
	for _, mv := range fx.moves {
		text, span := fx.movedText(mv)
		lines = append(lines, text)
		out = append(out, span)
	}
	text := strings.Join(lines, "\n")
	if text == "" {
		// nothing to insert
	} else if fx.ip.before {
		out = append(out, edits.InsertBefore(fx.pass, fx.ip.stmt.Node(), text))
	} else {
		out = append(out, edits.InsertAfter(fx.pass, fx.ip.stmt.Node(), text))
	}
	for _, e := range fx.edits {
		if !fx.inMoved(e) {
			out = append(out, e)
		}
	}
	return append(out, fx.imports...)
}

// usesStarted reports whether the fix refers to the second timestamp
// anywhere but in its own declaration.
func (fx *fixer) usesStarted() bool {
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(fx.started) + `\b`)
	for _, l := range fx.lines {
		if word.MatchString(l) {
			return true
		}
	}
	for _, e := range fx.edits {
		if word.Match(e.NewText) {
			return true
		}
	}
	return false
}

func (fx *fixer) declaresStarted(line string) bool {
	return strings.HasPrefix(line, fx.started+" := ")
}

func (fx *fixer) inMoved(e analysis.TextEdit) bool {
	for _, mv := range fx.moves {
		if from, to := fx.movedRange(mv); from <= e.Pos && e.End <= to {
			return true
		}
	}
	return false
}

// movedRange returns the text a move takes along: the statement, and its
// comments when its lines go.
func (fx *fixer) movedRange(mv move) (from, to token.Pos) {
	if mv.replace != "" {
		return mv.stmt.Node().Pos(), mv.stmt.Node().End()
	}
	sp := edits.DeleteStmt(fx.pass, fx.file, mv.stmt.Node())
	return sp.TextStart, sp.TextEnd
}

// movedText returns the text a moved statement takes to the insertion point
// (its doc comment and trailing comment along, when its lines go), with the
// fix's edits inside it applied and its continuation lines un-indented, and
// the edit that leaves what stays where it was.
func (fx *fixer) movedText(mv move) (string, analysis.TextEdit) {
	stmt := mv.stmt.Node()
	from, to := fx.movedRange(mv)
	var inner []analysis.TextEdit
	for _, e := range fx.edits {
		if from <= e.Pos && e.End <= to {
			inner = append(inner, e)
		}
	}
	indent := edits.Indent(fx.pass, stmt.Pos())
	if mv.replace != "" {
		text := fx.textWith(stmt, inner...)
		return dedent(text, indent), edits.Replace(stmt, mv.replace)
	}
	span := edits.DeleteStmt(fx.pass, fx.file, stmt)
	content := fileContent(fx.pass, stmt.Pos())
	tf := fx.pass.Fset.File(stmt.Pos())
	src := string(content[tf.Offset(span.TextStart):tf.Offset(span.TextEnd)])
	text := applyAt(src, span.TextStart, inner)
	return dedent(text, indent), span.Delete()
}
