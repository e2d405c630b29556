package admission

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
)

// call classifies a call.
func (f *Finder) call(call *ast.CallExpr) (Wait, bool) {
	fn := code.CalleeFunc(f.info, call)
	if fn == nil {
		return f.helperCall(call)
	}
	w := Wait{Node: call, Name: code.DisplayName(fn)}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		w.On = code.Var(f.info, sel.X)
	}
	switch {
	case f.opts.Extra != nil && f.opts.Extra.Contains(fn):
		w.Kind = Listed
	case code.IsMethod(fn, code.SemaphorePath, "Weighted", "Acquire"):
		w.Kind, w.Release = Semaphore, Release{Kind: ReleaseCall, Method: "Release"}
	case code.IsMethod(fn, code.SemaphorePath, "Weighted", "TryAcquire"):
		if f.opts.Strict {
			return Wait{}, false
		}
		w.Kind, w.Try, w.Release = Semaphore, true, Release{Kind: ReleaseCall, Method: "Release"}
	case code.IsMethod(fn, code.RatePath, "Limiter", "Wait"), code.IsMethod(fn, code.RatePath, "Limiter", "WaitN"):
		w.Kind = RateLimiter
	case code.IsMethod(fn, code.ErrgroupPath, "Group", "Go"):
		if w.On == nil || !f.IsLimitedGroup(w.On) {
			return Wait{}, false
		}
		w.Kind, w.Name, w.Release = LimitedGroup, "(*errgroup.Group).Go on a group with a limit", Release{Kind: ReleaseAuto}
	case code.IsFunc(fn, "time", "Sleep") && len(call.Args) == 1:
		switch {
		case isReservationDelay(f.info, call.Args[0]):
			w.Kind, w.Name = RateLimiter, "time.Sleep of a rate.Reservation's delay"
		case f.opts.Strict && namesBackoff(f.info, call.Args[0]):
			w.Kind, w.Name = Backoff, "a backoff sleep"
		default:
			return Wait{}, false
		}
	case f.opts.Strict && isBackoffWait(fn):
		w.Kind = Backoff
	case f.opts.Strict && f.opts.Mutex && isMutexLock(fn):
		w.Kind = Mutex
	case isLimiterWait(fn):
		w.Kind = RateLimiter
	default:
		if w, ok := f.shapedCall(call, fn, w); ok {
			return w, true
		}
		// A pool's checkout that no fact knows as another wait: the slot
		// is the connection, given back by a method of what it returns
		// (Put, Recycle, Close), nothing of the pool's. It waits on the
		// context it takes first, so it is taken here, not through the
		// fact of a wrapper (which says nothing of the context).
		if f.opts.Strict && isPoolCheckout(fn) && onlyCheckoutKnown(f.r.Helper(fn)) {
			w.Kind = PoolCheckout
			return w, true
		}
		return f.helperCall(call)
	}
	return w, true
}

// shapedCall recognises admission calls by the shape of their API: Acquire
// or Take on a type that also releases, a pacer's Take() time.Time, Start on
// a gate that also has Done, and the variants of an acquire (AcquireMaybe,
// AcquireContext, TryAcquireN). With Strict, an Acquire counts only when it
// can block, and a Start/Done pair only on a type or package named gate:
// services start and stop with the same names.
func (f *Finder) shapedCall(call *ast.CallExpr, fn *types.Func, w Wait) (Wait, bool) {
	recv := code.Recv(fn)
	if recv == nil {
		return Wait{}, false
	}
	name, pkg := fn.Name(), fn.Pkg()
	sig := fn.Signature()
	switch {
	case (name == "Acquire" || name == "TryAcquire" || isAcquireVariant(name)) && code.HasMethod(recv, pkg, "Release"):
		w.Kind, w.Release = Semaphore, Release{Kind: ReleaseCall, Method: "Release"}
		// A variant that reports success does not wait.
		w.Try = name == "TryAcquire" || (name != "Acquire" && returnsBool(sig))
	case name == "Take" && code.HasMethod(recv, pkg, knowledge.TakeReleaseMethods.Entries()...):
		w.Kind = Semaphore
		w.Release = Release{Kind: ReleaseCall, Method: firstMethod(recv, pkg, knowledge.TakeReleaseMethods.Entries()...)}
	case name == "Take" && returnsTime(sig):
		w.Kind = RateLimiter // a pacer such as go.uber.org/ratelimit
	case name == "Start" && code.HasMethod(recv, pkg, "Done"):
		if f.opts.Strict && !saysGate(fn) {
			return Wait{}, false
		}
		w.Kind, w.Release = Gate, Release{Kind: ReleaseCall, Method: "Done"}
	default:
		return Wait{}, false
	}
	if f.opts.Strict {
		if w.Try {
			return Wait{}, false
		}
		if w.Kind == Semaphore && !f.mayBlock(fn) {
			return Wait{}, false // a reference count: page.Acquire() … page.Release()
		}
	}
	return w, true
}

