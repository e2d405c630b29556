package admission

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// A FuncFact records what a declared function or method is for the checks
// that look at its callers, in its own package and, exported as an
// [analysis.Fact], in every package that imports it. A function may be
// several of these at once, or none (then it has no fact).
type FuncFact struct {
	// Wait is set when the function's main path performs an admission wait
	// and does nothing after it but return: calling it is waiting.
	Wait *WaitHelper
	// Send is set when the function's body only sends one of its
	// parameters on a channel that outlives the call.
	Send *SendHelper
	// TrySend is set when the function tries one non-blocking send of a
	// parameter and returns whether it succeeded.
	TrySend *TrySendHelper
	// Pause is set when the function's main path only pauses: it sleeps,
	// waits for a timer or a backoff, and then returns.
	Pause *PauseHelper
	// Timer is set when the function measures time for its callers: a
	// recorder of the time since a start it is given, a timer's constructor
	// or its stop method, a function returning a stop function.
	Timer *timing.Helper
	// Blocks is set for an acquire-shaped method (Acquire, Take and their
	// variants) whose body can block: a channel operation, a select, or a
	// Wait, Acquire or Lock call. A reference count's Acquire does not.
	Blocks bool
	// NewEmpty is set when the function only returns a new empty slice:
	// return make(T, 0, n), return nil, return T{}. A queue reset to its
	// result (q.frame = message.NewFrame(n)) is emptied.
	NewEmpty bool
	// Work is set when the function does blocking work: I/O, an RPC, a
	// query, an admission wait, or a call of a function that does (work.go).
	Work bool
	// Inner is set when the function waits for admission on its main path
	// and then works (cond.go).
	Inner *InnerWait
	// UnreadTimes lists the time.Time parameters the body never reads: a
	// start handed to one measures nothing, whatever its name (one
	// signature shared by a family of handlers, some of which time the
	// request and some of which do not).
	UnreadTimes []int
}

// A WaitHelper describes a function that is an admission wait.
type WaitHelper struct {
	Kind Kind
	Name string // the wait inside: "(*semaphore.Weighted).Acquire"
	// Strict is set when the wait inside counts under Options.Strict too.
	Strict bool
	// Field names the receiver's field that holds the limiter waited on,
	// when there is one: the pool of a method p.acquire is p.<Field>.
	Field string
	// Release says how the caller gives the slot back.
	Release Release
}

// A SendHelper describes a function whose body is a send of its parameter:
// func (a *agg) enqueue(x T) { a.in <- x }.
type SendHelper struct {
	Param int    // the index of the parameter sent
	Chan  string // the channel, as the function names it: "a.in", "jobs"
	// Field names the receiver's field holding the channel (a.in), or
	// Global the package variable (jobs); one of them is set.
	Field, Global string
}

// A TrySendHelper describes a function that tries a non-blocking send of its
// parameter and reports whether it succeeded:
//
//	func (q *Queue) TryPush(v T) bool {
//		select {
//		case q.ch <- v:
//			return true
//		default:
//			return false
//		}
//	}
//
// A function that reports whether it got its item in, and fails only when a
// non-blocking send finds the channel full (perhaps a helper's, perhaps of a
// batch the item was added to) or on a stop signal, is one too, with Param
// -1: Prometheus's queue.Append and the shards.enqueue that calls it.
type TrySendHelper struct {
	Param int    // the index of the parameter sent, or -1 when the item is not sent as it is
	Chan  string // the channel, as the function names it
	Field string // the receiver's field holding the channel, if it is one
	// Blocking names a method of the same receiver whose body is the
	// blocking send of the same channel (q.Push), or "".
	Blocking string
	// Err is set when the helper reports the outcome as an error, nil when
	// the item went in (func (q *Queue) TryPush(v T) error), rather than
	// as a bool.
	Err bool
}

// A PauseHelper describes a function that only pauses.
type PauseHelper struct {
	Name       string // the pause inside: "time.Sleep", "a timer"
	HonoursCtx bool   // the pause also ends on ctx.Done()
}

// AFact marks FuncFact as an analysis fact.
func (*FuncFact) AFact() {}

