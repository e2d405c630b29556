package unboundedqueue

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// fifoFinding builds the diagnostic for the unguarded enqueue at site, with
// a fix where one is safe.
func (c *fixer) fifoFinding(q *queue, site, fn, consumer inspector.Cursor) *shared.Finding {
	stmt := site.Node().(ast.Stmt)
	qexpr := c.queueExpr(q, stmt)
	remedy := "reject or drop items beyond a limit"
	if q.jumps {
		remedy = "reject items beyond a limit (dropping the oldest would drop items pushed to jump the queue)"
	}
	if q.cursor {
		remedy = "reject items beyond a limit (dropping the oldest could leave the queue's read cursor on a removed element)"
	}
	var message string
	if q.list {
		what := "list"
		if q.deque {
			what = "deque"
		}
		message = fmt.Sprintf("%s queue %s grows without bound: this %s has no Len check while %s removes from its other end, so overload piles up in memory; %s",
			what, qexpr, "Push"+q.back, c.sh.FuncName(funcOf(consumer)), remedy)
	} else {
		takes := "dequeues from its front"
		if _, whole := consumer.Node().(*ast.AssignStmt); whole {
			takes = "takes all its items at once"
		}
		message = fmt.Sprintf("slice queue %s grows without bound: this append has no length check while %s %s, so overload piles up in memory; %s",
			qexpr, c.sh.FuncName(funcOf(consumer)), takes, remedy)
	}
	kind := "slicefifo"
	if q.list {
		kind = "listfifo"
	}
	f := shared.NewFinding(stmt, kind,
		message,
		consumer.Node(), "items leave the queue here")
	if isSpread(site) {
		// One call adds several items: a guard for one would not bound them.
		f.Diag.Message += ", by hand: this call adds several items at once"
		return f
	}
	c.guardFix(f, q, site, fn)
	return f
}

// guardFix completes f with the fix that guards the enqueue at site: reject
// the item where the function can, else drop the oldest. It leaves f without
// a fix when the statement cannot take a guard before it (it shares its line,
// or is not in a statement list), or when only rejecting is safe and the
// function cannot reject.
func (c *fixer) guardFix(f *shared.Finding, q *queue, site, fn inspector.Cursor) {
	qexpr := c.queueExpr(q, site.Node().(ast.Stmt))
	length := "len(" + qexpr + ")"
	drop := qexpr + " = " + qexpr + "[1:]"
	if q.list {
		length = qexpr + ".Len()"
		front := map[string]string{"Back": "Front", "Front": "Back"}[q.back]
		drop = qexpr + ".Remove(" + qexpr + "." + front + "())"
		if q.deque {
			drop = qexpr + ".Pop" + front + "()"
		}
	}
	if q.jumps || q.cursor {
		drop = "" // it would drop an item pushed to jump the queue, or move a read cursor's element
	}
	// Two pushes in one function must not reject between them: the first
	// item would stay queued while the caller is told both were refused.
	c.lengthGuardFix(f, q, site, fn, length, drop, enqueuesIn(q, fn) == 1)
}

// lengthGuardFix completes f with a guard before the statement at site that
// compares length with the queue's named limit and rejects the item, where
// mayReject and the function can (a declared function, not a literal: the
// error of a literal goes to whoever runs it, and from a g.Go task it would
// cancel the group), or else runs drop, the statements that drop the oldest
// item. With neither, or when the statement cannot take a line before it,
// f keeps no fix.
func (c *fixer) lengthGuardFix(f *shared.Finding, q *queue, site, fn inspector.Cursor, length, drop string, mayReject bool) {
	stmt := site.Node().(ast.Stmt)
	if !edits.StartsLine(c.pass, stmt.Pos()) || !shared.InStatementList(site) {
		return
	}
	sig := code.FuncSignature(c.pass.TypesInfo, fn.Node())
	_, declared := fn.Node().(*ast.FuncDecl)
	file := c.sh.FileOf(stmt.Pos())
	_, _, canImport := edits.AddImport(c.pass, file, "errors")
	_, canReturn := c.rejectReturn(file, sig, "err")
	reject := mayReject && declared && canImport && canReturn
	if !reject && drop == "" {
		return
	}
	if !c.declareQueue(q, stmt) {
		return
	}
	msg, body := "Drop the oldest item when the queue is full", drop
	if reject {
		errorsPkg, _, _ := edits.AddImport(c.pass, q.file, "errors") // the sentinel's declaration, at the top level, is all that names errors
		ret, _ := c.rejectReturn(file, sig, q.errName)
		msg = "Reject new items when the queue is full"
		body = strings.Join(append(c.sh.UnlocksBeforeReturn(site, fn), ret), "\n")
		if !q.declared {
			c.declareSentinel(q, errorsPkg)
		}
	}
	f.Msg = msg
	f.Edits = []analysis.TextEdit{edits.InsertBefore(c.pass, stmt, "if "+length+" >= "+q.maxName+" {\n\t"+strings.ReplaceAll(body, "\n", "\n\t")+"\n}")}
	f.File, f.Anchor = q.file, q.anchor
}

