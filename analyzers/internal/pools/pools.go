// Package pools recognises bounded pools of work and the tasks submitted to
// them. A pool is identified by the variable or struct field that holds it (its
// *types.Var, the generic origin for fields of generic types), so a pool in a
// field is one pool across every method that uses it, and two pools in one
// function stay apart.
//
// Four shapes are pools:
//
//   - a *semaphore.Weighted: a task is the code between Acquire (or a
//     successful TryAcquire) and Release;
//   - an errgroup.Group on which SetLimit is called: a task is a function
//     passed to Go or TryGo;
//   - a channel used as a semaphore in either direction: a send that acquires
//     and a receive that releases (sem <- struct{}{} … <-sem), or a receive
//     from a pre-filled token channel that acquires and a send that gives the
//     token back; the operations must pair up in the task, or the channel is a
//     queue;
//   - workers that receive tasks from a channel and run them: for f := range ch
//     { f() }, a select receive in a loop, jobs whose interface method or func
//     field the worker calls; a task is what is sent on the channel. Workers
//     that receive data and decide what to do from it (a switch on a field or
//     on the type of the value, or interface methods called in the loop body)
//     are a pool too: its [Data] holds the branches.
//
// A task's code is what runs while it holds a slot of the pool: work before
// the acquire or after the release is not part of it, nor is a goroutine that
// the task starts without handing it the release.
package pools

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
)

// Kind is how a pool bounds its tasks.
type Kind int

const (
	Semaphore Kind = iota + 1 // *semaphore.Weighted
	Group                     // errgroup.Group with SetLimit
	TokenChan                 // a buffered channel used as a semaphore
	Workers                   // workers receiving tasks from a channel
)

// A Pool is one bounded pool and the tasks submitted to it in the package.
type Pool struct {
	Obj   *types.Var // the variable or field holding the pool
	Kind  Kind
	Tasks []*Task

	// RecvAcquire is set for a pre-filled token channel: acquiring receives a
	// token and releasing sends it back.
	RecvAcquire bool

	// Via is the helper that acquires a slot of a pool kept behind an API
	// (release, err := p.Acquire(ctx)), or nil.
	Via *types.Func

	// Limit is the size given where the pool is created (NewWeighted's
	// argument, make's capacity, SetLimit's argument), or nil if not seen.
	Limit ast.Expr

	// Inits are the calls that create the pool (semaphore.NewWeighted,
	// make(chan ...)) or, for a Group, the SetLimit calls.
	Inits []inspector.Cursor
	// Waits are a Group's Wait calls.
	Waits []inspector.Cursor
	// Closes are the close(ch) calls of a channel pool.
	Closes []inspector.Cursor
	// Fills are the sends that put tokens into a RecvAcquire channel.
	Fills []inspector.Cursor
	// Starts are the statements that start the workers of a Workers pool
	// (a go statement, or a call of a WaitGroup's or a Group's Go), each with
	// the function literal it runs; StartsKnown reports whether every worker
	// loop was found in one of them.
	Starts      []inspector.Cursor
	StartsKnown bool

	// Data is set for workers that dispatch on the data they receive.
	Data *Data
}

// A Task is one submission of work to a pool.
type Task struct {
	// Submit is where the task enters the pool: the Acquire or TryAcquire
	// call, the Go or TryGo call, the acquiring send or receive, or the send
	// of the task to the workers.
	Submit ast.Node
	// Refs are the identifiers naming the pool in the submission and in the
	// task's release (the field name of a selector), which a fix renames to
	// move the task to another pool.
	Refs []*ast.Ident
	// Routable reports whether Refs cover every release of the task.
	Routable bool
	// Branch is, for workers that dispatch on data, the branch the value
	// sent selects, or nil when the send does not tell.
	Branch *Branch
	// Iface is the interface method the workers call on the value sent when
	// its type is an interface: one of its implementations runs.
	Iface *types.Func
	// Body is the code that runs while the task holds its slot: statements,
	// or the body of a function literal.
	Body []ast.Node
	// Funcs are the declared functions that run as the task.
	Funcs []*types.Func
}

// Find returns the pools of the package and their tasks, in source order,
// looking only at the files for which skip returns false. adm answers which
// errgroups have a limit.
func Find(pass *analysis.Pass, insp *inspector.Inspector, adm *admission.Finder, skip func(*ast.File) bool) []*Pool {
	f := &finder{pass: pass, info: pass.TypesInfo, adm: adm, uses: make(map[*types.Var]*uses), helpers: adm.HasWaitHelpers()}
	for file := range insp.Root().Children() {
		if !skip(file.Node().(*ast.File)) {
			f.collect(file)
		}
	}
	return f.pools()
}

