package admission

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
)

// Condition-variable admission: a loop that waits on a sync.Cond until a
// condition stops holding,
//
//	for q.l.Len() == 0 && !q.closed {
//		q.cond.Wait()
//	}
//
// is where a caller queues: for a store to become non-empty (kind
// CondQueue: len(x) == 0, x.Len() == 0, a count == 0, a cursor == nil),
// or for a counter to fall under its budget (kind CondBudget: inflight >=
// max). Stop flags beside the condition (&& !q.closed) do not change what
// it waits for. A loop whose condition is only a flag (for !ready) waits
// for one event, a completion signal, not for a turn: it is no admission.
//
// Unlike the other admission waits, a condition loop is not one call: the
// checks that look for it ask CondWaitAt about a for statement, and
// Finder.At does not answer for it, so that the checks that never asked
// keep their behaviour.

// CondWaitAt reports whether the statement at cur is a condition-variable
// admission loop, and describes its wait: Node is the for statement, On
// the sync.Cond (when a variable or field holds it).
func (f *Finder) CondWaitAt(cur inspector.Cursor) (Wait, bool) {
	fs, ok := cur.Node().(*ast.ForStmt)
	if !ok {
		return Wait{}, false
	}
	return condLoop(f.info, fs)
}

// condLoop classifies the for statement fs as a condition-variable wait:
// for cond { c.Wait() }, or an endless loop that first leaves when the
// turn has come and waits otherwise,
//
//	for {
//		if rl.iou+weight <= rl.max {
//			rl.iou += weight
//			return nil
//		}
//		c.Wait()
//	}
//
// whose wait condition is the exit's negation.
func condLoop(info *types.Info, fs *ast.ForStmt) (Wait, bool) {
	if fs.Init != nil || fs.Post != nil {
		return Wait{}, false
	}
	wait := condWaitCall(info, fs.Body.List)
	if wait == nil {
		return Wait{}, false
	}
	cond, name := fs.Cond, " while "
	if cond == nil {
		cond, name = exitNegation(fs), " until "
		if cond == nil {
			return Wait{}, false
		}
	}
	kind, ok := condKind(info, cond)
	if !ok {
		return Wait{}, false
	}
	shown := fs.Cond
	if shown == nil {
		shown = fs.Body.List[0].(*ast.IfStmt).Cond
	}
	sel := ast.Unparen(wait.Fun).(*ast.SelectorExpr)
	return Wait{
		Kind: kind,
		Node: fs,
		Name: types.ExprString(sel.X) + ".Wait()" + name + types.ExprString(shown),
		On:   code.Var(info, sel.X),
	}, true
}

// negatedComparison turns a comparison round: the condition a loop waits
// while, given the one it leaves on.
var negatedComparison = map[token.Token]token.Token{
	token.LEQ: token.GTR, token.LSS: token.GEQ, token.GEQ: token.LSS, token.GTR: token.LEQ, token.NEQ: token.EQL,
}

// exitNegation returns the condition an endless loop waits while, when
// its body starts with an if that leaves the loop (a return, or a break
// of it) on a comparison: the comparison turned round (<= becomes >), or
// nil.
func exitNegation(fs *ast.ForStmt) ast.Expr {
	if len(fs.Body.List) == 0 {
		return nil
	}
	ifs, ok := fs.Body.List[0].(*ast.IfStmt)
	if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) == 0 {
		return nil
	}
	switch last := ifs.Body.List[len(ifs.Body.List)-1].(type) {
	case *ast.ReturnStmt:
	case *ast.BranchStmt:
		if last.Tok != token.BREAK || last.Label != nil {
			return nil
		}
	default:
		return nil
	}
	b, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	op, ok := negatedComparison[b.Op]
	if !ok {
		return nil
	}
	return &ast.BinaryExpr{X: b.X, OpPos: b.OpPos, Op: op, Y: b.Y}
}

// condWaitCall returns the (*sync.Cond).Wait call that is a statement of
// the loop body list, or nil.
func condWaitCall(info *types.Info, list []ast.Stmt) *ast.CallExpr {
	for _, st := range list {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok {
			continue
		}
		if fn := code.CalleeFunc(info, call); fn != nil && code.IsMethod(fn, "sync", "Cond", "Wait") {
			return call
		}
	}
	return nil
}

