package resolverpool

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/pools"
)

const fixMessage = "Give the slow work a pool of its own, with the same limit"

const errgroupPath = code.ErrgroupPath

// A fixer builds the one fix of each finding: a sibling pool declared and
// created beside the shared one, with the slow task routed to it.
type fixer struct {
	pass     *analysis.Pass
	insp     *inspector.Inspector
	siblings map[*pools.Pool]*sibling
	names    *edits.Names
	skip     func(token.Pos) bool // a file no fix may edit: generated, or a test
}

// A sibling is the second pool of a shared one: its name and the edits that
// declare it, create it with the same limit, and wait for or close it where
// the shared pool is. Every finding on the pool carries the same edits, which
// drivers apply once.
type sibling struct {
	name  string
	edits []analysis.TextEdit
	ok    bool
	why   string // when not ok: what to do by hand
}

func newFixer(pass *analysis.Pass, insp *inspector.Inspector, skip func(token.Pos) bool) *fixer {
	return &fixer{pass: pass, insp: insp, siblings: make(map[*pools.Pool]*sibling), names: edits.NewNames(pass), skip: skip}
}

// What to do by hand when no fix can be built, by reason; %[1]s is the
// pool's name.
const (
	byHandExported  = "declare a second pool beside %[1]s with the same limit, set it wherever %[1]s is set (other packages may set it too), and move the slow work to it"
	byHandParam     = "have the caller pass a second pool, with the same limit as %[1]s, for the slow work"
	byHandElsewhere = "have the code that creates %[1]s create a second pool with the same limit for the slow work, and move the slow work to it"
	byHandRelease   = "move this task, and its release done outside the task's own code, to a second pool with the same limit"
	byHandWorkers   = "start a second set of workers on a channel of their own and send the slow work there"
	byHandBranch    = "send jobs of this kind to a second channel with workers of their own"
	byHandImpl      = "run the slow implementations on workers or a pool of their own"
	byHandOther     = "declare a second pool with the same limit as %[1]s and move the slow work to it"
	byHandGenerated = "declare and create a second pool with the same limit as %[1]s where the generated code that holds it comes from (the fix does not edit generated files), and move the slow work to it"
)

// fixFor returns the fix of variant v of pool p, or, when there is none,
// what to do by hand.
func (x *fixer) fixFor(p *pools.Pool, v *variant) (analysis.SuggestedFix, string) {
	var tasks []*pools.Task
	switch {
	case v.impl:
		return analysis.SuggestedFix{}, byHandImpl
	case v.branch != nil:
		// Every send must tell its branch, or routing some of them would
		// leave jobs of this kind behind.
		for _, t := range p.Tasks {
			if t.Branch == nil {
				return analysis.SuggestedFix{}, byHandBranch
			}
			if t.Branch == v.branch {
				tasks = append(tasks, t)
			}
		}
		if len(tasks) == 0 {
			return analysis.SuggestedFix{}, byHandBranch
		}
	case v.task != nil:
		tasks = []*pools.Task{v.task}
	default:
		return analysis.SuggestedFix{}, naming(byHandOther, p)
	}
	fix, why := x.fix(p, tasks)
	if why != "" {
		return fix, naming(why, p)
	}
	return fix, ""
}

// naming fills the pool's name into a byHand text.
func naming(byHand string, p *pools.Pool) string {
	return strings.ReplaceAll(byHand, "%[1]s", p.Obj.Name())
}

// fix returns the fix that routes tasks of pool p to a sibling pool, or why
// none would compile (a byHand text).
func (x *fixer) fix(p *pools.Pool, tasks []*pools.Task) (analysis.SuggestedFix, string) {
	for _, t := range tasks {
		if !t.Routable {
			return analysis.SuggestedFix{}, byHandRelease
		}
	}
	sib := x.sibling(p)
	if !sib.ok {
		return analysis.SuggestedFix{}, sib.why
	}
	raw := append([]analysis.TextEdit(nil), sib.edits...)
	for _, t := range tasks {
		for _, ref := range t.Refs {
			raw = append(raw, edits.Replace(ref, sib.name))
		}
	}
	es, ok := edits.Finish(x.pass, raw)
	if !ok {
		return analysis.SuggestedFix{}, byHandOther
	}
	return edits.Fix(fixMessage, es...), ""
}

