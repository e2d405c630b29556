package spawn

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// itemSource says, for a message, how a stream loop takes its items and
// why nothing pushes back: received from a channel, or read by a call.
func itemSource(pulled bool) (from, why string) {
	if pulled {
		return "read from", "the loop reads the next one at once, so nothing pushes back on the sender"
	}
	return "received from", "the channel never fills, so it never pushes back on the producer"
}

// itemFinding builds the goroutineperitem diagnostic, with a fix where one
// is safe.
func (c fixer) itemFinding(it perItem, lim *loopLimit) *shared.Finding {
	sp := it.sp
	what := c.spawnName(sp)
	from, why := itemSource(it.pulled)
	if it.feedsBack {
		// A semaphore would hold back the very workers that empty the
		// stream: no fix.
		stream := edits.Source(c.pass, it.stream)
		f := shared.NewFinding(sp.stmt, "goroutineperitem",
			fmt.Sprintf("%s per item %s %s, each holding the items it sends back to %s until the channel takes them: the parked goroutines are an overflow queue beyond the channel's bound that grows with the data; keep the pending items in a queue the workers take from instead",
				what, from, stream, stream),
			it.stream, "items arrive here")
		f.Diag.Related = append(f.Diag.Related, analysis.RelatedInformation{Pos: sp.stmt.Pos(), End: sp.stmt.End(),
			Message: "no automatic fix: a semaphore before the spawn would block the workers that drain " + stream + "; queue the pending items (a slice or list under a lock) and let idle workers take from it, by hand"})
		return f
	}
	f := shared.NewFinding(sp.stmt, "goroutineperitem",
		fmt.Sprintf("%s per item %s %s with nothing bounding how many run at once: %s; acquire a semaphore before starting each one",
			what, from, edits.Source(c.pass, it.stream), why),
		it.stream, "items arrive here")
	switch c.limitFix(f, it, lim) {
	case limitedGroup:
		f.Diag.Message = fmt.Sprintf("%s per item %s %s with nothing bounding how many run at once: %s; give the group a limit with SetLimit",
			what, from, edits.Source(c.pass, it.stream), why)
	case unlimited:
		if _, _, watched := c.doneCase(lim.loop); watched {
			f.Diag.Message += ", in a select that also waits on ctx.Done()"
		}
	}
	return f
}

// How limitFix bounded a spawn.
const (
	unlimited          = iota // no fix
	limitedGroup              // g.SetLimit
	limitedBySemaphore        // a semaphore channel
)

// limitFix completes f with the fix that bounds the spawn of it by lim's
// size: SetLimit on an errgroup that can take it, else the loop's
// semaphore. It returns which, or unlimited when no edit is safe.
func (c fixer) limitFix(f *shared.Finding, it perItem, lim *loopLimit) int {
	if it.sp.kind == "errgroup" {
		if es, ok := c.setLimitEdits(it.sp, lim.loop, lim.size); ok {
			f.Msg, f.Edits = "Limit the group's goroutines in flight with SetLimit", es
			return limitedGroup
		}
	}
	if es, ok := c.semaphoreEdits(it.sp, lim, it.cur); ok {
		f.Msg, f.Edits = "Bound the goroutines in flight with a semaphore", es
		return limitedBySemaphore
	}
	return unlimited
}

