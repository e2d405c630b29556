// Package waits answers two questions the queuecheck checks ask about code
// that measures time: is this call or statement an admission wait, and is
// this expression a timestamp?
//
// An admission wait is where a caller queues for the right to run: it waits
// for a slot of a semaphore, a token of a limiter, a worker of a pool or a
// backoff delay, and the time it spends there depends on everyone else's load,
// not on its own work. Real code is full of other blocking calls (a mutex, a
// receive of a result, a ticker), so the list is deliberately short:
//
//   - (*semaphore.Weighted).Acquire;
//   - (*rate.Limiter).Wait and WaitN, and time.Sleep of a rate.Reservation's
//     Delay;
//   - a send to a channel used as a counting semaphore (a buffered channel
//     whose sent values carry no data and which some function also drains by a
//     receive that drops the value), or a receive from a token channel (one
//     that a function receives from and sends the same value back to), and a
//     select with no default whose cases are such an acquire, a cancellation
//     or a timer;
//   - Go on an errgroup.Group that was given a SetLimit;
//   - handing a job to a pool: a send on an unbuffered channel that
//     goroutines of the package receive from in a loop;
//   - a backoff: time.Sleep, or a receive from time.After, of a duration that
//     names a backoff, and Wait/Sleep methods of backoff types;
//   - calls shaped like an acquire, as package limiter decides it: Acquire or
//     Take on a type that also releases, a pacer's Take() time.Time, Start on
//     a gate (a type or package named gate) that also has Done; and Wait or
//     WaitN taking a context on a type named like a limiter;
//   - calls listed in a [Config]'s Extra table;
//   - sync.Mutex.Lock, sync.RWMutex.Lock and RLock, only when the Config asks.
//
// A [Finder] answers for one package. Channel and errgroup questions need
// facts from the whole package; the Finder gathers them on first use, in one
// walk of the shared inspector, so a check that never asks pays nothing.
package waits

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/limiter"
)

// Kind is the sort of admission a wait queues for.
type Kind int

const (
	Semaphore Kind = iota + 1 // a semaphore: Weighted.Acquire, a semaphore or token channel
	Limiter                   // a rate limiter: Limiter.Wait/WaitN, sleeping a reservation's delay
	Group                     // Go on an errgroup with a limit
	Pool                      // a hand-off to a pool of worker goroutines
	Backoff                   // a backoff delay
	Extra                     // a call listed in Config.Extra
	Mutex                     // a mutex lock (only when Config.Mutex is set)
)

// A Wait is one admission wait.
type Wait struct {
	Kind Kind
	// Node is what blocks: the call, the send statement, the receive
	// expression, or the select statement whose case acquires.
	Node ast.Node
	// Name says what the wait is, for messages:
	// "(*semaphore.Weighted).Acquire", "the send to semaphore channel sem".
	Name string
	// On is the variable or field holding what is waited on (the semaphore,
	// limiter, group or channel), or nil when it is not held in one.
	On *types.Var
}

// Config lists the waits a check recognizes beyond the built-in ones.
type Config struct {
	// Extra lists further admission waits, by calls.Key name.
	Extra *calls.Table
	// Mutex counts sync.Mutex.Lock, sync.RWMutex.Lock and RLock as waits.
	Mutex bool
}

const (
	errgroupPath  = "golang.org/x/sync/errgroup"
	semaphorePath = "golang.org/x/sync/semaphore"
	ratePath      = "golang.org/x/time/rate"
)

// A Finder answers wait questions about one package.
type Finder struct {
	info  *types.Info
	insp  *inspector.Inspector
	cfg   Config
	facts *facts          // nil until a question needs them
	lim   *limiter.Finder // nil until a call's shape is asked about
	decls map[types.Object]*ast.FuncDecl
}

// New returns a Finder for the package whose syntax insp covers.
func New(info *types.Info, insp *inspector.Inspector, cfg Config) *Finder {
	return &Finder{info: info, insp: insp, cfg: cfg}
}

// Inspector returns the inspector the Finder walks.
func (f *Finder) Inspector() *inspector.Inspector { return f.insp }

