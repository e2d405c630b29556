package retrysend

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// A helper is a function of the package that tries one non-blocking send and
// reports whether it succeeded:
//
//	func (q *Queue) TryPut(v T) bool {
//		select {
//		case q.ch <- v:
//			return true
//		default:
//			return false
//		}
//	}
type helper struct {
	fn   *types.Func
	decl *ast.FuncDecl
	nb   sendselect.NonBlocking
}

// trySendHelpers finds the try-send helpers among the package's sends.
func (c *helperChecker) trySendHelpers(sends []send) map[*types.Func]*helper {
	helpers := make(map[*types.Func]*helper)
	for _, s := range sends {
		if s.cur.ParentEdgeKind() != edge.BlockStmt_List || s.cur.Parent().ParentEdgeKind() != edge.FuncDecl_Body {
			continue
		}
		decl := s.cur.Parent().Parent().Node().(*ast.FuncDecl)
		fn, ok := c.info.Defs[decl.Name].(*types.Func)
		if !ok || !c.isTrySend(decl, fn, s.nb) {
			continue
		}
		helpers[fn] = &helper{fn, decl, s.nb}
	}
	return helpers
}

// isTrySend reports whether decl, holding nb, only tries nb's send and
// returns whether it succeeded (true or nil, false or an error), with a send
// the caller could write itself.
func (c *helperChecker) isTrySend(decl *ast.FuncDecl, fn *types.Func, nb sendselect.NonBlocking) bool {
	res := fn.Signature().Results()
	if res.Len() != 1 {
		return false
	}
	isErr := types.Identical(res.At(0).Type(), types.Universe.Lookup("error").Type())
	if !isErr && !types.Identical(res.At(0).Type(), types.Typ[types.Bool]) {
		return false
	}
	if len(nb.Case.Body) != 1 || !c.returnsOutcome(nb.Case.Body[0], isErr, true) {
		return false
	}
	dflt := sendselect.Case(c.info, nb.Default.Body, nil, c.isWait)
	switch body := decl.Body.List; {
	case len(body) == 1:
		if !dflt.Idle || len(dflt.Waits) > 0 || dflt.Last == nil || !c.returnsOutcome(dflt.Last, isErr, false) {
			return false
		}
	case len(body) == 2:
		if !dflt.Idle || len(dflt.Waits) > 0 || dflt.Last != nil || !c.returnsOutcome(body[1], isErr, false) {
			return false
		}
	default:
		return false
	}
	return code.CallFree(c.info, nil, nb.Send.Chan, nb.Send.Value) && c.spellableAtCall(fn, nb.Send)
}

