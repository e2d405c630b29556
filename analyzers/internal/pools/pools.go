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
	pools, _ := FindAll(pass, insp, adm, skip)
	return pools
}

// FindAll is [Find] that also returns the candidates it rejected: the
// variables used as a pool in a shape it does not take as one, with why.
func FindAll(pass *analysis.Pass, insp *inspector.Inspector, adm *admission.Finder, skip func(*ast.File) bool) ([]*Pool, []Rejected) {
	f := &finder{pass: pass, info: pass.TypesInfo, adm: adm, uses: make(map[*types.Var]*uses), helpers: adm.HasWaitHelpers()}
	for file := range insp.Root().Children() {
		if !skip(file.Node().(*ast.File)) {
			f.collect(file)
		}
	}
	return f.pools(), f.rejected
}

// A Reject is why the finder does not take a candidate for a pool.
type Reject int

const (
	AcquiredTwoWays Reject = iota + 1 // a semaphore acquired both through a helper and directly
	NoLimit                           // an errgroup whose SetLimit removes the limit (SetLimit(-1))
	WorkersDiffer                     // workers of one channel that run what they receive in different ways
	NoRelease                         // a semaphore no acquire of which pairs with a release in its function
)

// A Rejected is a candidate pool the finder rejected: its variable, where
// it is used as a pool (the acquires, SetLimit calls or worker loops) and
// why.
type Rejected struct {
	Obj *types.Var
	At  []ast.Node
	Why Reject
}

// reject records that the candidate u is no pool, for why, at the uses at.
func (f *finder) reject(u *uses, why Reject, at []inspector.Cursor) *Pool {
	r := Rejected{Obj: u.obj, Why: why}
	for _, c := range at {
		r.At = append(r.At, c.Node())
	}
	f.rejected = append(f.rejected, r)
	return nil
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

	rejected []Rejected // the candidates that are no pool, with why
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
	if len(p.Tasks) == 0 {
		return f.reject(u, NoRelease, u.acquires)
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
			// the same variable acquired in two ways: not a pool we understand
			return f.reject(u, AcquiredTwoWays, u.acquires)
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
		return f.reject(u, NoLimit, u.setLimits)
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
			// workers that run tasks differently: not one pool we understand
			return f.reject(u, WorkersDiffer, u.loops)
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