// setLimitEdits returns the edit that gives the errgroup of the spawn a
// limit: g.SetLimit(N) on a line of its own right after the statement that
// declares the group, before any Go, since SetLimit panics while goroutines
// of the group run; or, where the group's limit is removed with SetLimit(-1),
// N in its place. It reports false when every Go of the group is not in the
// loop (a limit would also hold back the group's other, perhaps long-lived,
// goroutines), when the group has TryGo calls (a limit makes them fail), or
// when the declaration cannot take a line after it.
func (c fixer) setLimitEdits(sp spawn, loop inspector.Cursor, limit string) ([]analysis.TextEdit, bool) {
	g := sp.group
	fn := code.EnclosingFunc(loop)
	if g == nil || !fn.Valid() {
		return nil, false
	}
	var setLimit *ast.CallExpr
	for cur := range fn.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || code.Var(c.pass.TypesInfo, sel.X) != g {
			continue
		}
		switch sel.Sel.Name {
		case "Go":
			if !loop.Contains(cur) {
				return nil, false
			}
		case "TryGo":
			return nil, false
		case "SetLimit":
			if _, _, ok := code.SetLimit(c.pass.TypesInfo, call); !ok || setLimit != nil {
				return nil, false
			}
			setLimit = call
		}
	}
	if setLimit != nil {
		return []analysis.TextEdit{edits.Replace(setLimit.Args[0], limit)}, true
	}
	id, ok := c.insp.Root().FindByPos(g.Pos(), g.Pos()+token.Pos(len(g.Name())))
	if !ok {
		return nil, false
	}
	decl := code.StmtOf(id)
	if !decl.Valid() || !shared.InStatementList(decl) || !edits.StartsLine(c.pass, decl.Node().Pos()) || edits.EndsLineWithCode(c.pass, decl.Node()) {
		return nil, false
	}
	return []analysis.TextEdit{edits.InsertLinesAfter(c.pass, decl.Node(), g.Name()+".SetLimit("+limit+")")}, true
}

// semaphoreEdits returns the edits that bound the spawn with the loop's
// semaphore: made before the loop, acquired before the spawn, released when
// the goroutine ends. Where the loop watches ctx.Done(), the acquire watches
// it too and leaves the way the loop does, so that shutdown does not wait
// for a slot.
func (c fixer) semaphoreEdits(sp spawn, lim *loopLimit, spawnCur inspector.Cursor) ([]analysis.TextEdit, bool) {
	loop := lim.loop
	file := c.sh.FileOf(sp.stmt.Pos())
	if file == nil {
		return nil, false
	}
	// The semaphore is made before the loop, or before its label: gofmt
	// outdents labels, so the new line takes the indentation of the for.
	loopStmt := loop
	if _, ok := loop.Parent().Node().(*ast.LabeledStmt); ok {
		loopStmt = loop.Parent()
	}
	stmtCur := spawnCur
	if _, isGo := sp.stmt.(*ast.GoStmt); !isGo {
		stmtCur = spawnCur.Parent()
	}
	if !edits.StartsLine(c.pass, loopStmt.Node().Pos()) || !edits.StartsLine(c.pass, loop.Node().Pos()) || !shared.InStatementList(loopStmt) ||
		!edits.StartsLine(c.pass, sp.stmt.Pos()) || !shared.InStatementList(stmtCur) || c.sh.JumpedOver(loopStmt, loopStmt.Node().Pos()) {
		return nil, false
	}
	if lim.sem == "" {
		lim.sem = c.names.Local(loopStmt.Node().Pos(), "sem", lim.uses...)
	}
	sem := lim.sem
	release := "defer func() { <-" + sem + " }()"
	acquire := sem + " <- struct{}{}"
	var early ast.Stmt // where the acquire goes when not right before the spawn
	if done, leave, watched := c.doneCase(loop); watched {
		// Leaving between a WaitGroup's Add and the spawn would leave the
		// group waiting for a goroutine that never starts: acquire first.
		at := sp.stmt.Pos()
		add, outer := c.waitGroupAddBefore(loop, stmtCur)
		if outer {
			return nil, false // counted in a block around the spawn's
		}
		if add != nil {
			early, at = add, add.Pos()
		}
		if leave == nil || !edits.VisibleAt(c.pass, done, at) {
			return nil, false // the acquire must watch ctx.Done(), and cannot leave as the loop does
		}
		var lines []string
		for _, st := range leave {
			if !edits.VisibleAt(c.pass, st, at) {
				return nil, false
			}
			lines = append(lines, edits.Source(c.pass, st))
		}
		acquire = "select {\ncase " + acquire + ":\ncase <-" + edits.Source(c.pass, done) + ":\n" + strings.Join(lines, "\n") + "\n}"
	}
	spawnAcquire := acquire
	if early != nil {
		spawnAcquire = ""
	}
	es, ok := c.releaseEdits(sp, loop, spawnCur, file, spawnAcquire, release)
	if !ok {
		return nil, false
	}
	if early != nil {
		es = append(es, edits.InsertBefore(c.pass, early, acquire))
	}
	return append(es, edits.InsertLinesBefore(c.pass, loopStmt.Node(), loop.Node().Pos(), fmt.Sprintf("%s := make(chan struct{}, %s)", sem, lim.size))), true
}