// funcOf returns the function around cur.
func funcOf(cur inspector.Cursor) inspector.Cursor {
	fn := code.EnclosingFunc(cur)
	return fn
}

// queueExpr returns the queue as the enqueue statement writes it: s.jobs.
func (c *fixer) queueExpr(q *queue, stmt ast.Stmt) string {
	var found ast.Expr
	ast.Inspect(stmt, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && found == nil && code.Var(c.pass.TypesInfo, e) == q.v {
			found = e
		}
		return found == nil
	})
	if found != nil {
		return edits.Source(c.pass, found)
	}
	return q.v.Name()
}

// declareQueue gives q its limit constant. It is declared before the
// top-level declaration of the queue itself (the struct type holding the
// field, the var declaration) when that is in a production file of the
// package: next to what it bounds, and away from the functions before which
// other checks declare their own names. Otherwise it goes before the
// function of the first reported site. It reports false if there is no
// top-level declaration to put it before.
func (c *fixer) declareQueue(q *queue, stmt ast.Stmt) bool {
	if q.anchor != nil {
		return true
	}
	file := c.sh.FileOf(q.v.Pos())
	var anchor ast.Decl
	if file != nil && !c.rep.SkipPos(q.v.Pos()) {
		anchor = edits.EnclosingDecl(file, q.v.Pos())
	}
	if _, ok := anchor.(*ast.GenDecl); !ok {
		file = c.sh.FileOf(stmt.Pos())
		if file == nil {
			return false
		}
		anchor = edits.EnclosingDecl(file, stmt.Pos())
	}
	if anchor == nil {
		return false
	}
	q.file, q.anchor = file, anchor
	q.expr = c.queueExpr(q, stmt)
	if name := typeNameAround(anchor, q.v.Pos()); name != "" {
		q.expr = name + "." + q.v.Name() // s.jobs reads oddly away from its method
	}
	// The guards at the enqueue sites name the limit and the sentinel.
	var sites []token.Pos
	for _, site := range append(append([]inspector.Cursor(nil), q.enqueues...), q.putBacks...) {
		sites = append(sites, site.Node().Pos())
	}
	q.maxName = c.names.Package("max"+exportedName(q.v.Name()), sites...)
	// errTooManyJobs, not errJobsFull: retrysend names the sentinel of a
	// full channel that way, and a channel and a slice field may share a name.
	q.errName = c.names.Package("errTooMany"+exportedName(q.v.Name()), sites...)
	c.declared[anchor] = append(c.declared[anchor], declaration{text: fmt.Sprintf(
		"// %s bounds the length of %s; set it to acceptable wait × consumer rate.\nconst %s = %d",
		q.maxName, q.expr, q.maxName, queueBound)})
	return true
}

// typeNameAround returns the name of the type declared by decl whose
// declaration contains pos, or "".
func typeNameAround(decl ast.Decl, pos token.Pos) string {
	gen, ok := decl.(*ast.GenDecl)
	if !ok || gen.Tok != token.TYPE {
		return ""
	}
	for _, spec := range gen.Specs {
		if ts := spec.(*ast.TypeSpec); ts.Pos() <= pos && pos < ts.End() {
			return ts.Name.Name
		}
	}
	return ""
}

// declareSentinel declares q's error for rejected items, made by the
// package errors imported as errorsPkg.
func (c *fixer) declareSentinel(q *queue, errorsPkg string) {
	q.declared = true
	what := q.v.Name()
	if !strings.Contains(strings.ToLower(what), "queue") {
		what += " queue"
	}
	c.declared[q.anchor] = append(c.declared[q.anchor], declaration{
		text: fmt.Sprintf("// %s rejects items while %s is full.\nvar %s = %s.New(%q)",
			q.errName, q.expr, q.errName, errorsPkg, what+" is full"),
		errors: true,
	})
}
