// Package admission answers the question every queuecheck check that looks
// at bounds asks: is this call or statement an admission wait — the point
// where a caller queues for the right to run — of which kind, on which
// limiter, and what releases it?
//
// Real code spells an admission in many ways, and a check that knows only
// "sem <- struct{}{}" cries wolf on the others:
//
//   - sem <- token on a buffered channel used as a counting semaphore
//     (released by a receive that drops the value);
//   - <-tokens from a channel pre-filled with tokens or pooled resources
//     (released by sending the token back);
//   - (*semaphore.Weighted).Acquire, and Acquire or Take on any type that
//     also has Release, Give or Put; TryAcquire and its variants, which do
//     not wait but bound the work when their failure is handled inline;
//   - (*rate.Limiter).Wait and WaitN, a pacer's Take() time.Time, Wait or
//     WaitN taking a context on a type named like a limiter, and time.Sleep
//     of a rate.Reservation's delay;
//   - Start on a gate that also has Done;
//   - Go on an errgroup.Group that was given a SetLimit;
//   - handing a job to a pool: a send on an unbuffered channel that
//     goroutines of the package receive from in a loop;
//   - a backoff: time.Sleep, or a receive from time.After, of a duration
//     that names a backoff, and Wait/Sleep methods of backoff types;
//   - calls a check's user lists in a flag, and mutex locks when a check
//     asks for them;
//   - calls of functions that are themselves admission waits: facts;
//   - (Strict) calls of an interface method whose every implementation the
//     program declares (this package and its direct imports) is one, and of
//     a func field every function assigned to which is one (dynamic.go).
//
// The last line is what makes the vocabulary reach real code: a function
// whose main path performs one of these waits and does nothing after it but
// return (and hand back a release) is an admission wait, in this package and,
// through an [analysis.Fact], in every package that calls it. The same walk
// records more kinds of helper the checks ask about: a function that only
// sends its argument on a channel, one that tries a non-blocking send and
// reports whether it succeeded, one that only pauses (sleeps, waits for a
// timer or a backoff), and one that only returns a new empty slice (a
// queue reset to its result is emptied). See [FuncFact].
//
// Two modes answer two questions. By default a wait is anything that
// bounds how much work runs at once or how fast it starts (unboundedqueue:
// "is this spawn bounded?"): any blocking acquire counts, and a send on a
// semaphore channel in a select with a default is a try. With
// [Options.Strict] a wait is where time is spent queueing (waittiming: "is
// this measurement hiding a wait?"): an acquire-shaped call counts only
// when it can block, a semaphore channel only when one function acquires
// and releases it, a one-slot channel is a mutex, pool hand-offs and
// backoffs count, and a select is the wait rather than its case.
package admission