// uses are the operations on one candidate pool variable.
type uses struct {
	obj                                *types.Var
	first                              token.Pos
	acquires, releases                 []inspector.Cursor // semaphore.Weighted calls
	setLimits, gos, waits              []inspector.Cursor // errgroup calls
	sends, recvs, closes, inits, loops []inspector.Cursor
	dispatch                           map[inspector.Cursor]dispatch // worker loop → how it runs a task
	// helperAcq are the acquires through a helper that waits (a fact),
	// with what the helper says about its release.
	helperAcq map[inspector.Cursor]*admission.WaitHelper
}

type finder struct {
	pass *analysis.Pass
	info *types.Info
	adm  *admission.Finder
	uses map[*types.Var]*uses
	// paramWorkers are worker loops over a function's parameter, keyed by
	// the function; goCalls are the go statements calling a declared function.
	paramWorkers map[*types.Func][]paramWorker
	goCalls      []inspector.Cursor
	// methodCalls are the method calls on variables and fields, and
	// stored the calls whose result is stored in one: the release methods
	// and constructors of pools behind helpers, matched once those are
	// known. Recorded only when the package can see such a helper.
	helpers     bool
	methodCalls []inspector.Cursor
	stored      map[*types.Var][]inspector.Cursor
	// decls are the package's function declarations, once a worker hands
	// what it receives to a function.
	decls map[*types.Func]*ast.FuncDecl
}

type paramWorker struct {
	index int
	loop  inspector.Cursor
	d     dispatch
}

func (f *finder) use(obj *types.Var, pos token.Pos) *uses {
	u := f.uses[obj]
	if u == nil {
		u = &uses{obj: obj, first: pos}
		f.uses[obj] = u
	}
	return u
}

// collect records the operations on candidate pools in one file.
func (f *finder) collect(file inspector.Cursor) {
	nodeTypes := []ast.Node{(*ast.CallExpr)(nil), (*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.RangeStmt)(nil), (*ast.GoStmt)(nil)}
	for cur := range file.Preorder(nodeTypes...) {
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			f.call(cur, n)
		case *ast.SendStmt:
			if obj, _ := f.chanVar(n.Chan); obj != nil {
				u := f.use(obj, n.Pos())
				u.sends = append(u.sends, cur)
			}
		case *ast.UnaryExpr:
			if n.Op != token.ARROW {
				break
			}
			if obj, _ := f.chanVar(n.X); obj != nil {
				u := f.use(obj, n.Pos())
				u.recvs = append(u.recvs, cur)
				if v, body := selectReceive(f.info, cur); v != nil {
					f.workerLoop(cur, n.X, v, body)
				}
			}
		case *ast.RangeStmt:
			if id, ok := n.Key.(*ast.Ident); ok && code.IsChan(f.info.TypeOf(n.X)) {
				f.workerLoop(cur, n.X, f.identVar(id), n.Body)
			}
		case *ast.GoStmt:
			if fn := code.Callee(f.info, n.Call); fn != nil && fn.Pkg() == f.pass.Pkg {
				f.goCalls = append(f.goCalls, cur)
			}
		}
	}
}

// call records a call that creates, acquires, releases, limits or feeds a pool.
func (f *finder) call(cur inspector.Cursor, call *ast.CallExpr) {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := f.info.Uses[id].(*types.Builtin); ok {
			switch {
			case b.Name() == "make" && len(call.Args) >= 1 && code.IsChan(f.info.TypeOf(call.Args[0])):
				if obj := f.assignedVar(cur); obj != nil {
					u := f.use(obj, call.Pos())
					u.inits = append(u.inits, cur)
				}
			case b.Name() == "close" && len(call.Args) == 1:
				if obj, _ := f.chanVar(call.Args[0]); obj != nil {
					u := f.use(obj, call.Pos())
					u.closes = append(u.closes, cur)
				}
			}
		}
		return
	}
	fn := code.Callee(f.info, call)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	switch fn.Pkg().Path() {
	case code.SemaphorePath:
		if fn.Name() == "NewWeighted" {
			if obj := f.assignedVar(cur); obj != nil {
				u := f.use(obj, call.Pos())
				u.inits = append(u.inits, cur)
			}
			return
		}
		obj, _ := f.receiverVar(call)
		if obj == nil {
			return
		}
		u := f.use(obj, call.Pos())
		switch fn.Name() {
		case "Acquire", "TryAcquire":
			u.acquires = append(u.acquires, cur)
		case "Release":
			u.releases = append(u.releases, cur)
		}
	case code.ErrgroupPath:
		obj, _ := f.receiverVar(call)
		if obj == nil {
			return
		}
		u := f.use(obj, call.Pos())
		switch fn.Name() {
		case "SetLimit":
			u.setLimits = append(u.setLimits, cur)
		case "Go", "TryGo":
			u.gos = append(u.gos, cur)
		case "Wait":
			u.waits = append(u.waits, cur)
		}
	default:
		if f.helpers {
			f.helperCall(cur, call)
		}
	}
}