func (f *FuncFact) String() string {
	var parts []string
	if w := f.Wait; w != nil {
		s := fmt.Sprintf("wait %s %s", w.Kind, w.Name)
		if w.Strict {
			s += " strict"
		}
		if w.Field != "" {
			s += " on ." + w.Field
		}
		switch w.Release.Kind {
		case ReleaseFunc:
			s += fmt.Sprintf(" release result %d", w.Release.Result)
		case ReleaseMethod:
			s += " release method " + w.Release.Method
		}
		parts = append(parts, s)
	}
	if s := f.Send; s != nil {
		parts = append(parts, fmt.Sprintf("send param %d on %s", s.Param, s.Chan))
	}
	if t := f.TrySend; t != nil {
		s := fmt.Sprintf("trysend param %d on %s", t.Param, t.Chan)
		if t.Blocking != "" {
			s += " blocking " + t.Blocking
		}
		if t.Err {
			s += " err"
		}
		parts = append(parts, s)
	}
	if p := f.Pause; p != nil {
		s := "pause " + p.Name
		if p.HonoursCtx {
			s += " ctx"
		}
		parts = append(parts, s)
	}
	if f.Timer != nil {
		parts = append(parts, f.Timer.String())
	}
	if f.Blocks {
		parts = append(parts, "blocks")
	}
	if f.NewEmpty {
		parts = append(parts, "newempty")
	}
	if f.Work {
		parts = append(parts, "work")
	}
	if f.Inner != nil {
		parts = append(parts, f.Inner.String())
	}
	if len(f.UnreadTimes) > 0 {
		parts = append(parts, fmt.Sprint("unread times ", f.UnreadTimes))
	}
	return strings.Join(parts, "; ")
}

func (f *FuncFact) empty() bool {
	return f.Wait == nil && f.Send == nil && f.TrySend == nil && f.Pause == nil && f.Timer == nil && !f.Blocks && !f.NewEmpty && !f.Work && f.Inner == nil && len(f.UnreadTimes) == 0
}

// unreadTimes returns the indices of fn's time.Time parameters that body
// never refers to.
func unreadTimes(info *types.Info, fn *types.Func, body ast.Node) []int {
	params := fn.Signature().Params()
	var times []*types.Var
	for i := range params.Len() {
		if code.IsTime(params.At(i).Type()) {
			times = append(times, params.At(i))
		}
	}
	if len(times) == 0 {
		return nil
	}
	read := make(map[*types.Var]bool)
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok {
				read[v] = true
			}
		}
		return true
	})
	var out []int
	for i := range params.Len() {
		if p := params.At(i); code.IsTime(p.Type()) && !read[p] {
			out = append(out, i)
		}
	}
	return out
}

// A decl is one declared function of the package with its cursor.
type decl struct {
	fn  *types.Func
	cur inspector.Cursor // the *ast.FuncDecl
}