// helperCall classifies a call of a function that is itself a wait.
func (f *Finder) helperCall(call *ast.CallExpr) (Wait, bool) {
	h, fn := f.r.HelperCall(call)
	if h == nil && fn == nil {
		if m := code.CalleeFunc(f.info, call); m != nil {
			return f.viaInterface(call, m) // dynamic.go
		}
		return f.viaFuncValue(call)
	}
	if h == nil || h.Wait == nil || (f.opts.Strict && !h.Wait.Strict) {
		return Wait{}, false
	}
	w := Wait{Kind: h.Wait.Kind, Node: call, Via: fn, Release: h.Wait.Release}
	if fn != nil {
		w.Name = code.DisplayName(fn)
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && h.Wait.Field != "" {
			w.On = fieldOf(f.info, sel.X, h.Wait.Field)
		}
	} else {
		w.Name = types.ExprString(call.Fun)
	}
	return w, true
}

// fieldOf returns the field name of the value recv denotes, or nil.
func fieldOf(info *types.Info, recv ast.Expr, name string) *types.Var {
	t := info.TypeOf(recv)
	if t == nil {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	if v, ok := obj.(*types.Var); ok && v.IsField() {
		return v.Origin()
	}
	// Unexported fields of another package: look them up in that package.
	if n := code.NamedOf(t); n != nil && n.Obj().Pkg() != nil {
		obj, _, _ = types.LookupFieldOrMethod(t, true, n.Obj().Pkg(), name)
		if v, ok := obj.(*types.Var); ok && v.IsField() {
			return v.Origin()
		}
	}
	return nil
}

// mayBlock reports whether an Acquire-shaped method can wait: it takes a
// context or returns an error (a blocking acquire must be cancellable or
// fail), or its body blocks (a channel operation, a Wait, Acquire or Lock
// call), as this package's helper facts record it.
func (f *Finder) mayBlock(fn *types.Func) bool {
	sig := fn.Signature()
	for i := range sig.Params().Len() {
		if code.IsContext(sig.Params().At(i).Type()) {
			return true
		}
	}
	for i := range sig.Results().Len() {
		if code.IsError(sig.Results().At(i).Type()) {
			return true
		}
	}
	h := f.r.Helper(fn)
	return h != nil && h.Blocks
}

func (f *Finder) send(s *ast.SendStmt) (Wait, bool) {
	v := code.Var(f.info, s.Chan)
	if v == nil {
		return Wait{}, false
	}
	switch {
	case f.IsSemaphoreChan(v):
		return Wait{Kind: SemaphoreChan, Node: s, Name: "the send to semaphore channel " + v.Name(), On: v, Release: Release{Kind: ReleaseRecv}}, true
	case f.opts.Strict && f.IsPoolChan(v):
		return Wait{Kind: Pool, Node: s, Name: "the hand-off to the workers of " + v.Name(), On: v}, true
	}
	return Wait{}, false
}

func (f *Finder) receive(u *ast.UnaryExpr) (Wait, bool) {
	if v := code.Var(f.info, u.X); v != nil && f.IsTokenChan(v) {
		return Wait{Kind: TokenChan, Node: u, Name: "the receive from token channel " + v.Name(), On: v, Release: Release{Kind: ReleaseSend}}, true
	}
	if !f.opts.Strict {
		return Wait{}, false
	}
	if call, ok := ast.Unparen(u.X).(*ast.CallExpr); ok && len(call.Args) == 1 {
		if fn := code.Callee(f.info, call); code.IsFunc(fn, "time", "After") && namesBackoff(f.info, call.Args[0]) {
			return Wait{Kind: Backoff, Node: u, Name: "a backoff timer"}, true
		}
	}
	return Wait{}, false
}

// selectWait reports whether a select acquires: it has no default, one case
// is an acquire, and every other case gives up (cancellation, a timer).
func (f *Finder) selectWait(s *ast.SelectStmt) (Wait, bool) {
	var acquire Wait
	found := false
	var dflt *ast.CommClause
	for _, stmt := range s.Body.List {
		cc := stmt.(*ast.CommClause)
		if cc.Comm == nil {
			dflt = cc
			continue
		}
		if w, ok := f.comm(cc.Comm); ok && !found {
			acquire, found = w, true
			continue
		}
		if !givesUp(f.info, cc.Comm) {
			return Wait{}, false // a select that also does work is a loop's dispatcher
		}
	}
	if !found {
		return Wait{}, false
	}
	// A default is a try, not a wait, unless it then blocks on the same
	// limiter: try, then wait (VictoriaMetrics' concurrency limits: the
	// default counts the miss and waits in a select of its own).
	if dflt != nil && !f.waitsInDefault(dflt, acquire) {
		return Wait{}, false
	}
	acquire.Node = s
	return acquire, true
}

// waitsInDefault reports whether the default clause of a try, after
// bookkeeping, waits on the limiter the try tried: a select whose acquire
// is on the same variable, on the path every success takes.
func (f *Finder) waitsInDefault(dflt *ast.CommClause, try Wait) bool {
	for _, st := range dflt.Body {
		inner, ok := st.(*ast.SelectStmt)
		if !ok {
			continue
		}
		w, ok := f.selectWait(inner)
		return ok && try.On != nil && w.On == try.On
	}
	return false
}

// comm reports whether a select case's communication is an acquire.
func (f *Finder) comm(stmt ast.Stmt) (Wait, bool) {
	switch s := stmt.(type) {
	case *ast.SendStmt:
		return f.send(s)
	case *ast.ExprStmt, *ast.AssignStmt:
		if u := commReceive(s); u != nil {
			return f.receive(u)
		}
	}
	return Wait{}, false
}

// commReceive returns the receive of a select case's communication (<-ch,
// v := <-ch, v, ok = <-ch), or nil.
func commReceive(stmt ast.Stmt) *ast.UnaryExpr {
	var x ast.Expr
	switch s := stmt.(type) {
	case *ast.ExprStmt:
		x = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) != 1 {
			return nil
		}
		x = s.Rhs[0]
	default:
		return nil
	}
	if u, ok := ast.Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u
	}
	return nil
}