// helperCall records a call that acquires a slot through a helper (a
// function that waits and hands back a release, as its admission fact says),
// a method call that may release one, or a call whose result is stored (a
// constructor of such a pool).
func (f *finder) helperCall(cur inspector.Cursor, call *ast.CallExpr) {
	if obj := f.assignedVar(cur); obj != nil {
		if f.stored == nil {
			f.stored = make(map[*types.Var][]inspector.Cursor)
		}
		f.stored[obj] = append(f.stored[obj], cur)
	}
	obj, _ := f.receiverVar(call)
	if obj == nil {
		return
	}
	h, _ := f.adm.Helper(call)
	if h == nil || h.Wait == nil || !holdsSlot(h.Wait) {
		f.methodCalls = append(f.methodCalls, cur)
		return
	}
	u := f.use(obj, call.Pos())
	u.acquires = append(u.acquires, cur)
	if u.helperAcq == nil {
		u.helperAcq = make(map[inspector.Cursor]*admission.WaitHelper)
	}
	u.helperAcq[cur] = h.Wait
}

// holdsSlot reports whether a helper's wait takes a slot that its caller
// gives back: a release it returns, or a release method beside it.
func holdsSlot(w *admission.WaitHelper) bool {
	switch w.Kind {
	case admission.Semaphore, admission.SemaphoreChan, admission.TokenChan, admission.Gate:
		return w.Release.Kind == admission.ReleaseFunc || w.Release.Kind == admission.ReleaseMethod
	}
	return false
}

// pools turns the recorded operations into pools with their tasks.
func (f *finder) pools() []*Pool {
	f.resolveParamWorkers()
	all := make([]*uses, 0, len(f.uses))
	for _, u := range f.uses {
		all = append(all, u)
	}
	slices.SortFunc(all, func(a, b *uses) int { return int(a.first - b.first) })
	var out []*Pool
	for _, u := range all {
		var p *Pool
		switch {
		case len(u.acquires) > 0:
			p = f.semaphore(u)
		case len(u.setLimits) > 0, len(u.gos) > 0 && f.adm.IsLimitedGroup(u.obj):
			// The limit may be set on a local the group was stored from
			// (g.SetLimit(n); return &T{g: g}).
			p = f.group(u)
		case len(u.loops) > 0:
			p = f.workers(u)
		case len(u.sends) > 0 && len(u.recvs) > 0:
			p = f.tokenChan(u)
		}
		// Workers that dispatch on data are known by their branches even
		// when what feeds them is sent elsewhere.
		if p != nil && (len(p.Tasks) > 0 || p.Data != nil) {
			out = append(out, p)
		}
	}
	return out
}

func (f *finder) semaphore(u *uses) *Pool {
	if len(u.helperAcq) > 0 {
		return f.helperPool(u)
	}
	p := &Pool{Obj: u.obj, Kind: Semaphore, Inits: u.inits, Limit: firstArg(u.inits, 0)}
	rel := releasesOf(u.releases, func(c inspector.Cursor) *ast.Ident {
		_, id := f.receiverVar(c.Node().(*ast.CallExpr))
		return id
	})
	for _, acq := range u.acquires {
		_, ref := f.receiverVar(acq.Node().(*ast.CallExpr))
		if t := f.region(acq, ref, rel, false); t != nil {
			p.Tasks = append(p.Tasks, t)
		}
	}
	return p
}

// helperPool builds a pool whose slots are taken through helpers: release,
// err := s.pool.Acquire(ctx) … release(), or s.pool.Enter(ctx) …
// s.pool.Leave(). It is created where a call's result of the pool's type is
// stored in it (helpers.NewPool(n)).
func (f *finder) helperPool(u *uses) *Pool {
	p := &Pool{Obj: u.obj, Kind: Semaphore}
	for _, acq := range u.acquires {
		h := u.helperAcq[acq]
		if h == nil {
			return nil // the same variable acquired in two ways: not a pool we understand
		}
		call := acq.Node().(*ast.CallExpr)
		_, ref := f.receiverVar(call)
		var rel []release
		switch h.Release.Kind {
		case admission.ReleaseMethod:
			for _, c := range f.methodCalls {
				mc := c.Node().(*ast.CallExpr)
				if obj, id := f.receiverVar(mc); obj == u.obj && ast.Unparen(mc.Fun).(*ast.SelectorExpr).Sel.Name == h.Release.Method {
					rel = append(rel, release{mc, id})
				}
			}
		case admission.ReleaseFunc:
			rel = f.releaseFuncCalls(acq, h.Release.Result)
		}
		if _, fn := f.adm.Helper(call); p.Via == nil {
			p.Via = fn
		}
		if t := f.region(acq, ref, rel, false); t != nil {
			p.Tasks = append(p.Tasks, t)
		}
	}
	for _, c := range f.stored[u.obj] {
		if t := f.info.TypeOf(c.Node().(*ast.CallExpr)); t != nil && types.Identical(t, u.obj.Type()) {
			p.Inits = append(p.Inits, c)
		}
	}
	return p
}