// At reports whether the node at cur (a call, send statement, receive
// expression or select statement) is an admission wait. A send or receive
// that is the communication of a select case is not one by itself: the
// select is, when it has no default.
func (f *Finder) At(cur inspector.Cursor) (Wait, bool) {
	switch n := cur.Node().(type) {
	case *ast.CallExpr:
		return f.call(n)
	case *ast.SendStmt:
		if isSelectComm(cur) {
			return Wait{}, false
		}
		return f.send(n)
	case *ast.UnaryExpr:
		if n.Op != token.ARROW || isSelectComm(cur) {
			return Wait{}, false
		}
		return f.receive(n)
	case *ast.SelectStmt:
		return f.selectWait(n)
	}
	return Wait{}, false
}

func (f *Finder) call(call *ast.CallExpr) (Wait, bool) {
	fn, ok := typeutil.Callee(f.info, call).(*types.Func)
	if !ok {
		return Wait{}, false
	}
	w := Wait{Node: call}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		w.On = Var(f.info, sel.X)
	}
	switch {
	case f.cfg.Extra != nil && f.cfg.Extra.Contains(fn):
		w.Kind, w.Name = Extra, displayName(fn)
	case isMethod(fn, semaphorePath, "Weighted", "Acquire"):
		w.Kind, w.Name = Semaphore, "(*semaphore.Weighted).Acquire"
	case isMethod(fn, ratePath, "Limiter", "Wait"), isMethod(fn, ratePath, "Limiter", "WaitN"):
		w.Kind, w.Name = Limiter, "(*rate.Limiter)."+fn.Name()
	case isMethod(fn, errgroupPath, "Group", "Go"):
		if w.On == nil || !f.IsLimitedGroup(w.On) {
			return Wait{}, false
		}
		w.Kind, w.Name = Group, "(*errgroup.Group).Go on a group with a limit"
	case isFunc(fn, "time", "Sleep") && len(call.Args) == 1:
		switch {
		case isReservationDelay(f.info, call.Args[0]):
			w.Kind, w.Name = Limiter, "time.Sleep of a rate.Reservation's delay"
		case namesBackoff(f.info, call.Args[0]):
			w.Kind, w.Name = Backoff, "a backoff sleep"
		default:
			return Wait{}, false
		}
	case isBackoffWait(fn):
		w.Kind, w.Name = Backoff, displayName(fn)
	case f.cfg.Mutex && (isMethod(fn, "sync", "Mutex", "Lock") || isMethod(fn, "sync", "RWMutex", "Lock") || isMethod(fn, "sync", "RWMutex", "RLock")):
		w.Kind, w.Name = Mutex, displayName(fn)
	case isLimiterWait(fn):
		w.Kind, w.Name = Limiter, displayName(fn)
	default:
		return f.shapedCall(call, fn, w)
	}
	return w, true
}

// shapedCall recognizes admission calls by the shape of their API, as the
// limiter package decides it: Acquire or Take on a type that also releases,
// a pacer's Take() time.Time, Start on a gate that also has Done. A
// Start/Done pair counts only on a type or package named gate: services
// start and stop with the same names.
func (f *Finder) shapedCall(call *ast.CallExpr, fn *types.Func, w Wait) (Wait, bool) {
	a, ok := f.limiter().Acquire(call)
	if !ok || !a.Blocking() {
		return Wait{}, false
	}
	switch a.Kind {
	case limiter.Semaphore:
		if !f.mayBlock(fn) {
			return Wait{}, false // a reference count: page.Acquire() … page.Release()
		}
		w.Kind = Semaphore
	case limiter.RateLimiter:
		w.Kind = Limiter
	case limiter.Gate:
		if !saysGate(fn) {
			return Wait{}, false
		}
		w.Kind = Semaphore
	default:
		return Wait{}, false
	}
	w.Name = displayName(fn)
	return w, true
}

