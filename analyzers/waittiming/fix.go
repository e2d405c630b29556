package waittiming

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"go/version"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/waits"
)

// A fixer builds the one fix of the measurements that share an insertion
// point: it takes the second timestamp there, measures each run from it,
// and records each wait the way the code already records the duration.
type fixer struct {
	c    *checker
	pass *analysis.Pass
	file *ast.File
	ip   insertion

	started string // the new timestamp's name
	now     string // the clock read that gives it
	lines   []string
	moves   []move
	edits   []analysis.TextEdit
	imports []analysis.TextEdit
	queued  map[ast.Node]string // the name replacing each deferred start
	taken   map[string]bool
	start   *types.Var // the start variable of the measurement being added

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
	file := edits.EnclosingFile(c.pass.Files, ip.stmt.Node().Pos())
	decl := edits.EnclosingDecl(file, ip.stmt.Node().Pos())
	if c.names[decl] == nil {
		c.names[decl] = declNames(decl)
	}
	fx := &fixer{
		c:      c,
		pass:   c.pass,
		file:   file,
		ip:     ip,
		queued: make(map[ast.Node]string),
		taken:  c.names[decl],
	}
	fx.started = fx.fresh("started")
	return fx
}

// fresh returns a name based on base (base, base2, ...) that the function
// does not use, that names nothing in the package or file scope, and that
// this pass's fixes have not declared in the function yet. A new local can
// only clash with what its function can see, so other functions' names do
// not count.
func (fx *fixer) fresh(base string) string {
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name += strconv.Itoa(i)
		}
		if fx.taken[name] || types.Universe.Lookup(name) != nil || fx.pass.Pkg.Scope().Lookup(name) != nil {
			continue
		}
		if _, imported := fx.importNames()[name]; imported {
			continue
		}
		fx.taken[name] = true
		return name
	}
}

// importNames returns the names the file's imports declare.
func (fx *fixer) importNames() map[string]bool {
	names := make(map[string]bool)
	for _, imp := range fx.file.Imports {
		if imp.Name != nil {
			names[imp.Name.Name] = true
		} else if path, err := strconv.Unquote(imp.Path.Value); err == nil {
			names[path[strings.LastIndex(path, "/")+1:]] = true
		}
	}
	return names
}

// declNames returns every identifier used in decl.
func declNames(decl ast.Decl) map[string]bool {
	names := make(map[string]bool)
	if decl == nil {
		return names
	}
	ast.Inspect(decl, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			names[id.Name] = true
		}
		return true
	})
	return names
}

// add plans the fix of one measurement, or reports that it cannot be fixed
// in a way that compiles and keeps both figures; it leaves fx as it was then.
func (fx *fixer) add(f finding) bool {
	saved := *fx
	saved.lines = slices.Clone(fx.lines)
	saved.moves = slices.Clone(fx.moves)
	saved.edits = slices.Clone(fx.edits)
	saved.imports = slices.Clone(fx.imports)
	fx.start = nil
	var ok bool
	switch f.m.form {
	case formVar:
		ok = fx.addVar(f.m)
	case formDeferCall:
		ok = fx.addDeferCall(f.m)
	case formDeferLit:
		ok = fx.addDeferLit(f.m)
	case formTimer, formDeferTimer:
		ok = fx.addTimer(f.m)
	}
	if !ok {
		queued, taken := fx.queued, fx.taken
		*fx = saved
		fx.queued, fx.taken = queued, taken
	}
	return ok
}

// addVar: start := time.Now() … time.Since(start) becomes a run measured
// from started, and the wait started.Sub(start) is recorded beside it.
func (fx *fixer) addVar(m *measurement) bool {
	info := fx.pass.TypesInfo
	if fx.now == "" {
		if !fx.visibleAt(m.start, fx.ip.pos()) {
			return false
		}
		fx.now = edits.Source(fx.pass, m.start)
	}
	fx.start = m.startVar
	call := m.end.Node().(*ast.CallExpr)
	if m.deferStmt.Valid() && m.deferStmt.Node().Pos() < fx.ip.pos() {
		if fx.readsResults(m) {
			if !fx.keepInPlace(m.deferStmt.Node(), fx.started+" := "+m.startVar.Name()) {
				return false
			}
		} else {
			fx.addMove(move{stmt: m.deferStmt})
		}
	}
	if !fx.sees(call.Pos()) {
		return false
	}
	wait := fx.started + ".Sub(" + m.startVar.Name() + ")"
	if start, _, ok := waits.Elapsed(info, call); ok {
		fx.edits = append(fx.edits, edits.Replace(start, fx.started))
		if !fx.recordWait(m.end, wait, 0) {
			return fx.fallback(wait)
		}
		return true
	}
	i := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return localVar(info, a) == m.startVar })
	if i < 0 {
		return false
	}
	fx.edits = append(fx.edits, edits.Replace(call.Args[i], fx.started))
	if line, ok := fx.sibling(call, i, m.startVar.Name()); ok {
		fx.lines = append(fx.lines, line)
		return true
	}
	return fx.fallback(wait)
}