// releaseFuncCalls returns the calls of the release func that the acquire at
// acq returns as result k and its statement stores in a local variable:
// release() and defer release() in the acquiring function. They name no
// pool: the sibling's acquire returns the sibling's release.
func (f *finder) releaseFuncCalls(acq inspector.Cursor, k int) []release {
	as, ok := acq.Parent().Node().(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || k >= len(as.Lhs) {
		return nil
	}
	v, _ := f.info.ObjectOf(lhsIdent(as.Lhs[k])).(*types.Var)
	if v == nil {
		return nil
	}
	fn := code.EnclosingFunc(acq)
	if !fn.Valid() {
		return nil
	}
	var rel []release
	for c := range fn.Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && f.info.Uses[id] == v && len(call.Args) == 0 {
			rel = append(rel, release{node: call})
		}
	}
	return rel
}

func lhsIdent(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	if id == nil {
		return &ast.Ident{}
	}
	return id
}

func (f *finder) group(u *uses) *Pool {
	// SetLimit(-1) removes the limit: such a group is no pool.
	if !f.adm.IsLimitedGroup(u.obj) {
		return nil
	}
	p := &Pool{Obj: u.obj, Kind: Group, Inits: u.setLimits, Waits: u.waits, Limit: firstArg(u.setLimits, 0)}
	for _, c := range u.gos {
		call := c.Node().(*ast.CallExpr)
		if len(call.Args) != 1 {
			continue
		}
		_, ref := f.receiverVar(call)
		t := &Task{Submit: call, Refs: []*ast.Ident{ref}, Routable: true}
		f.funcTask(t, call.Args[0])
		p.Tasks = append(p.Tasks, t)
	}
	return p
}

func (f *finder) tokenChan(u *uses) *Pool {
	if isUnbuffered(f.info, u.inits) {
		return nil
	}
	p := &Pool{Obj: u.obj, Kind: TokenChan, Inits: u.inits, Closes: u.closes, Limit: firstArg(u.inits, 1)}
	// Send to acquire, receive (the value discarded) to release.
	discards := releasesOf(u.recvs, func(c inspector.Cursor) *ast.Ident {
		if _, ok := c.Parent().Node().(*ast.ExprStmt); !ok {
			return nil
		}
		_, id := f.chanVar(c.Node().(*ast.UnaryExpr).X)
		return id
	})
	for _, s := range u.sends {
		_, ref := f.chanVar(s.Node().(*ast.SendStmt).Chan)
		if t := f.region(s, ref, discards, true); t != nil {
			p.Tasks = append(p.Tasks, t)
		}
	}
	if len(p.Tasks) > 0 {
		return p
	}
	// Receive a token to acquire, send it back to release.
	sends := releasesOf(u.sends, func(c inspector.Cursor) *ast.Ident {
		_, id := f.chanVar(c.Node().(*ast.SendStmt).Chan)
		return id
	})
	released := make(map[*ast.Ident]bool)
	for _, r := range u.recvs {
		_, ref := f.chanVar(r.Node().(*ast.UnaryExpr).X)
		if t := f.region(r, ref, sends, true); t != nil {
			p.Tasks = append(p.Tasks, t)
			for _, id := range t.Refs[1:] {
				released[id] = true
			}
		}
	}
	p.RecvAcquire = true
	for _, s := range u.sends {
		if _, id := f.chanVar(s.Node().(*ast.SendStmt).Chan); !released[id] {
			p.Fills = append(p.Fills, s)
		}
	}
	return p
}

func (f *finder) workers(u *uses) *Pool {
	p := &Pool{Obj: u.obj, Kind: Workers, Inits: u.inits, Closes: u.closes, Limit: firstArg(u.inits, 1), StartsKnown: true}
	var d dispatch
	for _, loop := range u.loops {
		ld := u.dispatch[loop]
		if d.kind == 0 {
			d = ld
		} else if d != ld {
			return nil // workers that run tasks differently: not one pool we understand
		}
		if start, ok := workerStart(f.info, loop); ok {
			if !slices.Contains(p.Starts, start) {
				p.Starts = append(p.Starts, start)
			}
		} else {
			p.StartsKnown = false
		}
	}
	p.Data = d.data
	for _, s := range u.sends {
		send := s.Node().(*ast.SendStmt)
		_, ref := f.chanVar(send.Chan)
		t := &Task{Submit: send, Refs: []*ast.Ident{ref}, Routable: true}
		f.dispatchTask(t, send.Value, d)
		p.Tasks = append(p.Tasks, t)
	}
	return p
}