// classifyAll computes the facts of the package's declared functions and of
// the function literals held in local variables, to a fixpoint: a helper
// that calls a helper is one too.
func (r *Result) classifyAll(decls []decl) {
	loose := r.Finder(Options{})
	strict := r.Finder(Options{Strict: true})
	lits := localLits(r.info, r.insp)
	r.litVars = lits
	// Each round can only add what a new fact of a callee reveals. Callees
	// go first (decls is in calleesFirst order), so a chain of helpers
	// calling helpers takes one round; the others follow calls through
	// interfaces and func values, and the bound keeps a pathological
	// package from looping long.
	for range 8 {
		changed := false
		for _, d := range decls {
			fd := d.cur.Node().(*ast.FuncDecl)
			body, _ := d.cur.FindNode(fd.Body)
			ff := r.classify(loose, strict, d.fn, body)
			if !sameFact(r.helpers[d.fn], ff) {
				r.helpers[d.fn] = ff
				changed = true
			}
		}
		for v, lit := range lits {
			body, _ := lit.FindNode(lit.Node().(*ast.FuncLit).Body)
			ff := r.classify(loose, strict, nil, body)
			if !sameFact(r.lits[v], ff) {
				r.lits[v] = ff
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	for fn, ff := range r.helpers {
		if ff == nil {
			delete(r.helpers, fn)
		}
	}
	for v, ff := range r.lits {
		if ff == nil {
			delete(r.lits, v)
		}
	}
}

// calleesFirst orders decls so that a function comes after the functions
// of the package it calls by name (a postorder of the static call graph;
// a cycle is cut where the walk meets it): classified in that order, a
// caller sees its callees' facts of the same round.
func calleesFirst(info *types.Info, pkg *types.Package, decls []decl) []decl {
	index := make(map[*types.Func]int, len(decls))
	for i, d := range decls {
		index[d.fn] = i
	}
	out := make([]decl, 0, len(decls))
	state := make([]uint8, len(decls)) // 0 unseen, 1 on the walk, 2 placed
	var visit func(i int)
	visit = func(i int) {
		state[i] = 1
		for c := range decls[i].cur.Preorder((*ast.CallExpr)(nil)) {
			if fn := code.Callee(info, c.Node().(*ast.CallExpr)); fn != nil && fn.Pkg() == pkg {
				if j, ok := index[fn]; ok && state[j] == 0 {
					visit(j)
				}
			}
		}
		state[i] = 2
		out = append(out, decls[i])
	}
	for i := range decls {
		if state[i] == 0 {
			visit(i)
		}
	}
	return out
}

func sameFact(a, b *FuncFact) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.String() == b.String()
}

// localLits returns the local variables that hold a function literal given
// at their declaration and never assigned again: acquire := func() {...}.
func localLits(info *types.Info, insp *inspector.Inspector) map[*types.Var]inspector.Cursor {
	lits := make(map[*types.Var]inspector.Cursor)
	assigned := make(map[*types.Var]int)
	for cur := range insp.Root().Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		for i, lhs := range as.Lhs {
			v := code.Var(info, lhs)
			if v == nil || !code.IsLocal(v) {
				continue
			}
			assigned[v]++
			if as.Tok == token.DEFINE && len(as.Lhs) == len(as.Rhs) {
				if _, ok := as.Rhs[i].(*ast.FuncLit); ok {
					lit, _ := cur.FindNode(as.Rhs[i])
					lits[v] = lit
				}
			}
		}
	}
	for v := range lits {
		if assigned[v] != 1 {
			delete(lits, v)
		}
	}
	return lits
}

// classify returns what the function fn with the given body is, or nil.
// fn is nil for a function literal.
func (r *Result) classify(loose, strict *Finder, fn *types.Func, body inspector.Cursor) *FuncFact {
	if !body.Valid() {
		return nil
	}
	ff := &FuncFact{}
	list := body.Node().(*ast.BlockStmt).List
	if w, i, isStrict, ok := mainWait(loose, strict, body); ok && r.onlyReturnsAfter(list, i, &w) {
		ff.Wait = r.waitHelper(fn, w, list)
		ff.Wait.Strict = isStrict || pairedByAPI(strict, w, ff.Wait)
	}
	if fn != nil {
		ff.Send = sendHelper(r.info, fn, list)
		ff.TrySend = r.trySendHelper(fn, body)
		if ff.TrySend == nil {
			ff.TrySend = r.tryEnqueuer(fn, body)
		}
		if isAcquireName(fn.Name()) {
			ff.Blocks = blocks(body.Node())
		}
		ff.Timer = r.timerOf(fn, body.Node().(*ast.BlockStmt))
		ff.NewEmpty = returnsNewEmpty(r.info, fn, list)
		ff.UnreadTimes = unreadTimes(r.info, fn, body.Node())
	}
	if p, i, ok := r.mainPause(body); ok && r.onlyReturnsAfter(list, i, nil) {
		ff.Pause = p
	}
	if ff.Wait == nil {
		// A local closure that waits and then works (withLimit := func()
		// error { limiter.incr(ctx); …; return propose(ctx) }) queues its
		// caller as a declared function does.
		ff.Inner = r.innerWait(strict, fn, body, list)
		if ff.Inner == nil && fn != nil && code.Holds(body, (*ast.SendStmt)(nil)) {
			ff.Inner = r.submitWait(strict, body, list)
		}
	}
	if ff.empty() {
		return nil
	}
	return ff
}

// mainWait returns the first admission wait on the main path of a body (a
// statement of its own list, an if statement's init or condition, a return's
// result), the index of the statement holding it, and whether there is one
// before the first statement that returns. Guards that return early (if c
// == nil { return nil }) may come before it: a function that waits on its
// main path is a wait for the caller that times or bounds it.
func mainWait(loose, strict *Finder, body inspector.Cursor) (w Wait, i int, isStrict, ok bool) {
	for st := range body.Children() {
		for _, cand := range heads(st) {
			if sw, ok := strict.At(cand); ok {
				return sw, i, true, true
			}
			if w, ok := loose.At(cand); ok && w.Blocking() {
				return w, i, false, true
			}
		}
		if _, ok := st.Node().(*ast.ReturnStmt); ok {
			break
		}
		i++
	}
	return Wait{}, 0, false, false
}

// heads returns the cursors of the expressions a statement evaluates first,
// where a wait makes the statement a wait: the call or receive of an
// expression statement, an assignment or a return; a send; an if statement's
// init and condition; and a select (or, to the loose finder, its cases).
func heads(st inspector.Cursor) []inspector.Cursor {
	var out []inspector.Cursor
	switch n := st.Node().(type) {
	case *ast.ExprStmt:
		c, _ := st.FindNode(n.X)
		out = append(out, unparen(c))
	case *ast.SendStmt:
		out = append(out, st)
	case *ast.AssignStmt:
		if len(n.Rhs) == 1 {
			c, _ := st.FindNode(n.Rhs[0])
			out = append(out, unparen(c))
		}
	case *ast.ReturnStmt:
		for c := range st.Children() {
			out = append(out, unparen(c))
		}
	case *ast.IfStmt:
		if n.Init != nil {
			init, _ := st.FindNode(n.Init)
			out = append(out, heads(init)...)
		}
		cond, _ := st.FindNode(n.Cond)
		out = append(out, condHead(cond))
	case *ast.ForStmt:
		// for i := 0; i < n; i++ { s.slots <- struct{}{} }: a counting
		// loop of one statement takes n slots (a bounded WaitGroup's
		// Add(n)).
		if n.Init != nil && n.Cond != nil && n.Post != nil && len(n.Body.List) == 1 {
			body, _ := st.FindNode(n.Body.List[0])
			out = append(out, heads(body)...)
		}
		// for { select { case t.slots <- struct{}{}: return nil; case err
		// := <-t.errs: … } }: an endless loop that starts with a blocking
		// select, one of whose sends leaves the function, takes a slot at
		// its first round and goes round only on the other cases.
		if sel := acquireLoopSelect(n); sel != nil {
			c, _ := st.FindNode(sel)
			out = append(out, heads(c)...)
		}
	case *ast.SelectStmt:
		out = append(out, st)
		for cc := range st.Preorder((*ast.CommClause)(nil)) {
			comm := cc.Node().(*ast.CommClause).Comm
			if comm == nil {
				continue
			}
			c, _ := cc.FindNode(comm)
			if _, ok := comm.(*ast.SendStmt); ok {
				out = append(out, c)
			} else if u := commReceive(comm); u != nil {
				rc, _ := c.FindNode(u)
				out = append(out, rc)
			}
		}
	}
	return out
}

// acquireLoopSelect returns the select an endless loop starts with, when
// the select blocks (it has no default) and one of its cases is a send that
// returns from the function. The other cases (an error to hand back, a
// signal to note) go round to the same select, so the first thing the loop
// waits for is the slot.
func acquireLoopSelect(loop *ast.ForStmt) *ast.SelectStmt {
	if loop.Init != nil || loop.Cond != nil || loop.Post != nil || len(loop.Body.List) == 0 {
		return nil
	}
	sel, ok := loop.Body.List[0].(*ast.SelectStmt)
	if !ok || code.HasDefault(sel) {
		return nil
	}
	for _, st := range sel.Body.List {
		cc := st.(*ast.CommClause)
		if _, send := cc.Comm.(*ast.SendStmt); send && code.Terminates(cc.Body, false) {
			return sel
		}
	}
	return nil
}

// condHead returns the call or receive an if condition starts with:
// sem.Acquire(ctx, 1) != nil, !ok, <-ch == nil.
func condHead(cur inspector.Cursor) inspector.Cursor {
	for {
		switch n := cur.Node().(type) {
		case *ast.ParenExpr:
			cur, _ = cur.FindNode(n.X)
		case *ast.BinaryExpr:
			cur, _ = cur.FindNode(n.X)
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				return cur
			}
			cur, _ = cur.FindNode(n.X)
		default:
			return cur
		}
	}
}