func (x *fixer) sibling(p *pools.Pool) *sibling {
	if s, ok := x.siblings[p]; ok {
		return s
	}
	s := &sibling{name: x.siblingName(p.Obj)}
	x.siblings[p] = s
	b := &builder{fixer: x, obj: p.Obj, name: s.name, ok: true}
	if p.Obj.IsField() && p.Obj.Exported() {
		// Other packages may build the struct with the pool set and cannot
		// know to set the sibling, which would stay nil (or unlimited).
		b.fail(byHandExported)
	}
	switch p.Kind {
	case pools.Group:
		b.group(p)
	default:
		b.created(p)
	}
	if b.ok && slices.ContainsFunc(b.edits, func(e analysis.TextEdit) bool { return x.skip(e.Pos) }) {
		// The pool is declared or created in a generated file, which the
		// next generation would overwrite.
		b.fail(byHandGenerated)
	}
	s.edits, s.ok, s.why = b.edits, b.ok && len(b.edits) > 0, b.why
	if !s.ok && s.why == "" {
		s.why = byHandOther
	}
	return s
}

// A builder collects the edits of one sibling pool; any shape it cannot
// handle clears ok.
type builder struct {
	*fixer
	obj   *types.Var
	name  string
	edits []analysis.TextEdit
	ok    bool
	why   string            // the first failure's byHand text
	done  map[ast.Node]bool // statements already cloned
}

// fail records that no sibling can be built, and what to do by hand
// (byHandOther when no reason is given).
func (b *builder) fail(why ...string) {
	b.ok = false
	if b.why == "" {
		b.why = byHandOther
		if len(why) > 0 {
			b.why = why[0]
		}
	}
}

// failNoInit fails for a pool that the package never creates: a parameter,
// or a field or variable that other code sets.
func (b *builder) failNoInit() {
	if b.isParam() {
		b.fail(byHandParam)
	} else {
		b.fail(byHandElsewhere)
	}
}

// isParam reports whether the pool is a parameter (or result) of a function.
func (b *builder) isParam() bool {
	if b.obj.IsField() {
		return false
	}
	cur, ok := b.insp.Root().FindByPos(b.obj.Pos(), b.obj.Pos())
	if !ok {
		return false
	}
	for c := cur; c.Node() != nil; c = c.Parent() {
		switch c.Node().(type) {
		case *ast.FuncType:
			return true
		case ast.Stmt, *ast.File:
			return false
		}
	}
	return false
}

// created declares a semaphore, token channel or worker pool channel: a
// clone of each statement creating it, a field beside a field, the token
// fills, the worker starts and the closes.
func (b *builder) created(p *pools.Pool) {
	if len(p.Inits) == 0 {
		b.failNoInit()
		return
	}
	for _, c := range p.Inits {
		b.cloneInit(c)
	}
	if b.obj.IsField() {
		b.field()
	}
	for _, c := range p.Fills {
		b.cloneStmt(liftLoop(code.StmtOf(c), onlyStmt))
	}
	if p.Kind == pools.Workers {
		if !p.StartsKnown || len(p.Starts) == 0 {
			b.fail(byHandWorkers)
		}
		for _, c := range p.Starts {
			start := liftLoop(c, onlyStartAndCalls)
			if !b.balancedWaitGroups(start.Node()) {
				b.fail(byHandWorkers)
			}
			b.cloneStmt(start)
		}
	}
	for _, c := range p.Closes {
		b.cloneStmt(c.Parent())
	}
}