// A release is one operation that gives a slot back, with the identifier
// naming the pool in it.
type release struct {
	node ast.Node
	ref  *ast.Ident
}

func releasesOf(cs []inspector.Cursor, ref func(inspector.Cursor) *ast.Ident) []release {
	var out []release
	for _, c := range cs {
		if id := ref(c); id != nil {
			out = append(out, release{c.Node(), id})
		}
	}
	return out
}

// releasesIn returns the releases inside n.
func releasesIn(rel []release, n ast.Node) []release {
	var out []release
	for _, r := range rel {
		if n.Pos() <= r.node.Pos() && r.node.End() <= n.End() {
			out = append(out, r)
		}
	}
	return out
}

// isReleaseStmt reports whether st is itself a release: sem.Release(1),
// <-sem, or sem <- tok.
func isReleaseStmt(rel []release, st ast.Stmt) bool {
	var n ast.Node = st
	if es, ok := st.(*ast.ExprStmt); ok {
		n = ast.Unparen(es.X)
	}
	for _, r := range rel {
		if r.node == n {
			return true
		}
	}
	return false
}

// region returns the task that runs while the slot taken at acq is held: the
// statements after the acquire up to its release, the body of a goroutine
// that the release is handed to, or nil when acq does not take a slot in a
// shape this package follows. needRelease demands that a release be found (a
// channel whose send is never undone in the task is a queue, not a semaphore).
func (f *finder) region(acq inspector.Cursor, ref *ast.Ident, rel []release, needRelease bool) *Task {
	if ref == nil {
		return nil
	}
	list := acquiredList(acq)
	if list == nil {
		return nil
	}
	t := &Task{Submit: acq.Node(), Refs: []*ast.Ident{ref}, Routable: true}
	found := false
	addRefs := func(rs []release) {
		for _, r := range rs {
			if r.ref != nil {
				t.Refs = append(t.Refs, r.ref) // a returned release func names no pool
			}
			found = true
		}
	}
scan:
	for _, st := range list {
		if isReleaseStmt(rel, st) {
			addRefs(releasesIn(rel, st))
			break
		}
		switch st := st.(type) {
		case *ast.GoStmt:
			if rs := releasesIn(rel, st); len(rs) > 0 {
				addRefs(rs)
				if lit, ok := ast.Unparen(st.Call.Fun).(*ast.FuncLit); ok {
					t.Body = append(t.Body, lit.Body)
				}
				break scan
			}
			// The release is handed to a declared function that the
			// goroutine runs: that function is the task, but its release
			// cannot be moved with the submission.
			if fn := code.Callee(f.info, st.Call); fn != nil && fn.Pkg() == f.pass.Pkg && f.releasesInside(fn, rel) {
				t.Funcs = append(t.Funcs, fn)
				t.Routable = false
				found = true
				break scan
			}
			// Any other goroutine does not hold the slot.
		default:
			addRefs(releasesIn(rel, st))
			if !needRelease && f.callsReleaser(st, rel) {
				// A function of the package gives the slot back
				// (s.release()): the task ends there, but its release
				// cannot be moved with the submission. Not for a channel,
				// whose send and receive prove it a semaphore only where
				// they pair up in the task: a queue's pop that signals
				// again is no release.
				found = true
				t.Routable = false
				if _, ok := st.(*ast.ExprStmt); ok {
					break scan
				}
			}
			t.Body = append(t.Body, st)
		}
	}
	if !found {
		if needRelease {
			return nil
		}
		t.Routable = false
	}
	return t
}

// callsReleaser reports whether n calls, outside function literals, a
// function of the package whose declaration holds a release.
func (f *finder) callsReleaser(n ast.Node, rel []release) bool {
	return code.AnyCall(n, code.IsFuncLit, func(call *ast.CallExpr) bool {
		fn := code.Callee(f.info, call)
		return fn != nil && fn.Pkg() == f.pass.Pkg && f.releasesInside(fn, rel)
	})
}

// releasesInside reports whether the declaration of fn holds a release.
func (f *finder) releasesInside(fn *types.Func, rel []release) bool {
	for _, r := range rel {
		if fn.Scope() != nil && fn.Scope().Pos() <= r.node.Pos() && r.node.End() <= fn.Scope().End() {
			return true
		}
	}
	return false
}