func unparen(cur inspector.Cursor) inspector.Cursor {
	for {
		p, ok := cur.Node().(*ast.ParenExpr)
		if !ok {
			return cur
		}
		cur, _ = cur.FindNode(p.X)
	}
}

// onlyReturnsAfter reports whether the statements of list after the one at
// index i do nothing but bookkeeping and return: error checks that return,
// counting, logging, storing call-free values, locking a mutex around them,
// taking another slot of the wait's own kind and giving back one taken
// (acquiresAgain). A helper that works after its wait is not a wait: its
// callers would see the work as part of the wait. When the wait sits in an
// if statement's init or condition, the if's body must only return too. w
// is nil for a pause.
func (r *Result) onlyReturnsAfter(list []ast.Stmt, i int, w *Wait) bool {
	var again func(*types.Func) bool
	if w != nil {
		again = r.acquiresAgain(*w)
		if ifs, ok := list[i].(*ast.IfStmt); ok && w.Node != nil && (ifs.Init != nil && code.Inside(w.Node.Pos(), ifs.Init) || code.Inside(w.Node.Pos(), ifs.Cond)) {
			if ifs.Else != nil || !r.bookkeeping(ifs.Body.List, again) {
				return false
			}
		}
	}
	return r.bookkeeping(list[i+1:], again)
}