// returnsOutcome reports whether s returns that the item went in (true, or
// nil for an error result) or, for in false, that it did not (false, or an
// error value that is not nil).
func (c *helperChecker) returnsOutcome(s ast.Stmt, isErr, in bool) bool {
	ret, ok := s.(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	e := ast.Unparen(ret.Results[0])
	if isErr {
		return code.IsNil(c.info, e) == in
	}
	id, ok := e.(*ast.Ident)
	want := "false"
	if in {
		want = "true"
	}
	return ok && c.info.Uses[id] == types.Universe.Lookup(want)
}

// spellableAtCall reports whether the helper's send refers only to its
// parameters, its receiver and package-level names, so that a caller can
// write the same send with its arguments in their place.
func (c *helperChecker) spellableAtCall(fn *types.Func, send *ast.SendStmt) bool {
	ok := true
	ast.Inspect(send, func(n ast.Node) bool {
		id, isIdent := n.(*ast.Ident)
		if !isIdent {
			return ok
		}
		switch obj := c.info.Uses[id].(type) {
		case *types.Var:
			if !obj.IsField() && paramIndex(fn, obj) < -1 && obj.Parent() != c.pass.Pkg.Scope() {
				ok = false
			}
		case *types.PkgName, *types.Const, *types.TypeName, *types.Func, *types.Nil, *types.Builtin:
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// paramIndex returns the index of v among fn's parameters, -1 for its
// receiver, or -2.
func paramIndex(fn *types.Func, v *types.Var) int {
	sig := fn.Signature()
	if sig.Recv() == v {
		return -1
	}
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == v {
			return i
		}
	}
	return -2
}

// A helperRetry is a loop that retries a try-send helper until it succeeds,
// in one of two spellings:
//
//	for !q.TryPush(v) { wait }
//	for { if q.TryPush(v) { success; return }; wait }
type helperRetry struct {
	l    loop
	call *ast.CallExpr
	fn   *types.Func
	h    *admission.TrySendHelper
	wait sendselect.Path // what a failed attempt does
	// success lists what runs once the helper succeeds, in the loop (the
	// if's body), with last, its final statement that leaves the loop.
	success []ast.Stmt
	last    ast.Stmt
	stops   []*ast.CommClause // the loop's stop checks (see attempt.stops)
}

// helperLoop reports a retry loop around a try-send helper of this package
// or, through its fact, of another.
func (c *helperChecker) helperLoop(file, cur inspector.Cursor, helpers map[*types.Func]*helper) *finding {
	r, rule := c.helperRetryOf(cur)
	if rule == nil {
		rule = c.changingTry(r)
	}
	if rule != nil {
		c.rep.Silence(r.l.stmt, rule)
		return nil
	}
	if r.call == nil {
		return nil // no try-send helper in the loop: not a candidate
	}
	var plan *fixPlan
	honours, remedy := false, ""
	var rel []analysis.RelatedInformation
	ch := r.h.Chan
	name := code.DisplayName(r.fn)
	if h := helpers[r.fn]; h != nil {
		name = r.fn.Name()
		rel = append(rel, related(h.nb.Select, r.fn.Name()+" gives up at once when the channel is full"))
		plan, honours, ch = c.localHelperFix(file, r, h)
	} else {
		if sel, ok := ast.Unparen(r.call.Fun).(*ast.SelectorExpr); ok && r.h.Field != "" {
			ch = edits.Source(c.pass, sel.X) + "." + r.h.Field // as the caller would name it
		}
		plan, remedy = c.siblingFix(file, r)
	}
	msg := c.retry.retryMessage(ch+" through "+name, attempt{before: r.wait, stops: r.stops}, false, honours)
	if plan == nil && remedy != "" {
		msg = strings.TrimSuffix(msg, "block on the send instead") + remedy
	}
	return &finding{
		file:    file,
		kind:    "retryloop",
		pos:     r.l.stmt.Pos(),
		end:     r.l.body.Lbrace,
		message: msg,
		related: rel,
		fix:     plan,
	}
}

// helperRetryOf matches the loop at cur as a retry of a try-send helper.
// When it is none, the rule says why if the loop calls a try-send helper
// (r.l is then the loop); a loop that calls none is no candidate, and r is
// empty with no rule.
func (c *helperChecker) helperRetryOf(cur inspector.Cursor) (helperRetry, *report.Rule) {
	fs := cur.Node().(*ast.ForStmt)
	notRetried := func() (helperRetry, *report.Rule) {
		if !c.callsTrySend(fs) {
			return helperRetry{}, nil
		}
		return helperRetry{l: loop{cur: cur, stmt: fs}}, ruleNotHelperRetry
	}
	if fs.Init != nil || (fs.Post != nil && !sendselect.IsCount(c.info, fs.Post)) {
		return notRetried()
	}
	r := helperRetry{l: loop{cur: cur, stmt: fs, outer: fs, body: fs.Body, bound: unbounded}}
	if ls, ok := cur.Parent().Node().(*ast.LabeledStmt); ok {
		r.l.outer = ls
		r.l.label, _ = c.info.Defs[ls.Label].(*types.Label)
	}
	waitStmts := fs.Body.List
	wantErr := false // the helper reports its outcome as an error
	switch cond := ast.Unparen(fs.Cond).(type) {
	case *ast.UnaryExpr:
		// for !q.TryPush(v) { wait }
		call, ok := ast.Unparen(cond.X).(*ast.CallExpr)
		if !ok || cond.Op != token.NOT {
			return notRetried()
		}
		r.call = call
	case *ast.BinaryExpr:
		// for q.TryPush(v) != nil { wait }
		call, ok := ast.Unparen(cond.X).(*ast.CallExpr)
		if !ok || cond.Op != token.NEQ || !code.IsNil(c.info, cond.Y) {
			return notRetried()
		}
		r.call, wantErr = call, true
	case nil:
		// for { if q.TryPush(v) { ...; return }; wait }, perhaps after
		// checks that stop the loop; the outcome may be held in a
		// variable first (ok := q.TryPush(v); if ok, or if err :=
		// q.TryPush(v); err == nil).
		list := fs.Body.List
		first := 0
		for first < len(list) && c.retry.stopCheck(list[first], r.l) != nil {
			first++
		}
		attempt := []int{first}
		var held *ast.AssignStmt
		if first < len(list) {
			if held = defineOne(list[first]); held != nil {
				first++
				attempt = append(attempt, first)
			}
		}
		if first >= len(list) {
			return notRetried()
		}
		ifs, ok := list[first].(*ast.IfStmt)
		if !ok || ifs.Else != nil || len(ifs.Body.List) == 0 {
			return notRetried()
		}
		if ifs.Init != nil {
			if held != nil {
				return notRetried()
			}
			if held = defineOne(ifs.Init); held == nil {
				return notRetried()
			}
		}
		call, isErr, ok := c.succeededTry(ifs.Cond, held)
		if !ok {
			return notRetried()
		}
		body := ifs.Body.List
		r.call, r.success, r.last, wantErr = call, body[:len(body)-1], body[len(body)-1], isErr
		if !c.leavesLoop(r.last, r.l) || !onlyFinalBranch(body, r.last) {
			return notRetried()
		}
		waitStmts = nil
		for i, st := range list {
			if !slices.Contains(attempt, i) {
				waitStmts = append(waitStmts, st)
			}
		}
	default:
		return notRetried()
	}
	ff, fn := c.res.HelperCall(r.call)
	if ff == nil || ff.TrySend == nil || fn == nil || ff.TrySend.Err != wantErr {
		return notRetried()
	}
	r.fn, r.h = fn, ff.TrySend
	r.stops, waitStmts = c.retry.stopChecks(waitStmts, r.l)
	r.wait = sendselect.LoopBody(c.info, waitStmts, r.l.label, c.isWait)
	if !r.wait.Idle || (r.wait.End != sendselect.Falls && r.wait.End != sendselect.Continues) {
		return helperRetry{l: r.l}, ruleHelperWorksBetween
	}
	return r, nil
}

// callsTrySend reports whether the loop fs calls a try-send helper, in its
// condition or its body (outside function literals).
func (c *helperChecker) callsTrySend(fs *ast.ForStmt) bool {
	found := false
	for _, n := range []ast.Node{fs.Cond, fs.Body} {
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if ff, _ := c.res.HelperCall(n); ff != nil && ff.TrySend != nil {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// changingTry returns the rule when the retry r does not try the same item
// on the same channel each attempt: its receiver or its arguments call a
// function or change in the loop.
func (c *helperChecker) changingTry(r helperRetry) *report.Rule {
	if r.call == nil {
		return nil
	}
	if sel, ok := ast.Unparen(r.call.Fun).(*ast.SelectorExpr); ok && !c.retry.invariant(r.l, nil, sel.X) {
		return ruleChangingItem
	}
	if r.call.Ellipsis.IsValid() || !c.retry.invariant(r.l, nil, r.call.Args...) {
		return ruleChangingItem
	}
	return nil
}

// defineOne returns s when it declares one variable from one call: ok :=
// q.TryPush(v), err := q.TryPush(v).
func defineOne(s ast.Stmt) *ast.AssignStmt {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil
	}
	if _, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); !ok {
		return nil
	}
	return as
}

// succeededTry returns the call of a try whose success cond tests, and
// whether the try reports its outcome as an error: q.TryPush(v), or ok
// held from it; q.TryPush(v) == nil, or err == nil with err held from it.
// held is the statement declaring the variable, or nil.
func (c *helperChecker) succeededTry(cond ast.Expr, held *ast.AssignStmt) (call *ast.CallExpr, isErr, ok bool) {
	x := ast.Unparen(cond)
	if bin, isBin := x.(*ast.BinaryExpr); isBin {
		if bin.Op != token.EQL || !code.IsNil(c.info, bin.Y) {
			return nil, false, false
		}
		x, isErr = ast.Unparen(bin.X), true
	}
	switch x := x.(type) {
	case *ast.CallExpr:
		return x, isErr, held == nil
	case *ast.Ident:
		if held == nil || code.Var(c.info, held.Lhs[0]) != c.info.Uses[x] {
			return nil, false, false
		}
		return ast.Unparen(held.Rhs[0]).(*ast.CallExpr), isErr, true
	}
	return nil, false, false
}

// leavesLoop reports whether st, directly in an if in l's body, leaves l
// (see code.LeavesLoop) or ends the process (log.Fatal): a break or continue
// of a statement around l (continue outer) still means the same once l is
// gone.
func (c *helperChecker) leavesLoop(st ast.Stmt, l loop) bool {
	return code.LeavesLoop(c.info, l.cur, []ast.Stmt{st}, false) ||
		sendselect.LoopBody(c.info, []ast.Stmt{st}, l.label, nil).End == sendselect.Panics
}

// successLines returns r's success statements as they read once the loop is
// gone (a final break of the loop goes, and a bare return that ends the
// function), with the source they keep.
func (c *helperChecker) successLines(r helperRetry) ([]string, []span, bool) {
	stmts := r.success
	if r.last != nil && !c.fix.breaksLoop(r.last, r.l, true) {
		stmts = append(stmts[:len(stmts):len(stmts)], r.last)
	}
	var lines []string
	var kept []span
	for _, st := range stmts {
		if c.fix.usesLoopVar(r.l, st) {
			return nil, nil, false
		}
		moved, ok := c.fix.moveStmt(st)
		if !ok {
			return nil, nil, false
		}
		lines = append(lines, moved...)
		kept = append(kept, spanOf(st))
	}
	if n := len(lines); n > 0 && lines[n-1] == "return" && endsFunc(r.l) {
		lines, kept = lines[:n-1], kept[:len(kept)-1]
	}
	return lines, kept, true
}

// localHelperFix plans the fix of a retry of a helper of this package: the
// helper's send, written with the call's arguments, blocks in place of the
// loop. It returns the channel as the caller names it.
func (c *helperChecker) localHelperFix(file inspector.Cursor, r helperRetry, h *helper) (*fixPlan, bool, string) {
	ch := r.h.Chan
	args, kept, ok := c.callArgs(h, r.call)
	if !ok {
		return nil, false, ch
	}
	astFile := file.Node().(*ast.File)
	if text, ok := c.substituteExpr(h, astFile, h.nb.Send.Chan, args); ok {
		ch = text
	}
	sendText, ok := c.substitute(h, astFile, args)
	if !ok {
		return nil, false, ch
	}
	body, bodyKept, ok := c.successLines(r)
	if !ok {
		return nil, false, ch
	}
	plan, honours := c.fix.blockingPlan(file, r.l, sendText, body, append(kept, bodyKept...), "", r.stops)
	if plan != nil {
		plan.helper = h
	}
	return plan, honours, ch
}

// callArgs maps the helper's receiver and parameters to the expressions the
// call passes, when each is plain enough to write twice.
func (c *helperChecker) callArgs(h *helper, call *ast.CallExpr) (map[types.Object]ast.Expr, []span, bool) {
	sig := h.fn.Signature()
	if len(call.Args) != sig.Params().Len() || call.Ellipsis.IsValid() {
		return nil, nil, false
	}
	args := make(map[types.Object]ast.Expr)
	var kept []span
	for i, a := range call.Args {
		args[sig.Params().At(i)] = a
		kept = append(kept, spanOf(a))
	}
	if recv := sig.Recv(); recv != nil {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, nil, false
		}
		if s, ok := c.info.Selections[sel]; !ok || s.Kind() != types.MethodVal || len(s.Index()) != 1 {
			return nil, nil, false // promoted through an embedded field
		}
		args[recv] = sel.X
		kept = append(kept, spanOf(sel.X))
	}
	return args, kept, true
}

// substitute writes the helper's send as the caller would: ch <- v with the
// call's arguments in place of the parameters.
func (c *helperChecker) substitute(h *helper, file *ast.File, args map[types.Object]ast.Expr) (string, bool) {
	ch, ok1 := c.substituteExpr(h, file, h.nb.Send.Chan, args)
	v, ok2 := c.substituteExpr(h, file, h.nb.Send.Value, args)
	return ch + " <- " + v, ok1 && ok2
}

func (c *helperChecker) substituteExpr(h *helper, file *ast.File, e ast.Expr, args map[types.Object]ast.Expr) (string, bool) {
	src := edits.Source(c.pass, e)
	var b strings.Builder
	last := e.Pos()
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		id, isIdent := n.(*ast.Ident)
		if !isIdent || !ok {
			return ok
		}
		obj := c.info.Uses[id]
		if pkg, isPkg := obj.(*types.PkgName); isPkg {
			if name, imported := edits.ImportName(file, pkg.Imported().Path()); !imported || name != pkg.Name() {
				ok = false
			}
			return false
		}
		arg, isParam := args[obj]
		if !isParam {
			return true
		}
		b.WriteString(src[last-e.Pos() : id.Pos()-e.Pos()])
		text := edits.Source(c.pass, arg)
		switch ast.Unparen(arg).(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.BasicLit, *ast.CompositeLit, *ast.ParenExpr, *ast.CallExpr:
		default:
			if id != ast.Unparen(e) {
				text = "(" + text + ")" // an operand of the helper's expression
			}
		}
		b.WriteString(text)
		last = id.End()
		return true
	})
	b.WriteString(src[last-e.Pos():])
	return b.String(), ok
}

// siblingFix plans the fix of a retry of a try-send helper whose send this
// package cannot spell (another package's, or one reaching unexported
// state), when the helper's type also has the blocking send (q.Push): the
// loop becomes a call of it. Without one, or when the loop's wait also ends
// on ctx.Done() (cancellation the blocking call would not keep), there is
// no fix, and remedy says what to do by hand.
func (c *helperChecker) siblingFix(file inspector.Cursor, r helperRetry) (*fixPlan, string) {
	if r.h.Param < 0 {
		// The item is batched, or the send is further down: only the
		// helper's author can write the wait for room.
		return nil, "give " + r.fn.Name() + " a variant that waits for room on the channel, and call it once instead"
	}
	sel, ok := ast.Unparen(r.call.Fun).(*ast.SelectorExpr)
	if !ok || r.h.Blocking == "" || r.h.Param >= len(r.call.Args) || r.fn.Signature().Recv() == nil {
		return nil, "block on the channel instead: the helper has no blocking variant to call"
	}
	if len(r.stops) > 0 {
		return nil, "block on the send, in a select that keeps the loop's stop case, instead: " + r.h.Blocking + " would not end on it"
	}
	if r.wait.HonoursCtx {
		return nil, "block on the send, with ctx.Done(), instead: " + r.h.Blocking + " would not end on cancellation"
	}
	arg := r.call.Args[r.h.Param]
	text := edits.Source(c.pass, sel.X) + "." + r.h.Blocking + "(" + edits.Source(c.pass, arg) + ")"
	body, bodyKept, ok := c.successLines(r)
	if !ok {
		return nil, ""
	}
	plan := c.fix.replaceLoop(file, r.l, append([]string{text}, body...), append([]span{spanOf(sel.X), spanOf(arg)}, bodyKept...))
	if plan == nil {
		return nil, ""
	}
	plan.message = "Replace the retry loop with " + r.h.Blocking + ", which blocks until the channel has room"
	return plan, ""
}