// acquiredList returns the statements that run after the acquire at acq has
// succeeded, in the order they run, or nil when the acquire does not start a
// region a task could be read from.
func acquiredList(acq inspector.Cursor) []ast.Stmt {
	// Climb from the acquiring expression to its statement.
	s := acq
	for {
		if _, ok := s.Node().(ast.Stmt); ok {
			break
		}
		s = s.Parent()
		if _, ok := s.Node().(*ast.FuncLit); ok {
			return nil
		}
	}
	switch st := s.Node().(type) {
	case *ast.IfStmt:
		// if sem.TryAcquire(1) { … }: the body holds the slot.
		if ast.Unparen(st.Cond) == acq.Node() {
			return st.Body.List
		}
		// if !sem.TryAcquire(1) { return }, if sem.Acquire(ctx, 1) != nil { … }
		return afterFailedAcquire(s)
	case *ast.ExprStmt, *ast.AssignStmt, *ast.SendStmt:
		switch parent := s.Parent().Node().(type) {
		case *ast.IfStmt:
			if parent.Init == st {
				return afterFailedAcquire(s.Parent())
			}
			return nil
		case *ast.CommClause:
			if parent.Comm == st {
				return afterSelectCase(s.Parent())
			}
		}
		return rest(s)
	}
	return nil
}

// afterFailedAcquire returns the statements after an if statement whose body
// leaves the block when the acquire failed.
func afterFailedAcquire(ifCur inspector.Cursor) []ast.Stmt {
	st := ifCur.Node().(*ast.IfStmt)
	if st.Else != nil || !code.Terminates(st.Body.List, true) {
		return nil
	}
	return rest(ifCur)
}

// afterSelectCase returns the body of a select case that acquires, followed by
// the statements after the select when every other case leaves the block.
func afterSelectCase(clause inspector.Cursor) []ast.Stmt {
	cc := clause.Node().(*ast.CommClause)
	list := slices.Clip(cc.Body)
	sel := clause.Parent().Parent() // CommClause → BlockStmt → SelectStmt
	for _, other := range sel.Node().(*ast.SelectStmt).Body.List {
		if other != cc && !code.Terminates(other.(*ast.CommClause).Body, true) {
			return list
		}
	}
	if code.Terminates(cc.Body, true) {
		return list
	}
	return append(list, rest(sel)...)
}

// rest returns the statements after the statement at s in its list.
func rest(s inspector.Cursor) []ast.Stmt {
	k, i := s.ParentEdge()
	var list []ast.Stmt
	switch n := s.Parent().Node().(type) {
	case *ast.BlockStmt:
		if k == edge.BlockStmt_List {
			list = n.List
		}
	case *ast.CaseClause:
		if k == edge.CaseClause_Body {
			list = n.Body
		}
	case *ast.CommClause:
		if k == edge.CommClause_Body {
			list = n.Body
		}
	}
	if list == nil || i < 0 || i >= len(list) {
		return nil
	}
	return list[i+1:]
}

// funcTask fills t with the function fn runs: a literal's body or a
// declared function or method value.
func (f *finder) funcTask(t *Task, fn ast.Expr) {
	switch e := ast.Unparen(fn).(type) {
	case *ast.FuncLit:
		t.Body = append(t.Body, e.Body)
	case *ast.Ident:
		if g, ok := f.info.Uses[e].(*types.Func); ok {
			t.Funcs = append(t.Funcs, g.Origin())
		}
	case *ast.SelectorExpr:
		if sel, ok := f.info.Selections[e]; ok {
			if g, ok := sel.Obj().(*types.Func); ok && sel.Kind() != types.FieldVal && !isInterface(sel.Recv()) {
				t.Funcs = append(t.Funcs, g.Origin())
			}
		} else if g, ok := f.info.Uses[e.Sel].(*types.Func); ok {
			t.Funcs = append(t.Funcs, g.Origin())
		}
	}
}

// A dispatch is how a worker runs what it receives: by calling it, calling a
// method of it, calling a func field of it, or deciding from its data.
type dispatch struct {
	kind int // 0: none; callValue, callMethod, callField, onData
	name string
	data *Data // for onData
}

const (
	callValue = iota + 1
	callMethod
	callField
	onData
)

// workerLoop records a loop that receives v from the channel ch and runs it
// in body.
func (f *finder) workerLoop(cur inspector.Cursor, ch ast.Expr, v *types.Var, body *ast.BlockStmt) {
	if v == nil || body == nil {
		return
	}
	d := f.dispatchOf(body, v)
	if d.kind == 0 {
		return
	}
	obj, _ := f.chanVar(ch)
	if obj == nil {
		return
	}
	// A loop over a parameter of a declared function is a worker of every
	// channel passed to that function by a go statement.
	if fn, idx := f.paramOf(cur, obj); fn != nil {
		if f.paramWorkers == nil {
			f.paramWorkers = make(map[*types.Func][]paramWorker)
		}
		f.paramWorkers[fn] = append(f.paramWorkers[fn], paramWorker{idx, cur, d})
		return
	}
	f.addLoop(obj, cur, d)
}