// acquiresAgain returns, for a wait that calls a method, whether a call of
// a function takes another slot the same way (the same method) or gives one
// back (the wait's release method, or a Release or Unlock of the same
// type): a helper that takes two locks, a key's and its parent's, and
// gives the first back when the second fails, waits as a whole and does
// no work. Nil for any other wait.
func (r *Result) acquiresAgain(w Wait) func(*types.Func) bool {
	call, ok := w.Node.(*ast.CallExpr)
	if !ok {
		return nil
	}
	acquire := code.CalleeFunc(r.info, call)
	if acquire == nil || code.Recv(acquire) == nil {
		return nil
	}
	recv := code.NamedOf(code.Recv(acquire))
	return func(fn *types.Func) bool {
		if fn.Origin() == acquire.Origin() {
			return true
		}
		// A generic lock's instances are distinct types: compare origins.
		same := code.NamedOf(code.Recv(fn))
		if recv == nil || same == nil || same.Origin() != recv.Origin() {
			return false
		}
		switch fn.Name() {
		case w.Release.Method, "Release", "Unlock":
			return true
		}
		return false
	}
}

// bookkeeping reports whether stmts only return, check errors, count, log,
// store call-free values or lock around that, calling besides only the
// functions that also allows (nil: none).
func (r *Result) bookkeeping(stmts []ast.Stmt, also func(*types.Func) bool) bool {
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.ReturnStmt:
			for _, res := range st.Results {
				if !IsCheap(r.info, res) {
					return false
				}
			}
		case *ast.IfStmt:
			if st.Init != nil && !r.bookkeeping([]ast.Stmt{st.Init}, also) || !code.CallFree(r.info, also, st.Cond) || !r.bookkeeping(st.Body.List, also) {
				return false
			}
			if st.Else != nil {
				switch e := st.Else.(type) {
				case *ast.BlockStmt:
					if !r.bookkeeping(e.List, also) {
						return false
					}
				default:
					if !r.bookkeeping([]ast.Stmt{e}, also) {
						return false
					}
				}
			}
		case *ast.AssignStmt:
			if !code.CallFree(r.info, also, st.Rhs...) {
				return false
			}
		case *ast.IncDecStmt, *ast.EmptyStmt:
		case *ast.ExprStmt:
			if !sendselect.IsCount(r.info, st) && !sendselect.IsLog(r.info, st) && !isLockCall(r.info, st.X) && !isWaitGroupCount(r.info, st.X) && !code.CallFree(r.info, also, st.X) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// IsCheap reports whether a returned value is computed without work: a
// call-free expression, a function literal (a release), ctx.Err() or any
// Err() without arguments, or an error built by errors or fmt.Errorf from
// call-free arguments.
func IsCheap(info *types.Info, e ast.Expr) bool {
	if _, ok := ast.Unparen(e).(*ast.FuncLit); ok {
		return true
	}
	if code.CallFree(info, nil, e) {
		return true
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := code.CalleeFunc(info, call)
	if fn == nil {
		return false
	}
	if fn.Name() == "Err" && len(call.Args) == 0 {
		return true
	}
	return fn.Pkg() != nil && (fn.Pkg().Path() == "errors" || code.IsFunc(fn, "fmt", "Errorf")) && code.CallFree(info, nil, call.Args...)
}

// isWaitGroupCount reports whether x is wg.Add(n) or wg.Done() on a
// sync.WaitGroup: counting what runs, not work (a bounded WaitGroup's Add
// takes its slot and then counts).
func isWaitGroupCount(info *types.Info, x ast.Expr) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := code.Callee(info, call)
	return code.IsMethod(fn, "sync", "WaitGroup", "Add") || code.IsMethod(fn, "sync", "WaitGroup", "Done")
}

func isLockCall(info *types.Info, x ast.Expr) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := code.CalleeFunc(info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	switch fn.Name() {
	case "Lock", "Unlock", "RLock", "RUnlock":
		return true
	}
	return false
}

// waitHelper describes the wait w, found on the main path of fn's body.
func (r *Result) waitHelper(fn *types.Func, w Wait, list []ast.Stmt) *WaitHelper {
	h := &WaitHelper{Kind: w.Kind, Name: w.Name, Release: w.Release}
	if w.Via != nil {
		if inner := r.Helper(w.Via); inner != nil && inner.Wait != nil {
			h.Name = inner.Wait.Name
		}
	}
	if fn == nil {
		return h
	}
	recv := fn.Signature().Recv()
	if w.On != nil && w.On.IsField() && recv != nil && onReceiver(r.info, w.Node, recv) {
		h.Field = w.On.Name()
	}
	if k, ok := returnedRelease(r.info, fn, list); ok {
		h.Release = Release{Kind: ReleaseFunc, Result: k}
	} else if h.Field != "" && w.Release.Kind != NoRelease && w.Release.Kind != ReleaseAuto {
		if m := r.releaseMethod(fn, w.On, w.Release.Kind); m != "" {
			h.Release = Release{Kind: ReleaseMethod, Method: m}
		}
	}
	return h
}

// pairedByAPI reports whether a semaphore or token channel that one
// function does not both acquire and release is paired by its API: the helper
// acquires and hands back a release, or a method of its type releases. That
// is a semaphore, not a completion signal, unless it has one slot (a mutex).
func pairedByAPI(strict *Finder, w Wait, h *WaitHelper) bool {
	if (w.Kind != SemaphoreChan && w.Kind != TokenChan) || w.On == nil {
		return false
	}
	if h.Release.Kind != ReleaseFunc && h.Release.Kind != ReleaseMethod {
		return false
	}
	return strict.notMutex(strict.r.chanFacts(), w.On)
}

// onReceiver reports whether the wait node operates on a field of the
// receiver recv: p.sem.Acquire(ctx, 1), p.sem <- struct{}{}, <-p.tokens.
func onReceiver(info *types.Info, n ast.Node, recv *types.Var) bool {
	var x ast.Expr
	switch n := n.(type) {
	case *ast.CallExpr:
		if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
			x = sel.X
		}
	case *ast.SendStmt:
		x = n.Chan
	case *ast.UnaryExpr:
		x = n.X
	case *ast.SelectStmt:
		return true // the case's channel was checked by the finder
	}
	// p.sem.Acquire(ctx, 1); or p.enter(), a helper that waits on p's field.
	if sel, ok := ast.Unparen(x).(*ast.SelectorExpr); ok {
		x = sel.X
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	return ok && info.Uses[id] == recv
}

// returnedRelease reports whether fn returns a func() that releases: the
// index of a func() result that the final return fills with a function
// literal or a method value.
func returnedRelease(info *types.Info, fn *types.Func, list []ast.Stmt) (int, bool) {
	res := fn.Signature().Results()
	k := -1
	for i := range res.Len() {
		if sig, ok := res.At(i).Type().Underlying().(*types.Signature); ok && sig.Params().Len() == 0 && sig.Results().Len() == 0 {
			k = i
		}
	}
	if k < 0 || len(list) == 0 {
		return 0, false
	}
	ret, ok := list[len(list)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != res.Len() {
		return 0, false
	}
	switch e := ast.Unparen(ret.Results[k]).(type) {
	case *ast.FuncLit:
		return k, true
	case *ast.SelectorExpr:
		_, ok := info.Uses[e.Sel].(*types.Func)
		return k, ok
	case *ast.Ident:
		return k, !isNilIdent(info, e)
	}
	return 0, false
}

func isNilIdent(info *types.Info, id *ast.Ident) bool {
	_, ok := info.Uses[id].(*types.Nil)
	return ok
}

// releaseMethod returns the name of a short method of fn's receiver type,
// other than fn, that gives back a slot of on the way the wait's release
// kind says: p.sem.Release(1), <-p.slots, p.tokens <- tok. A long method
// that releases on the way out (defer p.sem.Release(1) after its work) is
// not the pair of an acquire.
func (r *Result) releaseMethod(fn *types.Func, on *types.Var, kind ReleaseKind) string {
	n := code.NamedOf(fn.Signature().Recv().Type())
	if n == nil {
		return ""
	}
	for m := range n.Origin().Methods() {
		d := r.productionDecl(m)
		if m == fn.Origin() || d == nil || d.Body == nil || len(d.Body.List) > 3 {
			continue
		}
		if releases(r.info, d.Body, on, kind) {
			return m.Name()
		}
	}
	return ""
}

// releases reports whether body gives back a slot of the limiter in on, the
// way kind says.
func releases(info *types.Info, body *ast.BlockStmt, on *types.Var, kind ReleaseKind) bool {
	return code.AnyNode(body, code.IsFuncLit, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			return ok && kind == ReleaseCall && code.Var(info, sel.X) == on && knowledge.ReleaseMethods.Has(sel.Sel.Name)
		case *ast.ExprStmt:
			u, ok := ast.Unparen(n.X).(*ast.UnaryExpr)
			return ok && kind == ReleaseRecv && u.Op == token.ARROW && code.Var(info, u.X) == on
		case *ast.SendStmt:
			return kind == ReleaseSend && code.Var(info, n.Chan) == on
		}
		return false
	})
}

