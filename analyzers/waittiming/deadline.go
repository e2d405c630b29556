package waittiming

import (
	"go/ast"
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
func (c *checker) checkDeadline(cur inspector.Cursor) {
	info := c.pass.TypesInfo
	call := cur.Node().(*ast.CallExpr)
	stmt := cur.Parent()
	assign, ok := stmt.Node().(*ast.AssignStmt)
	if !ok || len(assign.Lhs) != 2 || len(assign.Rhs) != 1 || !isListStmt(stmt) {
		return
	}
	derived := localVar(info, assign.Lhs[0])
	cancel := localVar(info, assign.Lhs[1])
	if derived == nil {
		return
	}
	moved := []inspector.Cursor{stmt}
	next, ok := stmt.NextSibling()
	if ok && isDeferCall(info, next.Node(), cancel) {
		moved = append(moved, next)
		next, ok = next.NextSibling()
	}

	// The first statement that uses the context must be the wait: a
	// deadline that also bounds work before the wait is a budget for both.
	var waitAt inspector.Cursor
	var w admission.Wait
	for ; ok; next, ok = next.NextSibling() {
		if code.Assigns(info, next.Node(), derived) {
			return
		}
		if wc, wt, found := c.waitIn(next); found {
			waitAt, w = wc, wt
			break
		}
		if usesVar(info, next.Node(), derived) || (cancel != nil && usesVar(info, next.Node(), cancel)) {
			return
		}
	}
	if !waitAt.Valid() || (cancel != nil && usesVar(info, next.Node(), cancel)) {
		return
	}
	stmtW := next
	if check := errCheckAfter(info, stmtW); check.Valid() {
		stmtW = check
	}
	after, ok := stmtW.NextSibling()
	if !ok {
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
		return
	}

	renames, ok := c.contextAfterMove(assign, derived, stmtW)
	if !ok {
		return
	}
	file := edits.EnclosingFile(c.pass.Files, stmt.Node().Pos())
	var texts []string
	var es []analysis.TextEdit
	for _, mv := range moved {
		sp := lineSpan(c.pass, file, mv.Node())
		content := fileContent(c.pass, mv.Node().Pos())
		tf := c.pass.Fset.File(mv.Node().Pos())
		if content == nil || sp.start == mv.Node().Pos() {
			return // shares its line with other code
		}
		text := string(content[tf.Offset(sp.textStart):tf.Offset(sp.textEnd)])
		texts = append(texts, dedent(text, edits.Indent(c.pass, mv.Node().Pos())))
		es = append(es, analysis.TextEdit{Pos: sp.start, End: sp.end})
	}
	es = append(es, edits.InsertBefore(c.pass, after.Node(), strings.Join(texts, "\n")))
	es = append(es, renames...)

	c.rep.Report(analysis.Diagnostic{
		Pos:      call.Pos(),
		End:      call.End(),
		Category: "deadline",
		Message: "the " + timeoutText(info, call) + " starts before the wait in " + w.Name +
			", so time spent queueing comes out of the work's budget; create it after the wait",
		Related: []analysis.RelatedInformation{
			{Pos: w.Node.Pos(), End: w.Node.End(), Message: "the wait: " + w.Name},
			{Pos: work.Pos(), End: work.End(), Message: "the work that gets what is left of the budget"},
		},
		SuggestedFixes: []analysis.SuggestedFix{edits.Fix("Create the timeout after the wait", es...)},
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
func (c *checker) waitIn(stmt inspector.Cursor) (inspector.Cursor, admission.Wait, bool) {
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
func (c *checker) passesVar(stmt inspector.Cursor, v *types.Var, w admission.Wait) *ast.CallExpr {
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

// contextAfterMove returns the edits that keep the wait's statement
// referring to the parent context once the derivation moves below it. When
// the derived variable shadows the parent of the same name, or is the parent
// variable itself, its uses in the wait's statement already do; otherwise
// they become the parent expression, which must be a plain variable or
// field.
func (c *checker) contextAfterMove(assign *ast.AssignStmt, derived *types.Var, stmtW inspector.Cursor) ([]analysis.TextEdit, bool) {
	info := c.pass.TypesInfo
	parent := ast.Unparen(assign.Rhs[0].(*ast.CallExpr).Args[0])
	lhs := assign.Lhs[0].(*ast.Ident)
	if pid, ok := parent.(*ast.Ident); ok {
		pobj := info.Uses[pid]
		if pobj == derived {
			return nil, true // ctx, cancel = context.WithTimeout(ctx, d)
		}
		if info.Defs[lhs] == derived && pid.Name == lhs.Name {
			return nil, true // the outer ctx is what the name means above
		}
	}
	if !isPlainRef(parent) {
		return nil, false
	}
	var es []analysis.TextEdit
	text := edits.Source(c.pass, parent)
	for cur := range stmtW.Preorder((*ast.Ident)(nil)) {
		if id := cur.Node().(*ast.Ident); info.Uses[id] == derived {
			es = append(es, edits.Replace(id, text))
		}
	}
	return es, true
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
