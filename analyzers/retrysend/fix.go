package retrysend

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// A span is a range of source text.
type span struct{ pos, end token.Pos }

func spanOf(n ast.Node) span { return span{n.Pos(), n.End()} }

func (s span) contains(pos token.Pos) bool { return s.pos <= pos && pos < s.end }

// A fixPlan is the fix of one finding while the findings of its file are
// still being planned together.
type fixPlan struct {
	file    inspector.Cursor
	message string
	edits   []analysis.TextEdit
	// removed lists the source the edits delete without writing it back:
	// what it alone used may become unused.
	removed []span
	// uses lists the objects the new text refers to beyond the source it
	// keeps, so they stay used.
	uses     []types.Object
	sentinel *sentinel
	// helper is the try-send helper of this package whose call the fix
	// replaces: unexported and called nowhere else, it goes too.
	helper *helper
	// cleanup holds the edits that remove what the fixes leave unused.
	cleanup []analysis.TextEdit
}

func (p *fixPlan) suggested() analysis.SuggestedFix {
	return edits.Fix(p.message, append(append([]analysis.TextEdit(nil), p.edits...), p.cleanup...)...)
}

// blockingSendFix plans the retryloop fix for the send of s, or returns nil
// when none is safe. It reports whether the new send waits for
// cancellation.
func (c *fixer) blockingSendFix(s send, l loop, a attempt) (*fixPlan, bool) {
	body, kept, ok := c.sendBody(s, l, a)
	if !ok {
		return nil, false
	}
	loopCtx := ""
	if l.bound == cancelled {
		loopCtx = edits.Source(c.pass, l.ctx)
	}
	return c.blockingPlan(s.file, l, edits.Source(c.pass, s.nb.Send), body, append(kept, spanOf(s.nb.Send)), loopCtx, a.stops)
}

// blockingPlan plans the replacement of l by one blocking send, sendText,
// followed by body. The send also waits for the loop's stop checks, with
// their bodies, when it has some; otherwise on ctx.Done() when a context is
// in scope and the function can return its error, or when the loop ran until
// loopCtx was cancelled (then what followed the loop runs, as before). It
// reports whether the send waits for cancellation; the plan is nil when the
// new statements do not parse.
func (c *fixer) blockingPlan(file inspector.Cursor, l loop, sendText string, body []string, kept []span, loopCtx string, stops []*ast.CommClause) (*fixPlan, bool) {
	var lines []string
	var uses []types.Object
	if len(stops) > 0 {
		// The loop's own stop checks become cases of the select: the
		// send waits for them, and for nothing the loop did not.
		stopText, stopKept, ok := c.stopLines(l, stops)
		if !ok {
			return nil, false
		}
		lines = append([]string{"select {", "case " + sendText + ":"}, indentEach(body)...)
		lines = append(append(lines, stopText...), "}")
		kept = append(kept, stopKept...)
	} else if loopCtx != "" {
		lines = c.selectDone(sendText, body, loopCtx, "")
	} else if ctx, zeros, ok := c.cancellation(l.cur); ok {
		lines = c.selectDone(sendText, body, ctx.Name(), "return "+zeros+ctx.Name()+".Err()")
		uses = append(uses, ctx)
	} else {
		lines = append([]string{sendText}, body...)
	}
	honours := loopCtx != "" || len(uses) > 0 || len(stops) > 0
	if g := goroutineOfLoop(l); g != nil && len(lines) == 1 && !honours {
		// go func() { for { select { case ch <- v: return; default: } } }()
		// parks a goroutine per item, as a goroutine that only sends does:
		// a blocking send in its place fixes both, where replacing only the
		// loop would leave unboundedqueue's goroutinepersend behind.
		return &fixPlan{
			file:    file,
			message: "Replace the goroutine and its retry loop with a blocking send",
			edits:   []analysis.TextEdit{edits.Replace(g, sendText)},
			removed: subtract(spanOf(g), kept),
		}, false
	}
	plan := c.replaceLoop(file, l, lines, kept)
	if plan == nil {
		return nil, false
	}
	plan.message = "Replace the retry loop with a blocking send"
	plan.uses = uses
	return plan, honours
}

// stopLines returns the cases of a select that keep the loop's stop checks:
// each receive with its body, without a final break of the loop (falling out
// of the select now leaves the same way), and the source they keep.
func (c *fixer) stopLines(l loop, stops []*ast.CommClause) ([]string, []span, bool) {
	var lines []string
	var kept []span
	for _, cc := range stops {
		if c.usesLoopVar(l, cc.Comm) {
			return nil, nil, false
		}
		lines = append(lines, "case "+edits.Source(c.pass, cc.Comm)+":")
		kept = append(kept, spanOf(cc.Comm))
		for i, st := range cc.Body {
			if i == len(cc.Body)-1 && c.breaksLoop(st, l, false) {
				continue
			}
			moved, ok := c.moveStmt(st)
			if !ok || c.usesLoopVar(l, st) {
				return nil, nil, false
			}
			lines = append(lines, indentEach(moved)...)
			kept = append(kept, spanOf(st))
		}
	}
	return lines, kept, true
}