// mayBlock reports whether an Acquire-shaped method can wait: it takes a
// context or returns an error (a blocking acquire must be cancellable or
// fail), or, declared in this package, its body blocks (a channel operation,
// a Wait, Acquire or Lock call).
func (f *Finder) mayBlock(fn *types.Func) bool {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil {
		return false
	}
	for i := range sig.Params().Len() {
		if isNamed(sig.Params().At(i).Type(), "context", "Context") {
			return true
		}
	}
	for i := range sig.Results().Len() {
		if types.Identical(sig.Results().At(i).Type(), types.Universe.Lookup("error").Type()) {
			return true
		}
	}
	decl := f.declOf(fn)
	if decl == nil || decl.Body == nil {
		return false
	}
	blocks := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			blocks = true
		case *ast.UnaryExpr:
			blocks = blocks || n.Op == token.ARROW
		case *ast.SelectStmt:
			blocks = true
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				switch sel.Sel.Name {
				case "Wait", "WaitN", "Acquire", "Lock":
					blocks = true
				}
			}
		}
		return !blocks
	})
	return blocks
}

// declOf returns the declaration of fn in this package, or nil.
func (f *Finder) declOf(fn *types.Func) *ast.FuncDecl {
	if f.decls == nil {
		f.decls = make(map[types.Object]*ast.FuncDecl)
		for cur := range f.insp.Root().Preorder((*ast.FuncDecl)(nil)) {
			d := cur.Node().(*ast.FuncDecl)
			if obj := f.info.Defs[d.Name]; obj != nil {
				f.decls[obj] = d
			}
		}
	}
	return f.decls[fn.Origin()]
}

// limiter returns the limiter vocabulary's Finder for the package.
func (f *Finder) limiter() *limiter.Finder {
	if f.lim == nil {
		f.lim = limiter.New(f.info, f.insp, nil)
	}
	return f.lim
}

// isLimiterWait reports whether fn is Wait or WaitN, taking a context first,
// on a type named like a rate limiter (quotas.RateLimiter,
// flowcontrol.RateLimiter).
func isLimiterWait(fn *types.Func) bool {
	if fn.Name() != "Wait" && fn.Name() != "WaitN" {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil || sig.Params().Len() == 0 || !isNamed(sig.Params().At(0).Type(), "context", "Context") {
		return false
	}
	name := strings.ToLower(typeName(sig.Recv().Type()))
	return strings.Contains(name[strings.LastIndex(name, ".")+1:], "limiter")
}

// saysGate reports whether fn's receiver type, or its package, is named gate.
func saysGate(fn *types.Func) bool {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	name := strings.ToLower(typeName(sig.Recv().Type()))
	pkg := ""
	if fn.Pkg() != nil {
		pkg = strings.ToLower(fn.Pkg().Name())
	}
	return strings.Contains(name[strings.LastIndex(name, ".")+1:], "gate") || strings.Contains(pkg, "gate")
}

func (f *Finder) send(s *ast.SendStmt) (Wait, bool) {
	v := Var(f.info, s.Chan)
	if v == nil {
		return Wait{}, false
	}
	switch {
	case f.IsSemaphoreChan(v):
		return Wait{Kind: Semaphore, Node: s, Name: "the send to semaphore channel " + v.Name(), On: v}, true
	case f.IsPoolChan(v):
		return Wait{Kind: Pool, Node: s, Name: "the hand-off to the workers of " + v.Name(), On: v}, true
	}
	return Wait{}, false
}

func (f *Finder) receive(u *ast.UnaryExpr) (Wait, bool) {
	if v := Var(f.info, u.X); v != nil && f.IsTokenChan(v) {
		return Wait{Kind: Semaphore, Node: u, Name: "the receive from token channel " + v.Name(), On: v}, true
	}
	if call, ok := ast.Unparen(u.X).(*ast.CallExpr); ok && len(call.Args) == 1 {
		if fn, ok := typeutil.Callee(f.info, call).(*types.Func); ok && isFunc(fn, "time", "After") && namesBackoff(f.info, call.Args[0]) {
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
	for _, stmt := range s.Body.List {
		cc := stmt.(*ast.CommClause)
		if cc.Comm == nil {
			return Wait{}, false // a default: a try, not a wait
		}
		if w, ok := f.comm(cc.Comm); ok && !found {
			acquire, found = w, true
			continue
		}
		if !f.givesUp(cc.Comm) {
			return Wait{}, false // a select that also does work is a loop's dispatcher
		}
	}
	if !found {
		return Wait{}, false
	}
	acquire.Node = s
	return acquire, true
}

// comm reports whether a select case's communication is an acquire.
func (f *Finder) comm(stmt ast.Stmt) (Wait, bool) {
	switch s := stmt.(type) {
	case *ast.SendStmt:
		return f.send(s)
	case *ast.ExprStmt:
		if u, ok := ast.Unparen(s.X).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			return f.receive(u)
		}
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			if u, ok := ast.Unparen(s.Rhs[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				return f.receive(u)
			}
		}
	}
	return Wait{}, false
}

// givesUp reports whether a select case's communication is a receive from
// ctx.Done(), a timer or a stop channel of struct{}: a way out of the wait,
// not work.
func (f *Finder) givesUp(stmt ast.Stmt) bool {
	var x ast.Expr
	switch s := stmt.(type) {
	case *ast.ExprStmt:
		x = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) != 1 {
			return false
		}
		x = s.Rhs[0]
	default:
		return false
	}
	u, ok := ast.Unparen(x).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return false
	}
	if call, ok := ast.Unparen(u.X).(*ast.CallExpr); ok {
		fn, _ := typeutil.Callee(f.info, call).(*types.Func)
		return fn != nil && (fn.Name() == "Done" || isFunc(fn, "time", "After"))
	}
	t := f.info.TypeOf(u.X)
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	if isNamed(ch.Elem(), "time", "Time") {
		return true // a timer's or ticker's C
	}
	s, ok := ch.Elem().Underlying().(*types.Struct)
	return ok && s.NumFields() == 0
}