func (f *finder) addLoop(obj *types.Var, loop inspector.Cursor, d dispatch) {
	u := f.use(obj, loop.Node().Pos())
	u.loops = append(u.loops, loop)
	if u.dispatch == nil {
		u.dispatch = make(map[inspector.Cursor]dispatch)
	}
	u.dispatch[loop] = d
}

// paramOf returns the declared function whose parameter obj is, and its index.
func (f *finder) paramOf(cur inspector.Cursor, obj *types.Var) (*types.Func, int) {
	for enc := range cur.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		decl, ok := enc.Node().(*ast.FuncDecl)
		if !ok {
			return nil, -1
		}
		fn, _ := f.info.Defs[decl.Name].(*types.Func)
		if fn == nil {
			return nil, -1
		}
		params := fn.Signature().Params()
		for i := range params.Len() {
			if params.At(i) == obj {
				return fn, i
			}
		}
		return nil, -1
	}
	return nil, -1
}

// resolveParamWorkers turns go worker(ch) into worker loops over ch, started
// by that go statement.
func (f *finder) resolveParamWorkers() {
	if len(f.paramWorkers) == 0 {
		return
	}
	for _, g := range f.goCalls {
		call := g.Node().(*ast.GoStmt).Call
		fn := code.Callee(f.info, call)
		for _, pw := range f.paramWorkers[fn] {
			if pw.index >= len(call.Args) {
				continue
			}
			if obj, _ := f.chanVar(call.Args[pw.index]); obj != nil {
				f.addLoop(obj, g, pw.d)
			}
		}
	}
}

// workerStart returns the statement that starts the worker loop at loop: the
// go statement (or WaitGroup.Go or Group.Go call) running the function
// literal that holds it. A loop found through a go worker(ch) statement is
// that statement.
func workerStart(info *types.Info, loop inspector.Cursor) (inspector.Cursor, bool) {
	if _, ok := loop.Node().(*ast.GoStmt); ok {
		return loop, true
	}
	for enc := range loop.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		if _, ok := enc.Node().(*ast.FuncLit); !ok {
			return inspector.Cursor{}, false
		}
		parent := enc.Parent()
		call, ok := parent.Node().(*ast.CallExpr)
		if !ok {
			return inspector.Cursor{}, false
		}
		stmt := parent.Parent()
		switch st := stmt.Node().(type) {
		case *ast.GoStmt:
			if call.Fun == enc.Node() {
				return stmt, true
			}
		case *ast.ExprStmt:
			// wg.Go(func() { … }), g.Go(func() error { … })
			if fn := code.Callee(info, call); fn != nil && fn.Name() == "Go" && len(call.Args) == 1 && call.Args[0] == enc.Node() && st.X == call {
				return stmt, true
			}
		}
		return inspector.Cursor{}, false
	}
	return inspector.Cursor{}, false
}

// dispatchOf finds how body runs the value v it received. A switch on the
// value decides before any call of it: the calls are then the branches' work.
func (f *finder) dispatchOf(body *ast.BlockStmt, v *types.Var) dispatch {
	if data := f.switchOn(body, v); data != nil {
		return dispatch{kind: onData, data: data}
	}
	info := f.info
	var d dispatch
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || d.kind != 0 {
			return d.kind == 0
		}
		switch fun := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			if info.Uses[fun] == v {
				d = dispatch{kind: callValue}
			}
		case *ast.SelectorExpr:
			id, ok := ast.Unparen(fun.X).(*ast.Ident)
			if !ok || info.Uses[id] != v {
				break
			}
			if sel, ok := info.Selections[fun]; ok {
				switch sel.Kind() {
				case types.MethodVal:
					d = dispatch{kind: callMethod, name: fun.Sel.Name}
				case types.FieldVal:
					d = dispatch{kind: callField, name: fun.Sel.Name}
				}
			}
		}
		return true
	})
	if d.kind == 0 {
		if data := f.dataDispatch(body, v); data != nil {
			d = dispatch{kind: onData, data: data}
		}
	}
	return d
}