// goroutineOfLoop returns the go statement when l is all that a function
// literal started by it runs: go func() { <l> }().
func goroutineOfLoop(l loop) *ast.GoStmt {
	cur := l.cur
	if l.outer != l.stmt {
		cur = cur.Parent() // the labeled statement
	}
	block, ok := cur.Parent().Node().(*ast.BlockStmt)
	if !ok || len(block.List) != 1 {
		return nil
	}
	lit, ok := cur.Parent().Parent().Node().(*ast.FuncLit)
	if !ok || lit.Type.Params.NumFields() > 0 {
		return nil
	}
	call, ok := cur.Parent().Parent().Parent().Node().(*ast.CallExpr)
	if !ok || call.Fun != lit {
		return nil
	}
	g, _ := cur.Parent().Parent().Parent().Parent().Node().(*ast.GoStmt)
	return g
}

// selectDone returns the lines of a select that sends or stops on ctx.Done().
func (c *fixer) selectDone(sendText string, body []string, ctx, onDone string) []string {
	lines := []string{"select {", "case " + sendText + ":"}
	lines = append(lines, indentEach(body)...)
	lines = append(lines, "case <-"+ctx+".Done():")
	if onDone != "" {
		lines = append(lines, "\t"+onDone)
	}
	return append(lines, "}")
}

// sendBody returns the statements a successful send runs, as they read once
// the loop is gone: the send case's, then those after the select when the
// case falls through to them; without a final break of the loop, and without
// the assignment of a flag that nothing else reads. kept lists the source
// they take along.
func (c *fixer) sendBody(s send, l loop, a attempt) ([]string, []span, bool) {
	var lines []string
	var kept []span
	take := func(st ast.Stmt) bool {
		if c.usesLoopVar(l, st) {
			return false // the loop that declares it is gone
		}
		moved, ok := c.moveStmt(st)
		lines = append(lines, moved...)
		kept = append(kept, spanOf(st))
		return ok
	}
	flagSet := ast.Stmt(nil)
	if l.bound == flagged && !c.readOutside(l, l.flag) {
		flagSet = flagAssignment(c.info, s.nb.Case.Body, l.flag)
	}
	for _, st := range s.nb.Case.Body {
		if st == flagSet || (st == a.send.Last && c.breaksLoop(st, l, false)) {
			continue
		}
		if !take(st) {
			return nil, nil, false
		}
	}
	if a.send.End == sendselect.Falls && a.after.End.Leaves() && l.bound != flagged {
		for _, st := range l.body.List[stmtIndex(l.body.List, s.nb.Select)+1:] {
			if st == a.after.Last && c.breaksLoop(st, l, true) {
				continue
			}
			if !take(st) {
				return nil, nil, false
			}
		}
	}
	if n := len(lines); n > 0 && lines[n-1] == "return" && endsFunc(l) {
		lines, kept = lines[:n-1], kept[:len(kept)-1] // the function ends there anyway
	}
	return lines, kept, true
}

// usesLoopVar reports whether st refers to a variable that l declares
// outside st: its counter, or one of an attempt.
func (c *fixer) usesLoopVar(l loop, st ast.Stmt) bool {
	return code.AnyNode(st, nil, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := c.info.Uses[id].(*types.Var); ok && !v.IsField() && code.Inside(v.Pos(), l.stmt) && !code.Inside(v.Pos(), st) {
				return true
			}
		}
		return false
	})
}

// endsFunc reports whether l is the last statement of a function's body.
func endsFunc(l loop) bool {
	cur := l.cur
	if l.outer != l.stmt {
		cur = cur.Parent()
	}
	if _, ok := cur.NextSibling(); ok {
		return false
	}
	switch cur.Parent().Parent().Node().(type) {
	case *ast.FuncDecl, *ast.FuncLit:
		return true
	}
	return false
}

// breaksLoop reports whether st is a break of l itself: labeled with l's
// label or, directly in l's body, unlabeled.
func (c *fixer) breaksLoop(st ast.Stmt, l loop, inBody bool) bool {
	br, ok := st.(*ast.BranchStmt)
	if !ok || br.Tok != token.BREAK {
		return false
	}
	if br.Label == nil {
		return inBody
	}
	return l.label != nil && c.info.Uses[br.Label] == l.label
}