// condKind says what a wait loop's condition waits for: a store to fill
// (CondQueue) or a counter to fall under a bound (CondBudget). Operands of
// && and || that are flags (q.closed, !stopped) are set aside; the others
// must all be emptiness tests or counter comparisons.
func condKind(info *types.Info, cond ast.Expr) (Kind, bool) {
	var empty, budget, other bool
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		e = ast.Unparen(e)
		if b, ok := e.(*ast.BinaryExpr); ok && (b.Op == token.LAND || b.Op == token.LOR) {
			walk(b.X)
			walk(b.Y)
			return
		}
		switch {
		case isFlag(info, e):
		case isEmptinessTest(info, e), isCursorAtEnd(info, e):
			empty = true
		case isCounterBound(info, e):
			budget = true
		default:
			other = true
		}
	}
	walk(cond)
	switch {
	case other:
		return 0, false
	case empty:
		return CondQueue, true
	case budget:
		return CondBudget, true
	}
	return 0, false
}

// isFlag reports whether e is a boolean variable or field, or its negation:
// a stop or close flag; or a string variable or field compared with the
// empty string: a holder's name, set while someone holds the lock
// (r.owner != "").
func isFlag(info *types.Info, e ast.Expr) bool {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		e = ast.Unparen(u.X)
	}
	if b, ok := e.(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
		if s, ok := consts.String(info, b.Y); ok && s == "" {
			v := code.Var(info, ast.Unparen(b.X))
			return v != nil && isString(v.Type())
		}
		return false
	}
	if _, ok := e.(*ast.CallExpr); ok {
		return false
	}
	v := code.Var(info, e)
	if v == nil {
		return false
	}
	b, ok := v.Type().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// isEmptinessTest reports whether e tests that a store is empty: len(x) ==
// 0, x.Len() == 0 (any method without arguments returning an integer), an
// integer count == 0 or <= 0, or a pointer (a list's head, a read cursor)
// == nil.
func isEmptinessTest(info *types.Info, e ast.Expr) bool {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || (b.Op != token.EQL && b.Op != token.LEQ) {
		return false
	}
	x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
	if code.IsNil(info, y) && b.Op == token.EQL {
		_, isPtr := info.TypeOf(x).Underlying().(*types.Pointer)
		return isPtr && code.Var(info, x) != nil
	}
	if n, ok := consts.Int(info, y); ok && n == 0 {
		return isCount(info, x)
	}
	return false
}

// isCursorAtEnd reports whether e tests that a read cursor has reached the
// end of a store: q.current >= q.len, read == len(buf), r.pos >= r.l.Len().
// The end is a length: len(x), a Len-like method without arguments, or an
// integer field named like one.
func isCursorAtEnd(info *types.Info, e ast.Expr) bool {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || (b.Op != token.GEQ && b.Op != token.EQL) {
		return false
	}
	x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
	return isInteger(info.TypeOf(x)) && code.Var(info, x) != nil && isLength(info, y)
}

func isLength(info *types.Info, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.CallExpr:
		if code.BuiltinName(info, e) == "len" {
			return true
		}
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		return ok && len(e.Args) == 0 && knowledge.LengthNames.Has(strings.ToLower(sel.Sel.Name))
	case *ast.SelectorExpr:
		return isInteger(info.TypeOf(e)) && knowledge.LengthNames.Has(strings.ToLower(e.Sel.Name))
	}
	return false
}

// isCount reports whether e is a count: len(x), a method call without
// arguments that returns an integer (x.Len()), or an integer variable or
// field.
func isCount(info *types.Info, e ast.Expr) bool {
	if !isInteger(info.TypeOf(e)) {
		return false
	}
	if call, ok := e.(*ast.CallExpr); ok {
		if code.BuiltinName(info, call) == "len" {
			return true
		}
		_, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		return isSel && len(call.Args) == 0
	}
	return code.Var(info, e) != nil
}