import (
	"go/ast"
	"go/token"
	"go/types"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// Kind is the sort of admission a wait queues for.
type Kind uint8

const (
	SemaphoreChan Kind = iota + 1 // sem <- token on a channel used as a counting semaphore
	TokenChan                     // <-tokens from a channel of tokens or pooled resources
	Semaphore                     // Acquire/Take on a semaphore type
	RateLimiter                   // a rate limiter's or pacer's wait
	Gate                          // Start on a gate with Done
	LimitedGroup                  // Go on an errgroup.Group with a limit
	Pool                          // a hand-off to the workers of a pool (Strict)
	Backoff                       // a backoff delay (Strict)
	Mutex                         // a mutex lock (Options.Mutex)
	Listed                        // a call listed in Options.Extra
	CondQueue                     // a sync.Cond wait until a store is non-empty (cond.go)
	CondBudget                    // a sync.Cond wait until a counter is under its bound (cond.go)
	JobQueue                      // jobs handed to a pool's workers and the wait for their results (submit.go)
	PoolCheckout                  // Get(ctx) of a connection from a type whose name ends in pool (Strict)
)

var kindNames = [...]string{
	SemaphoreChan: "SemaphoreChan", TokenChan: "TokenChan", Semaphore: "Semaphore",
	RateLimiter: "RateLimiter", Gate: "Gate", LimitedGroup: "LimitedGroup", Pool: "Pool",
	Backoff: "Backoff", Mutex: "Mutex", Listed: "Listed",
	CondQueue: "CondQueue", CondBudget: "CondBudget", JobQueue: "JobQueue",
	PoolCheckout: "PoolCheckout",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(?)"
}

// A Wait is one admission wait.
type Wait struct {
	Kind Kind
	// Node is what waits: the call, the send statement, the receive
	// expression, or (Strict) the select statement whose case acquires.
	Node ast.Node
	// Name says what the wait is, for messages:
	// "(*semaphore.Weighted).Acquire", "the send to semaphore channel sem",
	// "(*pool).acquire".
	Name string
	// On is the variable or field holding what is waited on (the semaphore,
	// limiter, group or channel), or nil when it is not held in one.
	On *types.Var
	// Try is set for an acquire that does not wait (TryAcquire, a send in a
	// select with a default): it bounds work only when its failure is
	// handled inline.
	Try bool
	// Via is the function called when the wait is a call of a helper that
	// waits (a fact); Kind is then the kind of the helper's own wait.
	Via *types.Func
	// Release says how the slot taken is given back.
	Release Release
}

// Blocking reports whether the wait blocks until admitted.
func (w Wait) Blocking() bool { return !w.Try }

// ReleaseKind says how a slot is given back.
type ReleaseKind uint8

const (
	NoRelease     ReleaseKind = iota // nothing to release: a rate limiter, a backoff, a hand-off
	ReleaseCall                      // a method of the limiter: sem.Release(n), g.Done()
	ReleaseRecv                      // a receive from the semaphore channel: <-sem
	ReleaseSend                      // sending the token back: tokens <- tok
	ReleaseFunc                      // calling a func() the helper returned
	ReleaseMethod                    // calling a method of the helper's receiver
	ReleaseAuto                      // the slot is released when the submitted function returns (errgroup)
)

// A Release describes how a wait's slot is given back.
type Release struct {
	Kind ReleaseKind
	// Method names the release method for ReleaseCall ("Release") and
	// ReleaseMethod ("release").
	Method string
	// Result is the index of the func() result for ReleaseFunc.
	Result int
}

// Options selects what a check counts as a wait.
type Options struct {
	// Strict applies the rules of a wait that spends time queueing (see the
	// package documentation); without it, anything that bounds counts.
	Strict bool
	// Mutex counts sync.Mutex.Lock, sync.RWMutex.Lock and RLock as waits
	// (Strict only), and one-slot channels as semaphores.
	Mutex bool
	// Extra lists further waits, such as a *calls.Table a flag fills.
	Extra interface{ Contains(*types.Func) bool }
}

// A Result is what the admission analyzer learned about one package: the
// channel and errgroup facts gathered on first use, and the helpers of this
// package and of the packages it imports.
type Result struct {
	pass *analysis.Pass
	info *types.Info
	insp *inspector.Inspector

	chanOnce sync.Once
	chans    *chanFacts

	// helpers maps this package's and imported functions to what they are.
	helpers map[types.Object]*FuncFact
	// lits maps local variables holding a function literal (acquire :=
	// func() {...}) to what the literal is: closures are classified through
	// their enclosing function.
	lits map[*types.Var]*FuncFact
	// litVars holds every local variable given a function literal once
	// and never assigned again, fact or not: its body is in view.
	litVars map[*types.Var]inspector.Cursor
	// funcDecls are the declarations of this package's functions, and
	// declAt their indexes by function, built once (see FuncDecl).
	declOnce  sync.Once
	funcDecls []decl
	declAt    map[*types.Func]int
	// isTest reports whether a file of the package is a test file.
	isTest func(*ast.File) bool
	// timers caches how each function measures time (see timerOf).
	timers map[*types.Func]*timing.Helper
	// ifaces caches the waits behind interface methods (dynamic.go), which
	// checks ask about once the helpers are classified (ready).
	ifaces ifaceWaits
	fields fieldWaits
	params paramFuncs
	ready  bool
	// argLits caches what function literals handed as arguments are
	// (LitFact), classified when a check asks.
	argLits map[*ast.FuncLit]*FuncFact
	// imported caches importedImplInner.
	imported importedImpls
	// implementers caches, per interface of the package, the package's
	// types that implement it (classifyInterfaces).
	implementers map[*types.Interface][]types.Type
	// impls lists the package's and its imports' types once, for the
	// implementations of interfaces imported or not.
	impls code.ImplFinder
}

// Finder returns the questions of one check about the package, asked with
// opts.
func (r *Result) Finder(opts Options) *Finder {
	return &Finder{r: r, info: r.info, opts: opts}
}

// Inspector returns the inspector of the package's syntax.
func (r *Result) Inspector() *inspector.Inspector { return r.insp }

// Helper returns what fn is, as a helper of this package or a fact of
// another, or nil.
func (r *Result) Helper(fn *types.Func) *FuncFact {
	if fn == nil {
		return nil
	}
	return r.helpers[fn.Origin()]
}

// LitFact returns what the function literal at lit is, as a declared
// function's fact would say (a wait, a wait and then work, a pause), or
// nil: a literal handed to a function that runs it (metrics.Time("op",
// func() error {…})) is classified when a check asks, once.
func (r *Result) LitFact(lit inspector.Cursor) *FuncFact {
	fl, ok := lit.Node().(*ast.FuncLit)
	if !ok {
		return nil
	}
	if ff, done := r.argLits[fl]; done {
		return ff
	}
	if r.argLits == nil {
		r.argLits = make(map[*ast.FuncLit]*FuncFact)
	}
	body, _ := lit.FindNode(fl.Body)
	ff := r.classify(r.Finder(Options{}), r.Finder(Options{Strict: true}), nil, body)
	r.argLits[fl] = ff
	return ff
}

// HelperCall returns what the function call calls is, when it is a helper:
// a declared function or method (r.Helper), an interface method whose
// declaring package's implementations share a fact, or a local variable
// holding a function literal that is one.
func (r *Result) HelperCall(call *ast.CallExpr) (*FuncFact, *types.Func) {
	if fn := code.Callee(r.info, call); fn != nil {
		return r.Helper(fn), fn
	}
	// An interface method has a fact when its package's implementations
	// all share it (classifyInterfaces).
	if fn := code.CalleeFunc(r.info, call); fn != nil {
		if h := r.Helper(fn); h != nil {
			return h, fn
		}
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if v, ok := r.info.Uses[id].(*types.Var); ok {
			return r.lits[v], nil
		}
	}
	return nil, nil
}

// HasTrySend reports whether a function of this package, or of one it
// imports, tries a non-blocking send: only then can a loop around a call be
// a retry loop.
func (r *Result) HasTrySend() bool {
	for _, ff := range r.helpers {
		if ff.TrySend != nil {
			return true
		}
	}
	return false
}

// HasTimerHelpers reports whether a function of this package, or of one it
// imports, measures time for its callers (a timer, a recorder of the time
// since a start).
func (r *Result) HasTimerHelpers() bool {
	for _, ff := range r.helpers {
		if ff.Timer != nil {
			return true
		}
	}
	return false
}

// HasWaitHelpers reports whether a function of this package, or of one it
// imports, is an admission wait.
func (r *Result) HasWaitHelpers() bool {
	for _, ff := range r.helpers {
		if ff.Wait != nil {
			return true
		}
	}
	return len(r.lits) > 0
}

// A Finder answers one check's admission questions about one package.
type Finder struct {
	r    *Result
	info *types.Info
	opts Options
}

// At reports whether the node at cur (a call, send statement, receive
// expression, or with Strict a select statement) is an admission wait.
//
// Without Strict, a send or receive that is a select's case is classified
// itself: blocking when the select has no default, a try when it has one.
// With Strict, such a case is not a wait by itself; the select is, when it
// has no default and its other cases only give up (cancellation, a timer).
func (f *Finder) At(cur inspector.Cursor) (Wait, bool) {
	switch n := cur.Node().(type) {
	case *ast.CallExpr:
		return f.call(n)
	case *ast.SendStmt:
		return f.chanOp(cur, func() (Wait, bool) { return f.send(n) })
	case *ast.UnaryExpr:
		if n.Op != token.ARROW {
			return Wait{}, false
		}
		return f.chanOp(cur, func() (Wait, bool) { return f.receive(n) })
	case *ast.SelectStmt:
		if f.opts.Strict {
			return f.selectWait(n)
		}
	}
	return Wait{}, false
}

// chanOp classifies the send or receive at cur with classify, as At says
// for a select's case: none with Strict, a try beside a default without.
func (f *Finder) chanOp(cur inspector.Cursor, classify func() (Wait, bool)) (Wait, bool) {
	if f.opts.Strict && code.IsSelectComm(cur) {
		return Wait{}, false
	}
	w, ok := classify()
	if ok && !f.opts.Strict && code.InSelectWithDefault(cur) {
		w.Try = true
	}
	return w, ok
}

// Helper returns what the function call calls is, when it is a helper, and
// the function (nil for a local function literal).
func (f *Finder) Helper(call *ast.CallExpr) (*FuncFact, *types.Func) { return f.r.HelperCall(call) }

// HasWaitHelpers is Result.HasWaitHelpers.
func (f *Finder) HasWaitHelpers() bool { return f.r.HasWaitHelpers() }

// IsSemaphoreChan reports whether v holds a channel used as a counting
// semaphore: blocking sends of values that carry no data, released by
// receives that drop the value, never made unbuffered and never pre-filled.
// With Strict, one function must also send and then (itself, in a deferred
// closure or in a goroutine it starts) receive — a completion signal sent by
// a goroutine and received by its parent does not pair that way — and a
// channel of one slot is a mutex unless the Options count mutexes.
func (f *Finder) IsSemaphoreChan(v *types.Var) bool {
	cf := f.r.chanFacts()
	v = v.Origin()
	loose := cf.tokenSend[v] && cf.discardRcv[v] && !cf.unbuffered[v] && !cf.prefilled[v]
	if !f.opts.Strict {
		return loose
	}
	return loose && cf.semaphore[v] && f.notMutex(cf, v)
}

// IsTokenChan reports whether v holds a channel of tokens or pooled
// resources: filled up front (a send in a loop that does nothing else; a
// field holds the tokens of the local its constructor filled), or (Strict)
// received from and the same value sent back by one function. Receiving
// from it acquires a slot.
func (f *Finder) IsTokenChan(v *types.Var) bool {
	cf := f.r.chanFacts()
	v = v.Origin()
	if !f.opts.Strict {
		return cf.prefilled[v] && !cf.unbuffered[v]
	}
	return (cf.token[v] || cf.prefilled[v]) && !cf.unbuffered[v] && f.notMutex(cf, v)
}

func (f *Finder) notMutex(cf *chanFacts, v *types.Var) bool {
	return f.opts.Mutex || !cf.capOne[v] || cf.buffered[v]
}

// IsPoolChan reports whether v holds the job channel of a pool of workers:
// made unbuffered, never buffered, and received from in a loop by
// goroutines of the package that run each job (not batch it). A send to it
// waits until a worker is free.
func (f *Finder) IsPoolChan(v *types.Var) bool {
	cf := f.r.chanFacts()
	v = v.Origin()
	return cf.worked[v] && cf.unbuffered[v] && !cf.buffered[v] && !cf.capOne[v] && !cf.semaphore[v] && !cf.token[v] && !cf.batched[v] && carriesJobs(v)
}

// carriesJobs reports whether the channel v holds can carry a job: its
// elements are not channels. A request that is only its reply channel
// (w.stopc <- donec; <-donec) is a handshake with the loop that receives
// it — a stop, a flush — not work queued behind other callers' work.
func carriesJobs(v *types.Var) bool {
	ch, ok := v.Type().Underlying().(*types.Chan)
	return ok && !code.IsChan(ch.Elem())
}

// IsJobQueue reports whether v holds a buffered channel of jobs: made with
// a buffer (or one sized at run time), or unbuffered into a batching
// writer, received from in a loop by goroutines of the package, and neither
// a semaphore nor a pool of tokens.
// A send to it returns when the job is queued; the job waits there behind
// the earlier ones.
func (f *Finder) IsJobQueue(v *types.Var) bool {
	cf := f.r.chanFacts()
	v = v.Origin()
	queued := cf.buffered[v] && !cf.unbuffered[v]
	// A batching writer takes each item at once and applies it later: its
	// batch is the queue, whatever the channel's buffer.
	queued = queued || (cf.batched[v] && cf.unbuffered[v] && !cf.buffered[v])
	return cf.worked[v] && queued && !cf.semaphore[v] && !cf.token[v] && !cf.prefilled[v] && !cf.tokenSend[v] && carriesJobs(v)
}

// IsLimitedGroup reports whether v holds an errgroup.Group whose SetLimit is
// called somewhere in the package with a limit that is not a negative
// constant (a negative limit removes the limit).
func (f *Finder) IsLimitedGroup(v *types.Var) bool {
	return f.r.chanFacts().limited[v.Origin()]
}

// CreatedAt returns where the value v holds is created: the declaration of
// a local variable, and every call (make, a constructor) whose result is
// stored in v. A function that creates a semaphore and acquires it before
// anyone else can see it does not wait.
func (f *Finder) CreatedAt(v *types.Var) []token.Pos {
	v = v.Origin()
	var at []token.Pos
	if code.IsLocal(v) {
		at = append(at, v.Pos())
	}
	return append(at, f.r.chanFacts().created[v]...)
}

// InnerCallee is Result.InnerCallee.
func (f *Finder) InnerCallee(call *ast.CallExpr) *types.Func { return f.r.InnerCallee(call) }