// waitGroupAddBefore returns the first statement, before the spawn's
// statement in its list, that adds to a sync.WaitGroup, or nil; outer
// reports such a statement before a statement around the spawn's, inside
// the loop, where no acquire placed in the spawn's list can precede it.
func (c fixer) waitGroupAddBefore(loop, stmtCur inspector.Cursor) (first ast.Stmt, outer bool) {
	for cur := stmtCur; cur.Valid() && cur != loop; cur = cur.Parent() {
		switch cur.Node().(type) {
		case *ast.CaseClause, *ast.CommClause:
			continue // the other cases do not run before this one
		case ast.Stmt:
		default:
			continue
		}
		for prev, ok := cur.PrevSibling(); ok; prev, ok = prev.PrevSibling() {
			st, isStmt := prev.Node().(ast.Stmt)
			if !isStmt || !c.addsToWaitGroup(st) {
				continue
			}
			if cur != stmtCur {
				return nil, true
			}
			first = st
		}
	}
	return first, false
}

// addsToWaitGroup reports whether n calls Add of a sync.WaitGroup.
func (c fixer) addsToWaitGroup(n ast.Node) bool {
	return code.AnyNode(n, nil, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := code.Callee(c.pass.TypesInfo, call); fn != nil && code.IsMethod(fn, "sync", "WaitGroup", "Add") {
				return true
			}
		}
		return false
	})
}

// doneCase finds how the loop watches for cancellation: a select case
// receiving from ctx.Done() (of a context.Context) in the loop's own body.
// It returns the Done() call and the statements of that case when they
// leave the loop for good (a return, a break or continue of the loop's
// label, a panic); leave is nil when the case does something else. watched
// is false when the loop does not watch a context.
func (c fixer) doneCase(loop inspector.Cursor) (done ast.Expr, leave []ast.Stmt, watched bool) {
	info := c.pass.TypesInfo
	label := loopLabel(loop)
	body, _ := loop.FindNode(loopBody(loop.Node()))
	for cur := range body.Preorder((*ast.CommClause)(nil)) {
		if shared.NearestLoop(cur) != loop.Node() {
			continue
		}
		cc := cur.Node().(*ast.CommClause)
		recv := shared.CommRecv(cc.Comm)
		if recv == nil {
			continue
		}
		call, ok := ast.Unparen(recv.X).(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			continue
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Done" || !code.IsContext(info.TypeOf(sel.X)) {
			continue
		}
		if !code.Terminates(cc.Body, true) || !branchesSurviveSelect(cc.Body, label) {
			return call, nil, true
		}
		return call, cc.Body, true
	}
	return nil, nil, false
}

// branchesSurviveSelect reports whether the branch statements of list,
// copied into a select of their own inside the loop, still leave the loop
// (or continue it): an unlabeled break would leave only that select, and a
// label other than the loop's might not enclose it.
func branchesSurviveSelect(list []ast.Stmt, label string) bool {
	ok := true
	for _, s := range list {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				switch {
				case n.Tok == token.GOTO:
					ok = false
				case n.Label == nil:
					ok = ok && n.Tok == token.CONTINUE
				default:
					ok = ok && n.Label.Name == label
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				ok = false // branches inside would mean something else
			}
			return ok
		})
	}
	return ok
}