// isSelectComm reports whether the send or receive at cur is (part of) the
// communication of a select case.
func isSelectComm(cur inspector.Cursor) bool {
	for p := cur.Parent(); p.Valid(); p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.CommClause:
			return n.Comm != nil && n.Comm.Pos() <= cur.Node().Pos() && cur.Node().End() <= n.Comm.End()
		case *ast.ExprStmt, *ast.AssignStmt, *ast.ParenExpr, *ast.SendStmt:
			continue
		}
		return false
	}
	return false
}

// Var returns the variable or struct field expr denotes, as package limiter
// decides it.
func Var(info *types.Info, expr ast.Expr) *types.Var { return limiter.Var(info, expr) }

func origin(v *types.Var) *types.Var {
	if v == nil {
		return nil
	}
	return v.Origin()
}

// isReservationDelay reports whether expr is r.Delay() or r.DelayFrom(t) on
// a *rate.Reservation: sleeping it is waiting for the limiter.
func isReservationDelay(info *types.Info, expr ast.Expr) bool {
	call, ok := ast.Unparen(expr).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && (isMethod(fn, ratePath, "Reservation", "Delay") || isMethod(fn, ratePath, "Reservation", "DelayFrom"))
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
		if hasBackoff(id.Name) {
			found = true
			return false
		}
		if t := info.TypeOf(id); t != nil && hasBackoff(typeName(t)) {
			found = true
		}
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
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	return hasBackoff(typeName(sig.Recv().Type()))
}

func hasBackoff(s string) bool { return strings.Contains(strings.ToLower(s), "backoff") }

// typeName returns "pkgpath.Name" for a named type or a pointer to one.
func typeName(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// isMethod reports whether fn is the method name of the named type pkg.typ
// (value or pointer receiver).
func isMethod(fn *types.Func, pkg, typ, name string) bool {
	if fn.Name() != name || fn.Pkg() == nil || fn.Pkg().Path() != pkg {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	return isNamed(sig.Recv().Type(), pkg, typ)
}

// isFunc reports whether fn is the package-level function pkg.name.
func isFunc(fn *types.Func, pkg, name string) bool {
	if fn.Name() != name || fn.Pkg() == nil || fn.Pkg().Path() != pkg {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig != nil && sig.Recv() == nil
}

// isNamed reports whether t, or the type t points to, is pkg.name.
func isNamed(t types.Type, pkg, name string) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// displayName names fn the way Go code would: "pool.Get",
// "(*pool.Pool).Get".
func displayName(fn *types.Func) string {
	pkg := ""
	if fn.Pkg() != nil {
		pkg = fn.Pkg().Name() + "."
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return pkg + fn.Name()
	}
	t := sig.Recv().Type()
	star := ""
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t, star = p.Elem(), "*"
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return "(" + star + pkg + n.Obj().Name() + ")." + fn.Name()
	}
	return fn.Name()
}