// givesUp reports whether a select case's communication is a receive from
// ctx.Done(), a timer or a stop channel of struct{}: a way out of the wait,
// not work.
func givesUp(info *types.Info, stmt ast.Stmt) bool {
	u := commReceive(stmt)
	if u == nil {
		return false
	}
	if call, ok := ast.Unparen(u.X).(*ast.CallExpr); ok {
		fn := code.CalleeFunc(info, call)
		return fn != nil && (fn.Name() == "Done" || code.IsFunc(fn, "time", "After"))
	}
	t := info.TypeOf(u.X)
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	return code.IsTime(ch.Elem()) || code.IsEmptyStruct(ch.Elem()) // a timer's C, or a stop channel
}

// isLimiterWait reports whether fn is Wait or WaitN, taking a context first,
// on a type named like a rate limiter (quotas.RateLimiter,
// flowcontrol.RateLimiter).
func isLimiterWait(fn *types.Func) bool {
	if fn.Name() != "Wait" && fn.Name() != "WaitN" {
		return false
	}
	sig := fn.Signature()
	if sig.Recv() == nil || sig.Params().Len() == 0 || !code.IsContext(sig.Params().At(0).Type()) {
		return false
	}
	return knowledge.LimiterWords.Match(typeBaseName(sig.Recv().Type()))
}