// isCounterBound reports whether e compares a counter with a bound:
// inflight >= max, s.used+n > s.budget, n == limit, with both sides
// integers and at least one a variable or field that the program counts.
func isCounterBound(info *types.Info, e ast.Expr) bool {
	b, ok := e.(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch b.Op {
	case token.GTR, token.GEQ, token.LSS, token.LEQ, token.EQL:
	default:
		return false
	}
	if !isInteger(info.TypeOf(b.X)) || !isInteger(info.TypeOf(b.Y)) {
		return false
	}
	return code.CallFree(info, nil, b.X, b.Y) && (counted(info, b.X) || counted(info, b.Y))
}

// counted reports whether e is, or adds to, an integer variable or field.
func counted(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok && (b.Op == token.ADD || b.Op == token.SUB) {
		return counted(info, b.X) || counted(info, b.Y)
	}
	return code.Var(info, e) != nil
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isInteger(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// An InnerWait describes a function that waits for admission on its main
// path and then works: calling it queues the caller, and what the caller
// took before the call (a timestamp, a deadline) ages in the queue. A
// function that only waits is a WaitHelper instead.
type InnerWait struct {
	Kind Kind
	Name string // the wait inside, as CondWaitAt or At names it
	// At is where the wait is, file base name and line ("mem.go:184"), for
	// messages in the packages that call the function.
	At string
	// Ctx is set when the wait is the first step of the function that
	// uses its context parameter, and takes it (limiter.Wait(ctx),
	// sem.Acquire(ctx, n), a select on ctx.Done() and a slot): a deadline
	// the caller puts on that context is spent in the queue before the
	// work that it bounds.
	Ctx bool
	// Param is the index of that context parameter when Ctx is set.
	Param int
	// WaitOnly is set when the function does nothing after its wait but
	// return: a helper that waits in a condition loop (an InnerWait all
	// the same, as the loop is no wait of At's), or a wrapper of one. On a
	// path that leaves right after a call of it, nothing works.
	WaitOnly bool
	// Impl names the implementation that waits ((*pool.ConnPool).Get),
	// for an interface method some of whose implementations were left out
	// of the fact as holding a value or passing the call on (implsInner):
	// the wait is on the paths that hold the one named.
	Impl string
}

func (w *InnerWait) String() string {
	s := fmt.Sprintf("waits %s %s at %s", w.Kind, w.Name, w.At)
	if w.Ctx {
		s += fmt.Sprintf(" on ctx param %d before work", w.Param)
	}
	if w.Impl != "" {
		s += " in " + w.Impl
	}
	return s
}

// innerWait returns the admission wait on the main path of fn's body (a
// statement of the body's own list: a condition loop, a strict admission
// wait, a call of a function that waits), when work follows it; nil
// otherwise. Statements before the wait may do anything: a timestamp taken
// before the call is stale after it all the same. Ctx is set when none of
// them uses the context or blocks on a channel (quietBefore). fn is nil
// for a local closure, whose context is captured, not a parameter: Ctx
// stays unset.
func (r *Result) innerWait(strict *Finder, fn *types.Func, body inspector.Cursor, list []ast.Stmt) *InnerWait {
	i := 0
	for st := range body.Children() {
		if iw := r.awaitedInnerWait(strict, fn, st); iw != nil {
			if iw.Ctx && !r.quietBefore(list[:i], contextParam(fn)) {
				iw.Ctx = false
			}
			return iw
		}
		w, ok := r.stmtWait(strict, st)
		inBranch := false
		if !ok {
			w, ok = r.branchWait(strict, st)
			inBranch = ok
		}
		if !ok {
			w, ok = r.firstAttemptWait(strict, st)
		}
		if _, ret := st.Node().(*ast.ReturnStmt); ret && (!ok || w.Via == nil) {
			// The main path ends here; only a call of a function that
			// waits and works, returned (return c.inner.Query(ctx)), is
			// a wait on it.
			return nil
		}
		if !ok {
			i++
			continue
		}
		// A wait helper (FuncFact.Wait) says it already; a condition
		// loop is no wait of At's, so a function that only waits in one
		// is an InnerWait too.
		// A call of a function that waits and then works (Via) is no wait
		// helper: its work is inside, and so a wrapper that only returns
		// after it waits and works too.
		if _, loop := w.Node.(*ast.ForStmt); !loop && w.Via == nil && r.onlyReturnsAfter(list, i, &w) {
			return nil
		}
		iw := &InnerWait{Kind: w.Kind, Name: w.Name, At: r.posString(w.Node.Pos())}
		_, loop := w.Node.(*ast.ForStmt)
		iw.WaitOnly = loop && r.onlyReturnsAfter(list, i, nil)
		waitsOn := w.Node // what the wait takes the context in
		if w.Via != nil {
			waitsOn = nil
			if inner := r.Helper(w.Via); inner != nil && inner.Inner != nil {
				iw.WaitOnly = inner.Inner.WaitOnly && r.onlyReturnsAfter(list, i, &w)
				// Impl stays with the interface method's own fact and
				// its direct callers' messages: the wait's place names it.
				iw.Kind, iw.Name, iw.At = inner.Inner.Kind, inner.Inner.Name, inner.Inner.At
				// The callee waits on the context it is handed only if
				// its fact says so, and only on that parameter.
				if call, ok := w.Node.(*ast.CallExpr); ok && inner.Inner.Ctx && inner.Inner.Param < len(call.Args) {
					waitsOn = call.Args[inner.Inner.Param]
				}
			}
		}
		// Only a wait found is worth the walk of what runs before it.
		// A wait in a branch runs after the if's or switch's own init and
		// conditions (if s.stale(ctx) { return s.get(ctx) }): they come
		// before it too.
		if ctx := contextParam(fn); ctx != nil && waitsOn != nil && usesVar(r.info, waitsOn, ctx) && r.quietBefore(list[:i], ctx) && (!inBranch || !headerUsesVar(r.info, st.Node(), ctx)) {
			iw.Ctx, iw.Param = true, paramIndex(fn, ctx)
		}
		return iw
	}
	return nil
}

// awaitedInnerWait returns the InnerWait of the goroutine the statement st
// starts, when its function waits for it (code.AwaitedAt: go func() {
// done <- c.fetch(ctx) }() and a select on done): the goroutine's wait and
// work are the function's, made cancellable.
func (r *Result) awaitedInnerWait(strict *Finder, fn *types.Func, st inspector.Cursor) *InnerWait {
	gs, ok := st.Node().(*ast.GoStmt)
	if !ok || !code.AwaitedAt(r.info, st).IsValid() {
		return nil
	}
	lit := ast.Unparen(gs.Call.Fun).(*ast.FuncLit) // AwaitedAt holds only for a literal
	body, ok := st.FindNode(lit.Body)
	if !ok {
		return nil
	}
	return r.innerWait(strict, fn, body, lit.Body.List)
}

// firstAttemptWait returns the wait of the first attempt of a loop of
// attempts at st: a for loop that runs its body at least once (runsOnce:
// no condition, or a counter from a constant up to a bound) and whose
// body, before anything that leaves it, calls a function that waits
// inside and then works,
//
//	for attempt := 0; attempt <= maxRetries; attempt++ {
//		retry, err := c._process(ctx, cmd, attempt) // waits for a connection
//		if err == nil || !retry {
//			return err
//		}
//	}
//
// Every call queues there once at least. A wait of the loop's own (a
// limiter taken per attempt) is not taken: whether work follows it in the
// body is not asked here.
func (r *Result) firstAttemptWait(strict *Finder, st inspector.Cursor) (Wait, bool) {
	fs, ok := st.Node().(*ast.ForStmt)
	if !ok || !runsOnce(r.info, fs) {
		return Wait{}, false
	}
	body, ok := st.FindNode(fs.Body)
	if !ok {
		return Wait{}, false
	}
	for inner := range body.Children() {
		switch inner.Node().(type) {
		case *ast.ReturnStmt, *ast.BranchStmt:
			return Wait{}, false
		}
		w, ok := r.stmtWait(strict, inner)
		if !ok {
			w, ok = r.branchWait(strict, inner)
		}
		if ok {
			return w, w.Via != nil
		}
	}
	return Wait{}, false
}

// runsOnce reports whether the for loop fs runs its body at least once:
// it has no condition, or it counts a variable from a constant up to a
// bound (code.CountsUp) that a loop of attempts starts below: a constant
// above the start, or any bound compared with <= (for attempt := 0;
// attempt <= c.maxRetries; attempt++), since a count of retries is not
// negative. A variable bound compared with < may be the start itself.
func runsOnce(info *types.Info, fs *ast.ForStmt) bool {
	if fs.Cond == nil {
		return true
	}
	from, to, op, ok := code.CountsUp(info, fs)
	switch {
	case !ok:
		return false
	case to != nil:
		return constant.Compare(from, op, to)
	}
	return op == token.LEQ
}

// branchWait returns the first wait in a branch of the if or switch
// statement at st that goes on to the statements after it: a limiter
// taken for most requests but not all (switch { case urgent: default:
// limiter.incr(ctx) }, if s.lim != nil { s.lim.Wait(ctx) }). On that path
// the function waits and then works. A branch that returns, or runs only
// when an error is set, is no way to the work, unless its first statement
// calls a function that waits and then works (leavingBranchWait); loops,
// selects and literals are not looked into.
func (r *Result) branchWait(strict *Finder, st inspector.Cursor) (Wait, bool) {
	var lists []inspector.Cursor
	switch n := st.Node().(type) {
	case *ast.IfStmt:
		for ; n != nil; n, _ = n.Else.(*ast.IfStmt) {
			if b, ok := st.FindNode(n.Body); ok && !r.errorOnly(n, false) {
				lists = append(lists, b)
			}
			if els, ok := n.Else.(*ast.BlockStmt); ok && !r.errorOnly(n, true) {
				if b, ok := st.FindNode(els); ok {
					lists = append(lists, b)
				}
			}
		}
	case *ast.SwitchStmt:
		if b, ok := st.FindNode(n.Body); ok {
			for cc := range b.Children() {
				lists = append(lists, cc)
			}
		}
	}
	for _, list := range lists {
		var stmts []ast.Stmt
		switch n := list.Node().(type) {
		case *ast.BlockStmt:
			stmts = n.List
		case *ast.CaseClause:
			stmts = n.Body
		}
		if code.Terminates(stmts, true) {
			if w, ok := r.leavingBranchWait(strict, list); ok {
				return w, true
			}
			continue
		}
		for inner := range list.Children() {
			if _, isExpr := inner.Node().(ast.Expr); isExpr {
				continue // a case's values
			}
			w, ok := r.stmtWait(strict, inner)
			if !ok {
				w, ok = r.branchWait(strict, inner)
			}
			if ok {
				return w, true
			}
		}
	}
	return Wait{}, false
}

// leavingBranchWait returns the wait of a branch that leaves the function
// (if limit <= 0 { ap.dispatch(ctx, q); return }) when its first statement
// calls a function that waits for admission and then works: on that path
// the function waits and works, in its callee, before it returns. A wait
// of its own there (a limiter taken, then a return) is none: nothing of
// the function's runs after it on that path.
func (r *Result) leavingBranchWait(strict *Finder, list inspector.Cursor) (Wait, bool) {
	for inner := range list.Children() {
		if _, isExpr := inner.Node().(ast.Expr); isExpr {
			continue // a case's values
		}
		w, ok := r.stmtWait(strict, inner)
		if !ok || w.Via == nil {
			return Wait{}, false
		}
		h := r.Helper(w.Via)
		return w, h != nil && h.Inner != nil && !h.Inner.WaitOnly
	}
	return Wait{}, false
}

// errorOnly reports whether the body (or, with inElse, the else) of ifs
// runs only when an error is set: if err != nil {…}, if err == nil {…}
// else {…}.
func (r *Result) errorOnly(ifs *ast.IfStmt, inElse bool) bool {
	bin, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok || (bin.Op != token.NEQ && bin.Op != token.EQL) || !code.IsNil(r.info, bin.Y) {
		return false
	}
	t := r.info.TypeOf(bin.X)
	if t == nil || !types.Implements(t, types.Universe.Lookup("error").Type().Underlying().(*types.Interface)) {
		return false
	}
	return (bin.Op == token.NEQ) != inElse
}

// quietBefore reports whether the statements before a wait neither use
// the context ctx nor block on a channel: the wait is the first step that
// the context reaches, and so the first that a deadline on it bounds.
// Work that never sees the context (closing a connection, a log line) may
// come first: the deadline does not bound it, and the queue still eats the
// budget of the work after the wait. This is the rule a deadline derived
// in the function itself is held to (waittiming's checkDeadline).
func (r *Result) quietBefore(before []ast.Stmt, ctx *types.Var) bool {
	for _, st := range before {
		if r.UsesContextBeyondBinding(st, ctx) || hasChanOp(st) {
			return false
		}
	}
	return true
}

// UsesContextBeyondBinding reports whether st uses the context ctx other
// than to bind it or read it (knowledge list context-binders: a request
// made with it, a span started from it, a value or a logger read from it,
// its own Value, Err and Deadline): such uses start no work the deadline
// bounds, and services make them first thing.
func (r *Result) UsesContextBeyondBinding(st ast.Node, ctx *types.Var) bool {
	beyond := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if beyond {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if r.bindsContext(n, ctx) {
				for _, a := range n.Args {
					if id, ok := ast.Unparen(a).(*ast.Ident); ok && r.info.Uses[id] == ctx {
						continue // the context handed to the binder
					}
					ast.Inspect(a, visit)
				}
				return false
			}
		case *ast.Ident:
			beyond = r.info.Uses[n] == ctx
		}
		return !beyond
	}
	ast.Inspect(st, visit)
	return beyond
}

// RebindsContext reports whether st only assigns ctx a context derived from
// it by a binder (ctx, span := tracer.Start(ctx, "op")): the deadline on
// ctx still reaches what follows.
func (r *Result) RebindsContext(st ast.Node, ctx *types.Var) bool {
	as, ok := st.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return false
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	return ok && r.bindsContext(call, ctx) && usesVar(r.info, call, ctx)
}

// bindsContext reports whether call only binds or reads a context: a
// function or method of the context-binders list, or a method of the
// context ctx itself that reads it (ctx.Value, ctx.Err, ctx.Deadline).
func (r *Result) bindsContext(call *ast.CallExpr, ctx *types.Var) bool {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && r.info.Uses[id] == ctx {
			switch sel.Sel.Name {
			case "Value", "Err", "Deadline":
				return true
			}
		}
	}
	fn := code.CalleeFunc(r.info, call)
	return fn != nil && fn.Pkg() != nil && knowledge.ContextBinders.Has(calls.Key(fn))
}

// stmtWait returns the admission wait a statement of a main path is: a
// condition loop, a wait at the head of the statement (strict), or a call
// at its head of a function that waits inside (InnerWait).
func (r *Result) stmtWait(strict *Finder, st inspector.Cursor) (Wait, bool) {
	if fs, ok := st.Node().(*ast.ForStmt); ok {
		return condLoop(r.info, fs)
	}
	for _, cand := range heads(st) {
		if w, ok := strict.At(cand); ok && w.Blocking() {
			return w, true
		}
		// A method called on a call's result (c.Ping(ctx).Err()) runs
		// after that call: the receiver's call is evaluated first; so
		// does a comparison of a result (return c.Ping(ctx) != nil).
		for call := range receiverCalls(condHead(cand).Node()) {
			if w, ok := r.innerCallWait(call); ok {
				return w, true
			}
		}
	}
	return Wait{}, false
}

// innerCallWait returns the call as a wait when it calls a function that
// waits inside and then works: declared, an interface method with the
// fact, or one of the functions handed to a func value (InnerCallee).
func (r *Result) innerCallWait(call *ast.CallExpr) (Wait, bool) {
	if h, fn := r.HelperCall(call); h != nil && h.Inner != nil && fn != nil {
		return Wait{Kind: h.Inner.Kind, Node: call, Name: code.DisplayName(fn), Via: fn}, true
	}
	if fn := r.InnerCallee(call); fn != nil {
		name := code.DisplayName(fn) + " via " + types.ExprString(call.Fun)
		return Wait{Kind: r.Helper(fn).Inner.Kind, Node: call, Name: name, Via: fn}, true
	}
	return Wait{}, false
}

// receiverCalls yields n when it is a call, and then the calls whose
// results it is a method of, innermost last: c.Ping(ctx).Err() yields the
// Err call and then the Ping call.
func receiverCalls(n ast.Node) iter.Seq[*ast.CallExpr] {
	return func(yield func(*ast.CallExpr) bool) {
		call, ok := n.(*ast.CallExpr)
		for ok {
			if !yield(call) {
				return
			}
			sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !isSel {
				return
			}
			call, ok = ast.Unparen(sel.X).(*ast.CallExpr)
		}
	}
}

func (r *Result) posString(pos token.Pos) string {
	p := r.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// contextParam returns fn's first parameter of type context.Context, or
// nil.
func contextParam(fn *types.Func) *types.Var {
	if fn == nil {
		return nil
	}
	params := fn.Signature().Params()
	for i := range params.Len() {
		if code.IsContext(params.At(i).Type()) {
			return params.At(i)
		}
	}
	return nil
}

func paramIndex(fn *types.Func, v *types.Var) int {
	params := fn.Signature().Params()
	for i := range params.Len() {
		if params.At(i) == v {
			return i
		}
	}
	return -1
}

// usesVar reports whether n refers to v.
func usesVar(info *types.Info, n ast.Node, v *types.Var) bool {
	return code.AnyNode(n, nil, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		return ok && info.Uses[id] == v
	})
}

// headerUsesVar reports whether the if or switch statement st uses v
// outside its bodies: in an init, a condition (an else if's too) or a tag.
func headerUsesVar(info *types.Info, st ast.Node, v *types.Var) bool {
	isBody := func(n ast.Node) bool { _, ok := n.(*ast.BlockStmt); return ok }
	return code.AnyNode(st, isBody, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		return ok && info.Uses[id] == v
	})
}