// group declares a second errgroup.Group, limits it like the first, and
// waits for it wherever the first is waited for.
func (b *builder) group(p *pools.Pool) {
	if len(p.Inits) == 0 {
		b.failNoInit()
		return
	}
	pointerField := false
	if b.obj.IsField() {
		_, pointerField = types.Unalias(b.obj.Type()).(*types.Pointer)
		b.field()
	} else {
		b.declareGroup()
	}
	for _, c := range p.Inits {
		stmt := c.Parent()
		if _, ok := stmt.Node().(*ast.ExprStmt); !ok || !inList(stmt) {
			b.fail()
			continue
		}
		text := b.cloneText(stmt.Node())
		if pointerField {
			// A nil *errgroup.Group cannot be limited: create it first.
			group, ok := b.groupType(stmt.Node().Pos())
			recv := ast.Unparen(c.Node().(*ast.CallExpr).Fun).(*ast.SelectorExpr).X
			if !ok {
				continue
			}
			text = b.cloneText(recv) + " = new(" + group + ")\n" + text
		}
		b.insertAfter(stmt.Node(), text)
	}
	for _, c := range p.Waits {
		b.wait(c)
	}
}

// wait makes the caller of Wait wait for the sibling too: a second Wait
// statement after a statement, errors.Join of both where the error is used.
func (b *builder) wait(c inspector.Cursor) {
	call := c.Node().(*ast.CallExpr)
	switch parent := c.Parent().Node().(type) {
	case *ast.ExprStmt, *ast.DeferStmt:
		if inList(c.Parent()) {
			b.insertAfter(parent, b.cloneText(parent))
			return
		}
	case *ast.GoStmt:
		b.fail()
		return
	}
	file := edits.EnclosingFile(b.pass.Files, call.Pos())
	name, imp, ok := edits.AddImport(b.pass, file, "errors", call.Pos())
	if !ok {
		b.fail() // errors means something else here
		return
	}
	b.edits = append(b.edits, imp...)
	b.edits = append(b.edits, edits.Replace(call, name+".Join("+edits.Source(b.pass, call)+", "+b.cloneText(call)+")"))
}

// declareGroup declares the sibling errgroup.Group beside the declaration of
// a local or package variable.
func (b *builder) declareGroup() {
	decl, ok := b.declaration()
	if !ok {
		return
	}
	group, ok := b.groupType(decl.Node().Pos())
	if !ok {
		return
	}
	switch n := decl.Node().(type) {
	case *ast.ValueSpec:
		// A spec in a parenthesised block: add a spec.
		b.insertAfter(n, b.name+" "+group)
	default:
		b.insertAfter(n, "var "+b.name+" "+group)
	}
}

// declaration returns the statement or declaration that declares the local
// or package variable b.obj: a statement in a list, a top-level var
// declaration, or a spec of a parenthesised one.
func (b *builder) declaration() (inspector.Cursor, bool) {
	cur, ok := b.insp.Root().FindByPos(b.obj.Pos(), b.obj.Pos())
	if !ok {
		b.fail()
		return cur, false
	}
	for c := cur; c.Node() != nil; c = c.Parent() {
		switch n := c.Node().(type) {
		case *ast.FuncType, *ast.FuncLit, *ast.FuncDecl, *ast.File:
			b.fail(byHandParam) // a parameter or result: the pool is not declared here
			return c, false
		case *ast.ValueSpec:
			gen := c.Parent().Node().(*ast.GenDecl)
			if gen.Lparen.IsValid() && len(n.Names) == 1 {
				return c, true
			}
		case *ast.GenDecl:
			if _, top := c.Parent().Node().(*ast.File); top {
				return c, true
			}
		case ast.Stmt:
			if inList(c) {
				return c, true
			}
		}
	}
	b.fail()
	return cur, false
}