// releaseEdits returns the edits that acquire the semaphore before the spawn
// and release it when the goroutine ends: a deferred receive as the first
// statement of a function literal, or, for go f(x) and g.Go(f), a literal
// wrapped around the call. An empty acquire is made elsewhere by the caller.
func (c fixer) releaseEdits(sp spawn, loop, spawnCur inspector.Cursor, file *ast.File, acquire, release string) ([]analysis.TextEdit, bool) {
	if lit, ok := ast.Unparen(sp.fun).(*ast.FuncLit); ok {
		if len(lit.Body.List) == 0 {
			return nil, false
		}
		if e, ok := edits.InsertLineAfterBrace(c.pass, lit.Body, release); ok {
			if acquire == "" {
				return []analysis.TextEdit{e}, true
			}
			return []analysis.TextEdit{edits.InsertBefore(c.pass, sp.stmt, acquire), e}, true
		}
		// A one-line literal: rewrite the statement, gofmt lays it out.
		src := edits.Source(c.pass, sp.stmt)
		at := int(lit.Body.Lbrace - sp.stmt.Pos() + 1)
		if acquire != "" {
			acquire += "\n"
		}
		text, ok := edits.FormatStmts(acquire+src[:at]+"\n"+release+"\n"+src[at:], edits.Indent(c.pass, sp.stmt.Pos()))
		if !ok {
			return nil, false
		}
		return []analysis.TextEdit{edits.Replace(sp.stmt, text)}, true
	}

	pre, call, ok := c.wrapCall(sp, loop, spawnCur, file)
	if !ok {
		return nil, false
	}
	var stmt string
	switch sp.kind {
	case "go":
		stmt = "go func() {\n" + release + "\n" + call + "\n}()"
	case "errgroup":
		stmt = edits.Source(c.pass, sp.call.Fun) + "(func() error {\n" + release + "\nreturn " + call + "\n})"
	case "waitgroup":
		stmt = edits.Source(c.pass, sp.call.Fun) + "(func() {\n" + release + "\n" + call + "\n})"
	}
	var lines []string
	if acquire != "" {
		lines = append(lines, acquire)
	}
	text, ok := edits.FormatStmts(strings.Join(append(append(lines, pre...), stmt), "\n"), edits.Indent(c.pass, sp.stmt.Pos()))
	if !ok {
		return nil, false
	}
	return []analysis.TextEdit{edits.Replace(sp.stmt, text)}, true
}

// wrapCall returns the call the wrapping literal makes, and the statements
// that must run before the spawn so that the goroutine sees the values the
// original spawn evaluated when it started: the function and arguments are
// evaluated at the go statement, the literal's body runs later. Expressions
// that do work (calls, receives) or read variables that change before the
// goroutine runs are hoisted into fresh variables; loop variables shared
// between iterations (before Go 1.22) are copied.
func (c fixer) wrapCall(sp spawn, loop, spawnCur inspector.Cursor, file *ast.File) ([]string, string, bool) {
	info := c.pass.TypesInfo
	fn := code.EnclosingFunc(loop)
	if !fn.Valid() {
		return nil, "", false
	}
	st := c.stability(fn, loop, spawnCur, file)
	var pre []string
	copied := make(map[*types.Var]bool)
	var paramNames []string
	if sig, ok := info.TypeOf(sp.fun).(*types.Signature); ok {
		for i := range sig.Params().Len() {
			paramNames = append(paramNames, sig.Params().At(i).Name())
		}
	}
	render := func(e ast.Expr, base string) (string, bool) {
		if _, tuple := info.TypeOf(e).(*types.Tuple); tuple {
			return "", false
		}
		stable, copies := st.check(e)
		if !stable {
			name := c.names.Local(sp.stmt.Pos(), base)
			pre = append(pre, name+" := "+edits.Source(c.pass, e))
			return name, true
		}
		for _, v := range copies {
			if !copied[v] {
				copied[v] = true
				pre = append(pre, v.Name()+" := "+v.Name())
			}
		}
		return edits.Source(c.pass, e), true
	}
	fun, ok := render(sp.fun, "fn")
	if !ok {
		return nil, "", false
	}

	var args []string
	for i, a := range sp.args {
		base := "arg"
		if i < len(paramNames) && paramNames[i] != "" && paramNames[i] != "_" {
			base = paramNames[i]
		}
		s, ok := render(a, base)
		if !ok {
			return nil, "", false
		}
		args = append(args, s)
	}
	call := fun + "(" + strings.Join(args, ", ")
	if sp.call.Ellipsis.IsValid() && sp.kind == "go" {
		call += "..."
	}
	if len(pre) > 0 && c.sh.JumpedOver(spawnCur, sp.stmt.Pos()) {
		return nil, "", false // the variables would be jumped over
	}
	return pre, call + ")", true
}