// isPoolCheckout reports whether fn is Get or GetContext, taking a context
// first and returning an error last, on a type whose name ends in pool
// (smartconnpool.ConnPool, a client's ConnPool): the checkout of a
// connection, which waits while all of them are out. sync.Pool's Get takes
// no context and never waits.
func isPoolCheckout(fn *types.Func) bool {
	if fn.Name() != "Get" && fn.Name() != "GetContext" {
		return false
	}
	sig := fn.Signature()
	if sig.Recv() == nil || sig.Params().Len() == 0 || !code.IsContext(sig.Params().At(0).Type()) {
		return false
	}
	if res := sig.Results(); res.Len() == 0 || !code.IsError(res.At(res.Len()-1).Type()) {
		return false
	}
	return knowledge.PoolWords.Match(typeBaseName(sig.Recv().Type()))
}

// onlyCheckoutKnown reports whether the fact h, of a pool's checkout, knows
// no wait inside it, or only a pool's checkout it wraps.
func onlyCheckoutKnown(h *FuncFact) bool {
	switch {
	case h == nil:
		return true
	case h.Wait != nil:
		return h.Wait.Kind == PoolCheckout
	case h.Inner != nil:
		return h.Inner.Kind == PoolCheckout
	}
	return true
}

// saysGate reports whether fn's receiver type, or its package, is named gate.
func saysGate(fn *types.Func) bool {
	pkg := ""
	if fn.Pkg() != nil {
		pkg = strings.ToLower(fn.Pkg().Name())
	}
	return knowledge.GateWords.Match(typeBaseName(code.Recv(fn))) || knowledge.GateWords.Match(pkg)
}

// typeBaseName returns the lower-case name of a named type (or of the type a
// pointer points to), without its package.
func typeBaseName(t types.Type) string {
	name := strings.ToLower(code.TypeName(t))
	return name[strings.LastIndex(name, ".")+1:]
}

func isMutexLock(fn *types.Func) bool {
	return code.IsMethod(fn, "sync", "Mutex", "Lock") || code.IsMethod(fn, "sync", "RWMutex", "Lock") || code.IsMethod(fn, "sync", "RWMutex", "RLock")
}

// isReservationDelay reports whether expr is r.Delay() or r.DelayFrom(t) on
// a *rate.Reservation: sleeping it is waiting for the limiter.
func isReservationDelay(info *types.Info, expr ast.Expr) bool {
	call, ok := ast.Unparen(expr).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := code.Callee(info, call)
	return code.IsMethod(fn, code.RatePath, "Reservation", "Delay") || code.IsMethod(fn, code.RatePath, "Reservation", "DelayFrom")
}

// namesBackoff reports whether a duration expression is a backoff: one of its
// identifiers, or the type or package of one of them, says "backoff". A
// sleep for a poll interval or a fixed pause is not an admission wait.
func namesBackoff(info *types.Info, expr ast.Expr) bool {
	found := false
	ast.Inspect(expr, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || found {
			return !found
		}
		found = hasBackoff(id.Name) || hasBackoff(code.TypeName(info.TypeOf(id)))
		return !found
	})
	return found
}

// isBackoffWait reports whether fn is a Wait or Sleep method of a type whose
// name or package says backoff.
func isBackoffWait(fn *types.Func) bool {
	if fn.Name() != "Wait" && fn.Name() != "Sleep" {
		return false
	}
	recv := code.Recv(fn)
	return recv != nil && hasBackoff(code.TypeName(recv))
}

func hasBackoff(s string) bool { return knowledge.BackoffWords.Match(strings.ToLower(s)) }

// isAcquireVariant reports whether a method name names a variant of a
// semaphore's Acquire or TryAcquire.
func isAcquireVariant(name string) bool {
	return strings.HasPrefix(name, "Acquire") || strings.HasPrefix(name, "TryAcquire")
}

// firstMethod returns the first of names that values of recv have as a
// method.
func firstMethod(recv types.Type, pkg *types.Package, names ...string) string {
	for _, name := range names {
		if code.HasMethod(recv, pkg, name) {
			return name
		}
	}
	return ""
}

func returnsBool(sig *types.Signature) bool {
	if sig.Results().Len() != 1 {
		return false
	}
	b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

func returnsTime(sig *types.Signature) bool {
	return sig.Results().Len() == 1 && code.IsTime(sig.Results().At(0).Type())
}