// readOutside reports whether the function around l reads v outside l.
func (c *fixer) readOutside(l loop, v *types.Var) bool {
	fn := code.EnclosingFunc(l.cur)
	if !fn.Valid() {
		return true
	}
	loopSpan := spanOf(l.stmt)
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if c.info.Uses[id] == v && !loopSpan.contains(id.Pos()) && !isPlainWrite(cur) {
			return true
		}
	}
	return false
}

// cancellation returns the context in scope at cur and the zero values that
// precede an error in a return of the function around cur, when there are
// both.
func (c *fixer) cancellation(cur inspector.Cursor) (*types.Var, string, bool) {
	zeros, ok := c.errorReturn(cur)
	if !ok {
		return nil, "", false
	}
	ctx := c.contextAt(cur.Node().Pos())
	return ctx, zeros, ctx != nil
}

// errorReturn returns the zero values that precede an error in a return of
// the function around cur, as "" or "0, nil, ", when its last result is an
// error and the file can spell the others' zero values.
func (c *fixer) errorReturn(cur inspector.Cursor) (string, bool) {
	fn := code.EnclosingFunc(cur)
	if !fn.Valid() {
		return "", false
	}
	sig := code.FuncSignature(c.info, fn.Node())
	if sig == nil || sig.Results().Len() == 0 {
		return "", false
	}
	res := sig.Results()
	if !types.Identical(res.At(res.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return "", false
	}
	file := edits.EnclosingFile(c.pass.Files, cur.Node().Pos())
	var zeros strings.Builder
	for i := range res.Len() - 1 {
		z, ok := edits.ZeroValue(c.pass.Pkg, file, res.At(i).Type())
		if !ok {
			return "", false
		}
		zeros.WriteString(z + ", ")
	}
	return zeros.String(), true
}

// contextAt returns a context.Context variable visible at pos, preferring
// the innermost and one named ctx, or nil.
func (c *fixer) contextAt(pos token.Pos) *types.Var {
	inner := c.pass.Pkg.Scope().Innermost(pos)
	for scope := inner; scope != nil && scope != c.pass.Pkg.Scope() && scope != types.Universe; scope = scope.Parent() {
		var found *types.Var
		for _, name := range scope.Names() {
			v, ok := scope.Lookup(name).(*types.Var)
			if !ok || name == "_" || v.Pos() >= pos || !sendselect.IsContext(v.Type()) {
				continue
			}
			if _, obj := inner.LookupParent(name, pos); obj != v {
				continue // shadowed where the send goes
			}
			if found == nil || name == "ctx" {
				found = v
			}
		}
		if found != nil {
			return found
		}
	}
	return nil
}

// timedSendFix plans the pollingsend fix: one select that sends or gives up
// when a timer for the loop's whole budget b fires, then runs what followed
// the loop. It returns nil when no safe fix exists.
func (c *fixer) timedSendFix(s send, l loop, a attempt, b budget, timePkg string, timeImport []analysis.TextEdit) *fixPlan {
	body, bodyKept, ok := c.sendBody(s, l, a)
	if !ok || code.JumpedOver(c.info, code.FuncBody(code.EnclosingFunc(l.cur).Node()), l.stmt.Pos()) {
		return nil // the timer would be declared where a goto jumps over it
	}
	kept := append(append(append([]span(nil), b.kept...), bodyKept...), spanOf(s.nb.Send))
	timer := c.freshNames.Local(l.stmt.Pos(), "timer")
	lines := []string{
		timer + " := " + timePkg + ".NewTimer(" + b.expr + ")",
		"select {",
		"case " + edits.Source(c.pass, s.nb.Send) + ":",
		"\t" + timer + ".Stop()",
	}
	lines = append(lines, indentEach(body)...)
	lines = append(lines, "case <-"+timer+".C:")
	if len(a.stops) > 0 {
		stopText, stopKept, ok := c.stopLines(l, a.stops)
		if !ok {
			return nil
		}
		lines = append(lines, stopText...)
		kept = append(kept, stopKept...)
	}
	lines = append(lines, "}")
	plan := c.replaceLoop(s.file, l, lines, kept)
	if plan == nil {
		return nil
	}
	plan.message = "Replace the polling loop with one send that waits on a timer"
	plan.edits = append(plan.edits, timeImport...)
	plan.uses = append(slices.Clone(b.uses), pkgNameOf(c.info, s.file.Node().(*ast.File), "time"))
	return plan
}

// durationText spells ns nanoseconds with the largest time unit that divides
// it: 30 * time.Millisecond, time.Second.
func durationText(ns int64, timePkg string) string {
	units := []struct {
		name string
		ns   int64
	}{
		{"Hour", 3600e9}, {"Minute", 60e9}, {"Second", 1e9},
		{"Millisecond", 1e6}, {"Microsecond", 1e3}, {"Nanosecond", 1},
	}
	if ns == 0 {
		return "0"
	}
	for _, u := range units {
		if ns%u.ns == 0 {
			if ns == u.ns {
				return timePkg + "." + u.name
			}
			return fmt.Sprintf("%d * %s.%s", ns/u.ns, timePkg, u.name)
		}
	}
	return fmt.Sprint(ns)
}

// parenthesize returns the source of e, in parentheses when e is a binary
// expression that a product could split.
func parenthesize(pass *analysis.Pass, e ast.Expr) string {
	src := edits.Source(pass, e)
	if _, ok := e.(*ast.BinaryExpr); ok {
		return "(" + src + ")"
	}
	return src
}

// pkgNameOf returns the name object of file's import of path, or nil.
func pkgNameOf(info *types.Info, file *ast.File, path string) types.Object {
	for _, spec := range file.Imports {
		if strings.Trim(spec.Path.Value, "`\"") != path {
			continue
		}
		if spec.Name != nil {
			return info.Defs[spec.Name]
		}
		return info.Implicits[spec]
	}
	return nil
}

// replaceLoop plans the replacement of l (and its label) by lines, which
// start at the loop's indentation and take the kept spans of the loop along.
// It returns nil when the lines do not parse as statements.
func (c *fixer) replaceLoop(file inspector.Cursor, l loop, lines []string, kept []span) *fixPlan {
	tf := c.pass.Fset.File(l.stmt.Pos())
	indent := edits.Indent(c.pass, l.stmt.Pos())
	start, prefix := l.outer.Pos(), ""
	if c.gotoTargets(l) {
		// A goto elsewhere jumps to the loop's label: the label stays, on
		// the statement that replaces the loop.
		start = l.stmt.Pos()
	} else if l.outer != l.stmt && tf.Line(l.outer.Pos()) != tf.Line(l.stmt.Pos()) {
		// The label has a line of its own, indented less than the loop.
		start, prefix = tf.LineStart(tf.Line(l.outer.Pos())), indent
	}
	text, ok := edits.FormatStmts(strings.Join(lines, "\n"), indent)
	if !ok {
		return nil
	}
	edit := analysis.TextEdit{Pos: start, End: l.stmt.End(), NewText: []byte(prefix + text)}
	return &fixPlan{
		file:    file,
		edits:   []analysis.TextEdit{edit},
		removed: subtract(span{start, l.stmt.End()}, kept),
	}
}

// moveStmt returns the lines of st's source, indented relative to st. The
// lines that continue a multi-line string literal stay as they are, joined
// to the line before them, so that no later indenting reaches them:
// FormatStmts, which lays out every fix's statements, keeps them too.
func (c *fixer) moveStmt(st ast.Stmt) ([]string, bool) {
	tf := c.pass.Fset.File(st.Pos())
	inString := make(map[int]bool) // lines of st, from 0
	first := tf.Line(st.Pos())
	ast.Inspect(st, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			for l := tf.Line(lit.Pos()) + 1; l <= tf.Line(lit.End()); l++ {
				inString[l-first] = true
			}
		}
		return true
	})
	old := edits.Indent(c.pass, st.Pos())
	var lines []string
	for i, l := range strings.Split(edits.Source(c.pass, st), "\n") {
		if inString[i] {
			lines[len(lines)-1] += "\n" + l
			continue
		}
		lines = append(lines, strings.TrimPrefix(l, old))
	}
	return lines, true
}

// indentEach indents every non-blank line one level deeper.
func indentEach(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if l != "" {
			l = "\t" + l
		}
		out[i] = l
	}
	return out
}

// subtract returns whole minus the kept spans inside it.
func subtract(whole span, kept []span) []span {
	out := []span{whole}
	for _, k := range kept {
		var next []span
		for _, s := range out {
			if k.end <= s.pos || k.pos >= s.end {
				next = append(next, s)
				continue
			}
			if s.pos < k.pos {
				next = append(next, span{s.pos, k.pos})
			}
			if k.end < s.end {
				next = append(next, span{k.end, s.end})
			}
		}
		out = next
	}
	return out
}

// gotoTargets reports whether a goto statement jumps to l's label.
func (c *fixer) gotoTargets(l loop) bool {
	if l.label == nil {
		return false
	}
	for cur := range code.EnclosingFunc(l.cur).Preorder((*ast.BranchStmt)(nil)) {
		br := cur.Node().(*ast.BranchStmt)
		if br.Tok == token.GOTO && br.Label != nil && c.info.Uses[br.Label] == l.label {
			return true
		}
	}
	return false
}