// mainPause returns the pause on the main path of a body, the index of its
// statement, and whether there is one: time.Sleep, a receive from a timer, a
// select that waits for a timer (and perhaps ctx.Done()), a backoff wait, or
// a call of a function that pauses.
func (r *Result) mainPause(body inspector.Cursor) (*PauseHelper, int, bool) {
	i := 0
	list := body.Node().(*ast.BlockStmt).List
	for st := range body.Children() {
		if p := r.pauseStmt(st); p != nil {
			return p, i, true
		}
		// The last statement may return from its timer case too.
		if sel, ok := st.Node().(*ast.SelectStmt); ok && i == len(list)-1 {
			var p sendselect.Path
			if sendselect.IsTimedWaitAtEnd(r.info, sel, &p) {
				return &PauseHelper{Name: "a timer", HonoursCtx: p.HonoursCtx}, i, true
			}
		}
		if _, ok := st.Node().(*ast.ReturnStmt); ok {
			break
		}
		i++
	}
	return nil, 0, false
}

// timerOf returns how fn measures time for its callers. What its body
// does with the clock is read once, and reused by every round of
// classifyAll; a function that starts a timer through another starter
// (startsThrough) is asked again each round, since its callee's fact may
// come in a later one (an interface method's, from classifyInterfaces).
func (r *Result) timerOf(fn *types.Func, body *ast.BlockStmt) *timing.Helper {
	h, done := r.timers[fn]
	if !done {
		h = timing.HelperOf(r.info, fn, body)
		r.timers[fn] = h
	}
	if h == nil {
		return r.startsThrough(fn, body)
	}
	return h
}