// groupType returns how the file holding pos names errgroup.Group.
func (b *builder) groupType(pos token.Pos) (string, bool) {
	file := edits.EnclosingFile(b.pass.Files, pos)
	name, ok := edits.ImportName(file, errgroupPath)
	if !ok {
		b.fail()
		return "", false
	}
	return name + ".Group", true
}

// cloneInit creates the sibling where the pool is created: a clone of the
// statement or declaration, or a second element of a composite literal.
func (b *builder) cloneInit(c inspector.Cursor) {
	parent := c.Parent()
	switch n := parent.Node().(type) {
	case *ast.AssignStmt:
		if len(n.Lhs) != 1 || !inList(parent) || (n.Tok != token.DEFINE && !b.obj.IsField()) {
			b.fail()
			return
		}
		b.cloneStmt(parent)
	case *ast.ValueSpec:
		if len(n.Names) != 1 || len(n.Values) != 1 {
			b.fail()
			return
		}
		gen := parent.Parent()
		if gen.Node().(*ast.GenDecl).Lparen.IsValid() {
			b.cloneStmt(parent)
		} else {
			b.cloneStmt(gen)
		}
	case *ast.KeyValueExpr:
		lit, ok := parent.Parent().Node().(*ast.CompositeLit)
		if !ok {
			b.fail()
			return
		}
		text := b.cloneText(n)
		if b.line(n.End()) == b.line(lit.Rbrace) {
			b.edits = append(b.edits, analysis.TextEdit{Pos: n.End(), End: n.End(), NewText: []byte(", " + text)})
			return
		}
		end, rest := b.lineEnd(n.End())
		if !strings.HasPrefix(strings.TrimSpace(rest), ",") {
			b.fail()
			return
		}
		b.edits = append(b.edits, analysis.TextEdit{Pos: end, End: end, NewText: []byte("\n" + edits.Indent(b.pass, n.Pos()) + text + ",")})
	default:
		b.fail()
	}
}

// field declares the sibling field after the pool's field, with the same
// type.
func (b *builder) field() {
	cur, ok := b.insp.Root().FindByPos(b.obj.Pos(), b.obj.Pos())
	if !ok {
		b.fail()
		return
	}
	for c := cur; c.Node() != nil; c = c.Parent() {
		fld, ok := c.Node().(*ast.Field)
		if !ok {
			continue
		}
		list, ok := c.Parent().Node().(*ast.FieldList)
		if !ok || b.line(fld.End()) == b.line(list.Closing) {
			break // a struct on one line: no line to add
		}
		var at ast.Node = fld
		if fld.Comment != nil {
			at = fld.Comment
		}
		b.edits = append(b.edits, analysis.TextEdit{Pos: at.End(), End: at.End(),
			NewText: []byte("\n" + edits.Indent(b.pass, fld.Pos()) + b.name + " " + edits.Source(b.pass, fld.Type))})
		return
	}
	b.fail()
}

// cloneStmt inserts, after the statement or declaration at c, a copy of it
// that names the sibling instead of the pool.
func (b *builder) cloneStmt(c inspector.Cursor) {
	n := c.Node()
	if b.done == nil {
		b.done = make(map[ast.Node]bool)
	}
	if b.done[n] {
		return
	}
	b.done[n] = true
	switch n.(type) {
	case *ast.GenDecl, *ast.ValueSpec:
	default:
		if !inList(c) {
			b.fail()
			return
		}
	}
	b.insertAfter(n, b.cloneText(n))
}

// cloneText returns the source of n with every identifier that names the
// pool renamed to the sibling.
func (b *builder) cloneText(n ast.Node) string {
	src := edits.Source(b.pass, n)
	var at []int
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && b.namesPool(id) {
			at = append(at, int(id.Pos()-n.Pos()))
		}
		return true
	})
	sort.Sort(sort.Reverse(sort.IntSlice(at)))
	for _, off := range at {
		if off+len(b.obj.Name()) <= len(src) {
			src = src[:off] + b.name + src[off+len(b.obj.Name()):]
		}
	}
	return src
}