// hasChanOp reports whether n sends, receives or selects outside function
// literals: a blocking step that is not an admission wait.
func hasChanOp(n ast.Node) bool {
	return code.AnyNode(n, code.IsFuncLit, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt, *ast.SelectStmt:
			return true
		case *ast.UnaryExpr:
			return n.Op == token.ARROW
		}
		return false
	})
}

// StmtWait reports whether the statement at st, one of a function body's
// own statements or of a block's, is an admission wait a caller queues in:
// a condition loop, a wait at the head of the statement, or a call at its
// head of a function that waits inside and then works (InnerWait, which it
// returns too): a declared function, an interface method whose fact says
// so, or a function the package hands to a func value (InnerCallee).
func (f *Finder) StmtWait(st inspector.Cursor) (Wait, *InnerWait, bool) {
	w, ok := f.r.stmtWait(f, st)
	if !ok {
		return Wait{}, nil, false
	}
	var iw *InnerWait
	if w.Via != nil {
		if h := f.r.Helper(w.Via); h != nil {
			iw = h.Inner
		}
	}
	return w, iw, true
}

// InnerWaitNode returns the wait inside fn, a function of this package
// with an InnerWait fact: the node a related position can show.
func (f *Finder) InnerWaitNode(fn *types.Func) ast.Node {
	decl, ok := f.r.FuncDecl(fn)
	if !ok {
		return nil
	}
	body, ok := decl.FindNode(decl.Node().(*ast.FuncDecl).Body)
	if !ok {
		return nil
	}
	return f.r.firstStmtWait(body)
}