// startsThrough returns the timer fn starts when each of its returns hands
// back, as its first result, a timer that a call of another starter of
// fn's first result type started, in the same field: a scope's StartTimer
// that returns NewStopwatch(timers...) picked by a switch starts a
// stopwatch as NewStopwatch does. One return of a timer started earlier
// (a field's) and fn starts none.
func (r *Result) startsThrough(fn *types.Func, body *ast.BlockStmt) *timing.Helper {
	// Asked each round: only a result that can be a timer is worth a walk
	// (not the error most functions return).
	res := fn.Signature().Results()
	if res.Len() == 0 || !timing.HasTimeField(res.At(0).Type()) {
		return nil
	}
	field := ""
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			f := r.startedBy(n, res.At(0).Type())
			ok = f != "" && (field == "" || f == field)
			field = f
		}
		return ok
	})
	if !ok || field == "" {
		return nil
	}
	return &timing.Helper{Starts: field}
}

// startedBy returns the field of the timer that the first result of ret
// starts, a call of a starter of type t, or "".
func (r *Result) startedBy(ret *ast.ReturnStmt, t types.Type) string {
	if len(ret.Results) == 0 {
		return ""
	}
	call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok || !types.Identical(r.info.TypeOf(call), t) {
		return ""
	}
	if h, _ := r.HelperCall(call); h != nil && h.Timer != nil {
		return h.Timer.Starts
	}
	return ""
}