// dispatchTask fills t with what a worker that dispatches by d runs for the
// value sent.
func (f *finder) dispatchTask(t *Task, value ast.Expr, d dispatch) {
	switch d.kind {
	case callValue:
		f.funcTask(t, value)
	case callMethod:
		typ := f.info.TypeOf(value)
		if typ == nil {
			return
		}
		if isInterface(typ) {
			// The dynamic type is not known here: the task is one of the
			// implementations of the method.
			if m, _, _ := types.LookupFieldOrMethod(typ, true, f.pass.Pkg, d.name); m != nil {
				t.Iface, _ = m.(*types.Func)
			}
			return
		}
		obj, _, _ := types.LookupFieldOrMethod(typ, true, f.pass.Pkg, d.name)
		if fn, ok := obj.(*types.Func); ok && !isInterface(fn.Signature().Recv().Type()) {
			t.Funcs = append(t.Funcs, fn.Origin())
		}
	case onData:
		t.Branch = f.branchOf(d.data, value)
	case callField:
		e := ast.Unparen(value)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		lit, ok := e.(*ast.CompositeLit)
		if !ok {
			return
		}
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if key, ok := kv.Key.(*ast.Ident); ok && key.Name == d.name {
					f.funcTask(t, kv.Value)
				}
			}
		}
	}
}

// selectReceive returns, for a receive in a select case (case v := <-ch:),
// the variable received and the case body.
func selectReceive(info *types.Info, recv inspector.Cursor) (*types.Var, *ast.BlockStmt) {
	as, ok := recv.Parent().Node().(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || as.Rhs[0] != recv.Node() || len(as.Lhs) == 0 {
		return nil, nil
	}
	cc, ok := recv.Parent().Parent().Node().(*ast.CommClause)
	if !ok || cc.Comm != as {
		return nil, nil
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil, nil
	}
	v, _ := info.Defs[id].(*types.Var)
	if v == nil {
		v, _ = info.Uses[id].(*types.Var)
	}
	return v, &ast.BlockStmt{List: cc.Body}
}

// assignedVar returns the variable or field that the value of the call at cur
// is stored in: x := call, var x = call, s.f = call, T{f: call}.
func (f *finder) assignedVar(cur inspector.Cursor) *types.Var {
	call := cur.Node()
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) != len(p.Rhs) {
			return nil
		}
		for i, r := range p.Rhs {
			if r == call {
				obj, _ := f.poolVar(p.Lhs[i])
				return obj
			}
		}
	case *ast.ValueSpec:
		for i, v := range p.Values {
			if v == call && i < len(p.Names) {
				return f.identVar(p.Names[i])
			}
		}
	case *ast.KeyValueExpr:
		if key, ok := p.Key.(*ast.Ident); ok && p.Value == call {
			if v, ok := f.info.Uses[key].(*types.Var); ok && v.IsField() {
				return v.Origin()
			}
		}
	}
	return nil
}

// receiverVar returns the pool variable a method call is made on.
func (f *finder) receiverVar(call *ast.CallExpr) (*types.Var, *ast.Ident) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	return f.poolVar(sel.X)
}

// chanVar is poolVar for an expression of channel type.
func (f *finder) chanVar(e ast.Expr) (*types.Var, *ast.Ident) {
	if !code.IsChan(f.info.TypeOf(e)) {
		return nil, nil
	}
	return f.poolVar(e)
}

// poolVar returns the variable or field e names, and the identifier naming it
// (the field name of a selector), or nil when e is anything else.
func (f *finder) poolVar(e ast.Expr) (*types.Var, *ast.Ident) {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v := f.identVar(e); v != nil {
			return v, e
		}
	case *ast.SelectorExpr:
		if sel, ok := f.info.Selections[e]; ok {
			if v, ok := sel.Obj().(*types.Var); ok && sel.Kind() == types.FieldVal {
				return v.Origin(), e.Sel
			}
			return nil, nil
		}
		if v, ok := f.info.Uses[e.Sel].(*types.Var); ok {
			return v, e.Sel // a package variable of another package
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return f.poolVar(e.X)
		}
	}
	return nil, nil
}

func (f *finder) identVar(id *ast.Ident) *types.Var {
	obj := f.info.Defs[id]
	if obj == nil {
		obj = f.info.Uses[id]
	}
	v, _ := obj.(*types.Var)
	if v == nil || v.IsField() {
		return nil
	}
	return v
}

func isInterface(t types.Type) bool {
	return t != nil && types.IsInterface(t)
}

// isUnbuffered reports whether some make of the channel has a zero capacity
// (or none): such a channel blocks a lone sender and cannot be a semaphore.
func isUnbuffered(info *types.Info, inits []inspector.Cursor) bool {
	for _, c := range inits {
		call := c.Node().(*ast.CallExpr)
		if len(call.Args) < 2 {
			return true
		}
		if n, ok := consts.Int(info, call.Args[1]); ok && n == 0 {
			return true
		}
	}
	return false
}

// firstArg returns argument i of the first call of cs.
func firstArg(cs []inspector.Cursor, i int) ast.Expr {
	for _, c := range cs {
		if call := c.Node().(*ast.CallExpr); i < len(call.Args) {
			return call.Args[i]
		}
	}
	return nil
}