func (b *builder) namesPool(id *ast.Ident) bool {
	obj := b.pass.TypesInfo.Defs[id]
	if obj == nil {
		obj = b.pass.TypesInfo.Uses[id]
	}
	v, ok := obj.(*types.Var)
	return ok && v.Origin() == b.obj
}

// insertAfter inserts text on a line of its own after the line holding the
// end of n (after any comment there), indented like n. Lines of text after the
// first keep their own indentation: clones copy it from the original.
func (b *builder) insertAfter(n ast.Node, text string) {
	end, _ := b.lineEnd(n.End())
	b.edits = append(b.edits, analysis.TextEdit{Pos: end, End: end, NewText: []byte("\n" + edits.Indent(b.pass, n.Pos()) + text)})
}

// balancedWaitGroups reports whether n, when copied, keeps WaitGroup counts
// balanced: it calls Done only if it also calls Add.
func (b *builder) balancedWaitGroups(n ast.Node) bool {
	var add, done bool
	ast.Inspect(n, func(m ast.Node) bool {
		if call, ok := m.(*ast.CallExpr); ok {
			if fn := code.Callee(b.pass.TypesInfo, call); fn != nil && fn.Pkg() != nil {
				switch calls.Key(fn) {
				case "sync.WaitGroup.Add":
					add = true
				case "sync.WaitGroup.Done":
					done = true
				}
			}
		}
		return true
	})
	return add || !done
}

// line returns the line of pos.
func (x *fixer) line(pos token.Pos) int { return x.pass.Fset.Position(pos).Line }

// lineEnd returns the end of the line holding pos (before its newline) and
// the text from pos to there.
func (x *fixer) lineEnd(pos token.Pos) (token.Pos, string) {
	tf := x.pass.Fset.File(pos)
	content, err := edits.FileContent(x.pass, tf)
	if err != nil {
		return pos, ""
	}
	off := tf.Offset(pos)
	end := off
	for end < len(content) && content[end] != '\n' {
		end++
	}
	return tf.Pos(end), string(content[off:end])
}

// siblingName returns the name of the sibling of pool v: a local beside a
// local pool, a package-level name beside a package variable or a field.
func (x *fixer) siblingName(v *types.Var) string {
	base := "slow" + upperFirst(v.Name())
	if v.IsField() || v.Parent() == nil || v.Parent() == x.pass.Pkg.Scope() {
		return x.names.Package(base)
	}
	return x.names.Local(v.Pos(), base)
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// inList reports whether the node at c is an element of a statement list.
func inList(c inspector.Cursor) bool {
	switch c.ParentEdgeKind() {
	case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
		return true
	}
	return false
}

// liftLoop returns the loop whose body is made of the statement at c and
// what keep allows beside it, or c itself: copying the loop keeps the
// number of workers or tokens.
func liftLoop(c inspector.Cursor, keep func(body []ast.Stmt, s ast.Stmt) bool) inspector.Cursor {
	block, ok := c.Parent().Node().(*ast.BlockStmt)
	if !ok {
		return c
	}
	loop := c.Parent().Parent()
	switch loop.Node().(type) {
	case *ast.ForStmt, *ast.RangeStmt:
		if keep(block.List, c.Node().(ast.Stmt)) && inList(loop) {
			return loop
		}
	}
	return c
}

// onlyStmt allows nothing beside the statement: a fill loop.
func onlyStmt(body []ast.Stmt, s ast.Stmt) bool { return len(body) == 1 && body[0] == s }

// onlyStartAndCalls allows plain calls such as wg.Add(1) beside a worker
// start, but nothing that could start other work.
func onlyStartAndCalls(body []ast.Stmt, s ast.Stmt) bool {
	for _, st := range body {
		if st == s {
			continue
		}
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			return false
		}
		call, ok := es.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		for _, arg := range call.Args {
			if _, ok := arg.(*ast.FuncLit); ok {
				return false
			}
		}
	}
	return true
}