// PauseAt returns what the statement at st pauses for, when it only pauses:
// a sleep, a receive from a timer, a select that waits for a timer (and
// perhaps ctx.Done()), a backoff's Wait or Sleep, a call of a function
// that pauses, or nil.
func (r *Result) PauseAt(st inspector.Cursor) *PauseHelper { return r.pauseStmt(st) }

func (r *Result) pauseStmt(st inspector.Cursor) *PauseHelper {
	switch n := st.Node().(type) {
	case *ast.SelectStmt:
		var p sendselect.Path
		if sendselect.IsTimedWait(r.info, n, &p) {
			return &PauseHelper{Name: "a timer", HonoursCtx: p.HonoursCtx}
		}
	case *ast.ExprStmt:
		switch x := ast.Unparen(n.X).(type) {
		case *ast.CallExpr:
			fn := code.CalleeFunc(r.info, x)
			switch {
			case code.IsFunc(fn, "time", "Sleep"):
				return &PauseHelper{Name: "time.Sleep"}
			case fn != nil && isBackoffWait(fn):
				return &PauseHelper{Name: code.DisplayName(fn), HonoursCtx: code.TakesContext(fn)}
			}
			if h, _ := r.HelperCall(x); h != nil && h.Pause != nil {
				return h.Pause
			}
		case *ast.UnaryExpr:
			if x.Op == token.ARROW && sendselect.IsTimerChan(r.info, x.X) {
				return &PauseHelper{Name: "a timer"}
			}
		}
	case *ast.ReturnStmt:
		if len(n.Results) == 1 {
			if call, ok := ast.Unparen(n.Results[0]).(*ast.CallExpr); ok {
				fn := code.CalleeFunc(r.info, call)
				if fn != nil && isBackoffWait(fn) {
					return &PauseHelper{Name: code.DisplayName(fn), HonoursCtx: code.TakesContext(fn)}
				}
				if h, _ := r.HelperCall(call); h != nil && h.Pause != nil {
					return h.Pause
				}
			}
		}
	}
	return nil
}

// returnsNewEmpty reports whether fn returns one slice and its body is
// only the return of a new empty one: make with a zero length, nil, or a
// composite literal without elements.
func returnsNewEmpty(info *types.Info, fn *types.Func, list []ast.Stmt) bool {
	res := fn.Signature().Results()
	if len(list) != 1 || res.Len() != 1 {
		return false
	}
	if _, ok := res.At(0).Type().Underlying().(*types.Slice); !ok {
		return false
	}
	ret, ok := list[0].(*ast.ReturnStmt)
	return ok && len(ret.Results) == 1 && IsEmptySlice(info, ret.Results[0])
}

// IsEmptySlice reports whether e is a new empty slice: nil, x[:0], make
// with a zero length, or a composite literal without elements.
func IsEmptySlice(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return code.IsNil(info, e)
	case *ast.SliceExpr:
		return e.Low == nil && e.High != nil && isZero(info, e.High)
	case *ast.CompositeLit:
		return len(e.Elts) == 0
	case *ast.CallExpr:
		return code.BuiltinName(info, e) == "make" && len(e.Args) >= 2 && isZero(info, e.Args[1])
	}
	return false
}

func isZero(info *types.Info, e ast.Expr) bool {
	n, ok := consts.Int(info, e)
	return ok && n == 0
}

// isAcquireName reports whether a method name is one an acquire-shaped
// method has.
func isAcquireName(name string) bool {
	return isAcquireVariant(name) || name == "Take"
}

// blocks reports whether a function body can block: a channel operation, a
// select, or a call of a Wait, WaitN, Acquire or Lock method.
func blocks(body ast.Node) bool {
	return code.AnyNode(body, nil, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt, *ast.SelectStmt:
			return true
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				return true
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				if knowledge.BlockingMethods.Has(sel.Sel.Name) {
					return true
				}
			}
		}
		return false
	})
}