// addDeferCall: defer metrics.MeasureSince(key, time.Now()) moves after the
// wait and measures from started; where it stood, queued := time.Now() keeps
// the start of the wait, recorded by a sibling call under a wait key.
func (fx *fixer) addDeferCall(m *measurement) bool {
	q := fx.queuedName(m)
	if fx.now == "" {
		fx.now = edits.Source(fx.pass, m.start)
	}
	fx.addMove(move{stmt: m.deferStmt, replace: q + " := " + edits.Source(fx.pass, m.start)})
	fx.edits = append(fx.edits, edits.Replace(m.start, fx.started))
	call := m.end.Node().(*ast.CallExpr)
	if line, ok := fx.sibling(call, argIndex(call, m.start), q); ok {
		fx.lines = append(fx.lines, line)
		return true
	}
	return fx.fallback(fx.started + ".Sub(" + q + ")")
}

// addDeferLit: defer func(start time.Time) {…}(time.Now()) moves after the
// wait and gets started; the literal's recorders also record the wait.
func (fx *fixer) addDeferLit(m *measurement) bool {
	q := fx.queuedName(m)
	if fx.now == "" {
		fx.now = edits.Source(fx.pass, m.start)
	}
	inPlace := fx.readsResults(m)
	if inPlace {
		// defer func(start time.Time) {…}(queued), measuring from started.
		if !fx.keepInPlace(m.deferStmt.Node(), q+" := "+edits.Source(fx.pass, m.start), fx.started+" := "+q) {
			return false
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
		if start, _, ok := waits.Elapsed(fx.pass.TypesInfo, call); ok {
			if inPlace {
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
	timeName, imp := edits.AddImport(fx.pass, fx.file, "time")
	q := fx.queuedName(m)
	if fx.now == "" {
		fx.now = timeName + ".Now()"
	}
	fx.imports = append(fx.imports, imp...)
	fx.addMove(move{stmt: startStmt, replace: q + " := " + timeName + ".Now()"})
	if m.form == formTimer {
		// Defers that observe the timer before the wait move with it; any
		// other use there would see no timer.
		for stmt, ok := startStmt.NextSibling(); ok && stmt.Node().Pos() < fx.ip.pos(); stmt, ok = stmt.NextSibling() {
			if !usesVar(fx.pass.TypesInfo, stmt.Node(), m.startVar) {
				continue
			}
			d, isDefer := stmt.Node().(*ast.DeferStmt)
			if !isDefer || !waits.IsObserveDuration(fx.pass.TypesInfo, d.Call) {
				return false
			}
			fx.addMove(move{stmt: stmt})
		}
	}
	wait := fx.started + ".Sub(" + q + ")"
	if line, ok := fx.observeWait(m.start.Args[0], wait); ok {
		fx.lines = append(fx.lines, line)
		return true
	}
	return fx.fallback(wait)
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
	q := fx.fresh("queued")
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

// visibleAt reports whether every local variable node refers to is declared,
// and in scope, at pos.
func (fx *fixer) visibleAt(node ast.Node, pos token.Pos) bool {
	info := fx.pass.TypesInfo
	ok := true
	ast.Inspect(node, func(n ast.Node) bool {
		id, isIdent := n.(*ast.Ident)
		if !isIdent || !ok {
			return ok
		}
		v, isVar := info.Uses[id].(*types.Var)
		if !isVar || v.IsField() || v.Pkg() == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
			return true
		}
		ok = v.Pos() < pos && v.Parent().Contains(pos)
		return ok
	})
	return ok
}

// recordWait records wait where the code records the duration x: as another
// argument of the same logging call, another attribute beside it, or the
// same observer under a wait label. It follows x through one variable
// (elapsed := time.Since(start)).
func (fx *fixer) recordWait(x inspector.Cursor, wait string, depth int) bool {
	v, waitExpr := fx.wrapped(x, wait)
	if !fx.sees(v.Node().Pos()) || (fx.start != nil && !fx.start.Parent().Contains(v.Node().Pos())) {
		return false
	}
	p := v.Parent()
	switch pn := p.Node().(type) {
	case *ast.CallExpr:
		if argIndex(pn, v.Node()) < 0 {
			return false
		}
		return fx.recordInCall(p, v, wait, waitExpr)
	case *ast.AssignStmt:
		if depth > 0 || len(pn.Lhs) != 1 || len(pn.Rhs) != 1 {
			return false
		}
		return fx.recordAlias(localVar(fx.pass.TypesInfo, pn.Lhs[0]), p, waitExpr)
	case *ast.ValueSpec:
		if depth > 0 || len(pn.Names) != 1 || len(pn.Values) != 1 {
			return false
		}
		return fx.recordAlias(localVar(fx.pass.TypesInfo, pn.Names[0]), p, waitExpr)
	}
	return false
}

// recordAlias records wait at the first use of the variable a (which holds
// the duration) that records it.
func (fx *fixer) recordAlias(a *types.Var, assign inspector.Cursor, wait string) bool {
	if a == nil {
		return false
	}
	fn := enclosingFunc(assign)
	info := fx.pass.TypesInfo
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if id.Pos() <= assign.Node().End() || info.Uses[id] != a {
			continue
		}
		if as, ok := cur.Parent().Node().(*ast.AssignStmt); ok && slices.Contains(as.Lhs, ast.Expr(id)) {
			return false // reassigned: later uses hold something else
		}
		if fx.recordWait(cur, wait, 1) {
			return true
		}
	}
	return false
}

// wrapped climbs from the duration x through the conversions the code
// applies to it (.Seconds(), float64(…), / time.Millisecond) and returns the
// converted value and the same conversions applied to wait.
func (fx *fixer) wrapped(x inspector.Cursor, wait string) (inspector.Cursor, string) {
	info := fx.pass.TypesInfo
	v := x
climb:
	for {
		p := v.Parent()
		switch pn := p.Node().(type) {
		case *ast.ParenExpr:
			v = p
			continue
		case *ast.SelectorExpr:
			if pn.X != v.Node() || !isDurationMethod(info, pn.Sel) {
				break climb
			}
			call, ok := p.Parent().Node().(*ast.CallExpr)
			if !ok || call.Fun != ast.Expr(pn) {
				break climb
			}
			v = p.Parent()
			continue
		case *ast.CallExpr:
			if tv, ok := info.Types[pn.Fun]; !ok || !tv.IsType() || len(pn.Args) != 1 {
				break climb
			}
			v = p
			continue
		case *ast.BinaryExpr:
			if (pn.Op != token.QUO && pn.Op != token.MUL) || pn.X != v.Node() {
				break climb
			}
			if tv, ok := info.Types[pn.Y]; !ok || tv.Value == nil {
				break climb
			}
			v = p
			continue
		}
		break
	}
	return v, fx.textWith(v.Node(), edits.Replace(x.Node(), wait))
}

func isDurationMethod(info *types.Info, sel *ast.Ident) bool {
	fn, ok := info.Uses[sel].(*types.Func)
	if !ok {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	n, ok := types.Unalias(sig.Recv().Type()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// recordInCall records the wait in the call that takes the duration v:
// printf-style (a verb and an argument), key-value or variadic (a "wait"
// pair), an attribute constructor (a sibling attribute), or an Observe of a
// *Vec with a stage label (a sibling observation).
func (fx *fixer) recordInCall(callCur, v inspector.Cursor, wait, waitExpr string) bool {
	info := fx.pass.TypesInfo
	call := callCur.Node().(*ast.CallExpr)
	sig := signatureOf(info, call)
	if sig == nil {
		return false
	}
	i := argIndex(call, v.Node())
	if isVariadicAny(sig) && !call.Ellipsis.IsValid() && i >= sig.Params().Len()-1 {
		if fmtIdx, ok := fx.formatIndex(call, sig); ok {
			return fx.addVerb(call, fmtIdx, wait)
		}
		fx.edits = append(fx.edits, appendArgs(call, `"wait", `+waitExpr))
		return true
	}
	if len(call.Args) == 2 && i == 1 && isStringConst(info, call.Args[0]) {
		outer, ok := callCur.Parent().Node().(*ast.CallExpr)
		if !ok || argIndex(outer, call) < 0 || outer.Ellipsis.IsValid() {
			return false
		}
		osig := signatureOf(info, outer)
		if osig == nil || !osig.Variadic() || argIndex(outer, call) < osig.Params().Len()-1 {
			return false
		}
		fx.edits = append(fx.edits, appendArgs(outer, edits.Source(fx.pass, call.Fun)+`("wait", `+waitExpr+`)`))
		return true
	}
	if fn, ok := typeutil.Callee(info, call).(*types.Func); ok && fn.Name() == "Observe" && len(call.Args) == 1 {
		return fx.observeSibling(callCur, v, waitExpr)
	}
	return false
}

// formatIndex returns the index of a printf-style call's format argument, a
// string literal whose verbs match the arguments (so that one more verb and
// one more argument keep them matched).
func (fx *fixer) formatIndex(call *ast.CallExpr, sig *types.Signature) (int, bool) {
	fn, ok := typeutil.Callee(fx.pass.TypesInfo, call).(*types.Func)
	n := sig.Params().Len()
	if !ok || !strings.HasSuffix(fn.Name(), "f") || n < 2 {
		return 0, false
	}
	if b, ok := sig.Params().At(n - 2).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
		return 0, false
	}
	lit, ok := ast.Unparen(call.Args[n-2]).(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return 0, false
	}
	tv := fx.pass.TypesInfo.Types[lit]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return 0, false
	}
	if verbs(constant.StringVal(tv.Value)) != len(call.Args)-(n-1) {
		return 0, false
	}
	return n - 2, true
}

// verbs counts the verbs of a printf format, or returns -1 for explicit
// argument indexes, which an appended verb could not follow.
func verbs(format string) int {
	n := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0123456789.*", format[i]) >= 0 {
			i++
		}
		if i < len(format) && format[i] == '[' {
			return -1
		}
		if i < len(format) && format[i] != '%' {
			n++
		}
	}
	return n
}

// addVerb adds " (wait %v)" to the format (before a final newline) and the
// wait as the last argument.
func (fx *fixer) addVerb(call *ast.CallExpr, fmtIdx int, wait string) bool {
	lit := ast.Unparen(call.Args[fmtIdx]).(*ast.BasicLit)
	at := lit.End() - 1 // before the closing quote
	switch {
	case strings.HasPrefix(lit.Value, `"`) && strings.HasSuffix(lit.Value, `\n"`):
		at = lit.End() - 3
	case strings.HasPrefix(lit.Value, "`") && strings.HasSuffix(lit.Value, "\n`"):
		at = lit.End() - 2
	}
	fx.edits = append(fx.edits,
		analysis.TextEdit{Pos: at, End: at, NewText: []byte(" (wait %v)")},
		appendArgs(call, wait))
	return true
}

// appendArgs adds text as further arguments after the last one.
func appendArgs(call *ast.CallExpr, text string) analysis.TextEdit {
	last := call.Args[len(call.Args)-1].End()
	return analysis.TextEdit{Pos: last, End: last, NewText: []byte(", " + text)}
}

// observeSibling records the wait with the same *Vec observer under a stage
// label of "wait": vec.WithLabelValues("run").Observe(d) gains
// vec.WithLabelValues("wait").Observe(w) on the next line.
func (fx *fixer) observeSibling(callCur, v inspector.Cursor, waitExpr string) bool {
	call := callCur.Node().(*ast.CallExpr)
	label, ok := fx.stageLabelValue(call.Fun.(*ast.SelectorExpr).X)
	if !ok {
		return false
	}
	stmt := callCur.Parent()
	if !fx.ownLine(stmt.Node()) {
		return false
	}
	switch s := stmt.Node().(type) {
	case *ast.ExprStmt:
		if s.X != ast.Expr(call) {
			return false
		}
	case *ast.DeferStmt:
		if s.Call != call {
			return false
		}
	default:
		return false
	}
	text := fx.textWith(stmt.Node(), edits.Replace(label, `"wait"`), edits.Replace(v.Node(), waitExpr))
	fx.edits = append(fx.edits, fx.insertLineAfter(stmt.Node(), text))
	return true
}

// ownLine reports whether node has its lines to itself, but for a comment
// after it.
func (fx *fixer) ownLine(node ast.Node) bool {
	content := fileContent(fx.pass, node.Pos())
	if content == nil {
		return false
	}
	tf := fx.pass.Fset.File(node.Pos())
	if !onlyBlanksBefore(content, tf, node.Pos()) {
		return false
	}
	rest := string(content[tf.Offset(node.End()):])
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	rest = strings.TrimSpace(rest)
	return rest == "" || strings.HasPrefix(rest, "//")
}

// insertLineAfter inserts the statement text on a line of its own after
// stmt, and after the comment that ends stmt's line, indented like stmt.
func (fx *fixer) insertLineAfter(stmt ast.Node, text string) analysis.TextEdit {
	at := stmt.End()
	if content := fileContent(fx.pass, at); content != nil {
		tf := fx.pass.Fset.File(at)
		off := tf.Offset(at)
		rest := content[off:]
		if i := strings.IndexByte(string(rest), '\n'); i >= 0 && strings.HasPrefix(strings.TrimSpace(string(rest[:i])), "//") {
			at = tf.Pos(off + i)
		}
	}
	return analysis.TextEdit{Pos: at, End: at, NewText: []byte("\n" + edits.Indent(fx.pass, stmt.Pos()) + text)}
}

// observeWait returns the statement that records wait with the observer o
// of a Prometheus timer under a stage label of "wait".
func (fx *fixer) observeWait(o ast.Expr, wait string) (string, bool) {
	label, ok := fx.stageLabelValue(o)
	if !ok || !fx.visibleAt(o, fx.ip.pos()) {
		return "", false
	}
	return fx.textWith(o, edits.Replace(label, `"wait"`)) + ".Observe(" + wait + ".Seconds())", true
}

// stageLabelValue returns, for an observer vec.WithLabelValues(…) or
// vec.With(prometheus.Labels{…}) of a *Vec whose labels include a stage (or
// phase, or step), the string literal that gives the stage.
func (fx *fixer) stageLabelValue(obs ast.Expr) (*ast.BasicLit, bool) {
	info := fx.pass.TypesInfo
	call, ok := ast.Unparen(obs).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	idx, name := fx.c.stageLabel(waits.Var(info, sel.X))
	if idx < 0 {
		return nil, false
	}
	var value ast.Expr
	switch sel.Sel.Name {
	case "WithLabelValues":
		if idx < len(call.Args) && !call.Ellipsis.IsValid() {
			value = call.Args[idx]
		}
	case "With":
		if len(call.Args) == 1 {
			if cl, ok := ast.Unparen(call.Args[0]).(*ast.CompositeLit); ok {
				for _, elt := range cl.Elts {
					if kv, ok := elt.(*ast.KeyValueExpr); ok && stringConst(info, kv.Key) == name {
						value = kv.Value
					}
				}
			}
		}
	}
	lit, ok := value.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING || stringConst(info, lit) == "wait" {
		return nil, false
	}
	return lit, true
}

// stageLabel returns the index and name of the stage label of the *Vec held
// in vec, from its constructor in this package, or -1.
func (c *checker) stageLabel(vec *types.Var) (int, string) {
	if vec == nil {
		return -1, ""
	}
	if c.stages == nil {
		c.stages = make(map[*types.Var][]string)
		insp := c.waits.Inspector()
		for cur := range insp.Root().Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
			if !ok || fn.Pkg() == nil || !strings.HasPrefix(fn.Pkg().Path(), waits.PrometheusPath) ||
				!strings.HasPrefix(fn.Name(), "New") || !strings.HasSuffix(fn.Name(), "Vec") || len(call.Args) < 2 {
				continue
			}
			cl, ok := ast.Unparen(call.Args[1]).(*ast.CompositeLit)
			if !ok {
				continue
			}
			if v := waits.AssignedTo(c.pass.TypesInfo, cur); v != nil {
				var labels []string
				for _, e := range cl.Elts {
					labels = append(labels, stringConst(c.pass.TypesInfo, e))
				}
				c.stages[v] = labels
			}
		}
	}
	for i, l := range c.stages[vec] {
		switch strings.ToLower(l) {
		case "stage", "phase", "step":
			return i, l
		}
	}
	return -1, ""
}

// sibling returns a call like the recorder call that measures from
// startText under a wait key: metrics.MeasureSince([]string{"api", "fetch",
// "wait"}, start) beside metrics.MeasureSince([]string{"api", "fetch"}, …).
// It runs at the insertion point, so what it refers to must be visible there.
func (fx *fixer) sibling(call *ast.CallExpr, startIdx int, startText string) (string, bool) {
	info := fx.pass.TypesInfo
	if startIdx < 0 {
		return "", false
	}
	key := -1
	for j, a := range call.Args {
		if j != startIdx && (isString(info.TypeOf(a)) || isStringSlice(info.TypeOf(a))) {
			key = j
			break
		}
	}
	if key < 0 {
		return "", false
	}
	for j, a := range call.Args {
		if j != startIdx && !fx.visibleAt(a, fx.ip.pos()) {
			return "", false
		}
	}
	if !fx.visibleAt(call.Fun, fx.ip.pos()) {
		return "", false
	}
	var keyEdit analysis.TextEdit
	a := call.Args[key]
	switch k := ast.Unparen(a).(type) {
	case *ast.CompositeLit:
		if len(k.Elts) == 0 {
			return "", false
		}
		end := k.Elts[len(k.Elts)-1].End()
		keyEdit = analysis.TextEdit{Pos: end, End: end, NewText: []byte(`, "wait"`)}
	case *ast.BasicLit:
		if k.Kind != token.STRING || !strings.HasPrefix(k.Value, `"`) {
			return "", false
		}
		keyEdit = analysis.TextEdit{Pos: k.End() - 1, End: k.End() - 1, NewText: []byte(".wait")}
	case *ast.Ident:
		if isString(info.TypeOf(a)) {
			keyEdit = edits.Replace(a, k.Name+` + ".wait"`)
		} else {
			keyEdit = edits.Replace(a, "append("+k.Name+"[:len("+k.Name+"):len("+k.Name+")], \"wait\")")
		}
	default:
		if !isString(info.TypeOf(a)) {
			return "", false
		}
		keyEdit = edits.Replace(a, "("+edits.Source(fx.pass, a)+`) + ".wait"`)
	}
	return fx.textWith(call, keyEdit, edits.Replace(call.Args[startIdx], startText)), true
}

// fallback records the wait where the code has no recorder that can carry a
// second figure: a slog.Debug record at the insertion point, silent by
// default, and a place to put the service's own wait metric.
func (fx *fixer) fallback(wait string) bool {
	if v := fx.pass.TypesInfo.FileVersions[fx.file]; v != "" && version.Compare(v, "go1.21") < 0 {
		return false // no log/slog
	}
	name, imp := edits.AddImport(fx.pass, fx.file, "log/slog")
	if len(imp) > 0 && fx.pass.Pkg.Scope().Lookup(name) != nil {
		return false
	}
	fx.imports = append(fx.imports, imp...)
	fx.lines = append(fx.lines, name+`.Debug("waited for admission", "wait", `+wait+`)`)
	return true
}

// textWith returns the source of node with the edits (all inside it) applied.
func (fx *fixer) textWith(node ast.Node, es ...analysis.TextEdit) string {
	src := edits.Source(fx.pass, node)
	return applyAt(src, node.Pos(), es)
}

func applyAt(src string, base token.Pos, es []analysis.TextEdit) string {
	es = slices.Clone(es)
	slices.SortStableFunc(es, func(a, b analysis.TextEdit) int { return int(a.Pos - b.Pos) })
	var b strings.Builder
	last := 0
	for _, e := range es {
		start, end := int(e.Pos-base), int(e.End-base)
		if e.End < e.Pos {
			end = start
		}
		if start < last || end > len(src) {
			continue
		}
		b.WriteString(src[last:start])
		b.Write(e.NewText)
		last = end
	}
	b.WriteString(src[last:])
	return b.String()
}

// finish returns the edits of the fix.
func (fx *fixer) finish() []analysis.TextEdit {
	var lines []string
	var out []analysis.TextEdit
	if fx.declAt != nil {
		out = append(out, edits.InsertBefore(fx.pass, fx.declAt, strings.Join(fx.predecl, "\n")))
		lines = append(lines, fx.started+" = "+fx.now)
	} else {
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
	if fx.ip.before {
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
	sp := lineSpan(fx.pass, fx.file, mv.stmt.Node())
	return sp.textStart, sp.textEnd
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
	span := lineSpan(fx.pass, fx.file, stmt)
	content := fileContent(fx.pass, stmt.Pos())
	tf := fx.pass.Fset.File(stmt.Pos())
	src := string(content[tf.Offset(span.textStart):tf.Offset(span.textEnd)])
	text := applyAt(src, span.textStart, inner)
	return dedent(text, indent), analysis.TextEdit{Pos: span.start, End: span.end}
}

func dedent(text, indent string) string {
	lines := strings.Split(text, "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.TrimPrefix(lines[i], indent)
	}
	return strings.Join(lines, "\n")
}

// A span is the lines a statement takes: [start, end) to delete, and
// [textStart, textEnd) the text that moves (doc comment to trailing comment).
type span struct {
	start, end, textStart, textEnd token.Pos
}

// lineSpan returns the lines of stmt with its doc comment and trailing
// comment, and one of the blank lines around it when it stands between two.
func lineSpan(pass *analysis.Pass, file *ast.File, stmt ast.Node) span {
	tf := pass.Fset.File(stmt.Pos())
	content := fileContent(pass, stmt.Pos())
	s := span{start: stmt.Pos(), end: stmt.End(), textStart: stmt.Pos(), textEnd: stmt.End()}
	if content == nil {
		return s
	}
	line := tf.Line(stmt.Pos())
	for _, cg := range file.Comments {
		if tf.Line(cg.End()) == line-1 && cg.Pos() >= file.Pos() && onlyBlanksBefore(content, tf, cg.Pos()) {
			s.textStart = cg.Pos()
			line = tf.Line(cg.Pos())
		}
	}
	if onlyBlanksBefore(content, tf, s.textStart) {
		s.start = tf.LineStart(tf.Line(s.textStart))
	}
	off := tf.Offset(stmt.End())
	for off < len(content) && (content[off] == ' ' || content[off] == '\t') {
		off++
	}
	if strings.HasPrefix(string(content[off:]), "//") {
		for off < len(content) && content[off] != '\n' {
			off++
		}
		s.textEnd = tf.Pos(off)
	}
	if off < len(content) && content[off] == '\n' {
		off++
		if opensGap(content, tf, s.start) && isBlankLine(content, off) {
			off++
		}
		s.end = tf.Pos(off)
	} else {
		s.end = s.textEnd
	}
	return s
}

// opensGap reports whether the line before the one starting at lineStart is
// blank or opens a block: a blank line after the deleted lines would then be
// a double blank line, or a blank line opening the block.
func opensGap(content []byte, tf *token.File, lineStart token.Pos) bool {
	line := tf.Line(lineStart)
	if line <= 1 {
		return false
	}
	prev := strings.TrimSpace(string(content[tf.Offset(tf.LineStart(line-1)):tf.Offset(lineStart)]))
	return prev == "" || strings.HasSuffix(prev, "{")
}

func onlyBlanksBefore(content []byte, tf *token.File, pos token.Pos) bool {
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	return strings.TrimSpace(string(content[start:tf.Offset(pos)])) == ""
}

func isBlankLine(content []byte, off int) bool {
	return off < len(content) && content[off] == '\n'
}

func fileContent(pass *analysis.Pass, pos token.Pos) []byte {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return nil
	}
	content, err := pass.ReadFile(tf.Name())
	if err != nil {
		return nil
	}
	return content
}

func signatureOf(info *types.Info, call *ast.CallExpr) *types.Signature {
	t := info.TypeOf(call.Fun)
	if t == nil {
		return nil
	}
	sig, _ := t.Underlying().(*types.Signature)
	return sig
}

// isVariadicAny reports whether sig ends in ...any (...interface{}).
func isVariadicAny(sig *types.Signature) bool {
	if !sig.Variadic() {
		return false
	}
	s, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice)
	if !ok {
		return false
	}
	it, ok := s.Elem().Underlying().(*types.Interface)
	return ok && it.Empty()
}

func isString(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isStringSlice(t types.Type) bool {
	if t == nil {
		return false
	}
	s, ok := t.Underlying().(*types.Slice)
	return ok && isString(s.Elem())
}

func isStringConst(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.String
}

func stringConst(info *types.Info, e ast.Expr) string {
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value)
	}
	return ""
}

// usesVar reports whether node refers to v.
func usesVar(info *types.Info, node ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(node, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}