// ClosureInnerWait returns the InnerWait of the local closure a call
// calls (withLimit := func() error {…}; withLimit()), the variable that
// holds it and the wait inside its body, or nil.
func (f *Finder) ClosureInnerWait(call *ast.CallExpr) (*InnerWait, *types.Var, ast.Node) {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil, nil, nil
	}
	v, ok := f.info.Uses[id].(*types.Var)
	if !ok {
		return nil, nil, nil
	}
	h, lit := f.r.lits[v], f.r.litVars[v]
	if h == nil || h.Inner == nil || !lit.Valid() {
		return nil, nil, nil
	}
	body, ok := lit.FindNode(lit.Node().(*ast.FuncLit).Body)
	if !ok {
		return nil, nil, nil
	}
	return h.Inner, v, f.r.firstStmtWait(body)
}

// firstStmtWait returns the first wait among the statements of body.
func (r *Result) firstStmtWait(body inspector.Cursor) ast.Node {
	strict := r.Finder(Options{Strict: true})
	for st := range body.Children() {
		if w, ok := r.stmtWait(strict, st); ok {
			return w.Node
		}
		if w, ok := r.branchWait(strict, st); ok {
			return w.Node
		}
		if w, ok := r.firstAttemptWait(strict, st); ok {
			return w.Node
		}
	}
	return nil
}
