// Package limiter answers the question several queuecheck checks ask about a
// statement or call: does it acquire a slot of a limiter, and does it wait for
// one?
//
// A limiter is anything that bounds how much work runs at once or how fast it
// starts. Real code spells acquiring one in many ways, and a check that knows
// only "sem <- struct{}{}" cries wolf on the others:
//
//   - sem <- token on a buffered channel used as a semaphore (released by a
//     receive that discards the value);
//   - <-tokens from a channel pre-filled with tokens or pooled resources;
//   - (*semaphore.Weighted).Acquire, or Acquire/Take on any type that also has
//     a Release/Give method;
//   - (*rate.Limiter).Wait/WaitN and a pacer's Take() time.Time;
//   - Start() on a gate that also has Done();
//   - errgroup.Group.Go on a group with a SetLimit (Go blocks at the limit);
//   - TryAcquire, which does not wait but bounds the work when its failure is
//     handled inline;
//   - calls the caller lists in a [calls.Table].
//
// A [Finder] answers for one package. Questions about channels and errgroups
// need facts from the whole package (is this channel ever released, pre-filled,
// unbuffered; did anyone call SetLimit); the Finder gathers them on first use,
// in one walk of the shared inspector, so a check that never asks pays nothing.
//
// Two small questions come with it, because the answers above depend on them:
// [Var] (which variable or field an expression names, so that a limiter is
// recognised by its types.Object and never by its name) and
// [InSelectWithDefault] (whether a channel operation only tries).
package limiter

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
)

// Kind is the sort of limiter an acquire takes a slot from.
type Kind int

const (
	SemaphoreChan Kind = iota + 1 // sem <- token on a channel released by <-sem
	TokenChan                     // <-tokens on a channel pre-filled with tokens or resources
	Semaphore                     // Acquire/Take on a semaphore type with Release/Give
	RateLimiter                   // (*rate.Limiter).Wait/WaitN, Take() time.Time
	Gate                          // Start() on a type with Done()
	LimitedGroup                  // Go on an errgroup.Group that has a SetLimit
	TryAcquire                    // TryAcquire: does not wait; bounds work with an inline fallback
	Listed                        // a call named in the Finder's extra list
)

// An Acquire is one acquire of a limiter.
type Acquire struct {
	Kind Kind
	Node ast.Node // the send statement, receive expression or call
	// Limiter is the variable or field holding the limiter, or nil when the
	// limiter is not held in one (a call result, an index expression).
	Limiter *types.Var
}

// Blocking reports whether the acquire waits until a slot is free.
func (a Acquire) Blocking() bool { return a.Kind != TryAcquire }

const (
	errgroupPath  = "golang.org/x/sync/errgroup"
	semaphorePath = "golang.org/x/sync/semaphore"
	ratePath      = "golang.org/x/time/rate"
)

// A Finder answers limiter questions about one package.
type Finder struct {
	info  *types.Info
	insp  *inspector.Inspector
	extra *calls.Table

	facts *facts // nil until a question needs them
}

// facts are what the package as a whole says about channels and errgroups.
type facts struct {
	tokenSend  map[*types.Var]bool    // sent a value that carries no information, blocking
	tryingSend map[*ast.SendStmt]bool // sends in a select with a default
	discardRcv map[*types.Var]bool    // received from with the value dropped
	prefilled  map[*types.Var]bool    // sent to in a loop that only fills it
	unbuffered map[*types.Var]bool    // made without a buffer somewhere
	setLimit   map[*types.Var]bool    // errgroups given a limit
}

// New returns a Finder for the package whose syntax insp covers. extra, if
// not nil, lists further blocking acquire calls.
func New(info *types.Info, insp *inspector.Inspector, extra *calls.Table) *Finder {
	return &Finder{info: info, insp: insp, extra: extra}
}

// Acquire reports whether n, a send statement, receive expression or call,
// acquires a slot of a limiter.
func (f *Finder) Acquire(n ast.Node) (Acquire, bool) {
	switch n := n.(type) {
	case *ast.SendStmt:
		if v := Var(f.info, n.Chan); v != nil && f.IsSemaphoreChan(v) {
			if f.facts.tryingSend[n] {
				return Acquire{Kind: TryAcquire, Node: n, Limiter: v}, true
			}
			return Acquire{Kind: SemaphoreChan, Node: n, Limiter: v}, true
		}
	case *ast.UnaryExpr:
		if n.Op != token.ARROW {
			break
		}
		if v := Var(f.info, n.X); v != nil && f.IsTokenChan(v) {
			return Acquire{Kind: TokenChan, Node: n, Limiter: v}, true
		}
	case *ast.CallExpr:
		return f.acquireCall(n)
	}
	return Acquire{}, false
}

func (f *Finder) acquireCall(call *ast.CallExpr) (Acquire, bool) {
	fn, ok := typeutil.Callee(f.info, call).(*types.Func)
	if !ok {
		return Acquire{}, false
	}
	a := Acquire{Node: call}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		a.Limiter = Var(f.info, sel.X)
	}
	if f.extra.Contains(fn) {
		a.Kind = Listed
		return a, true
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return Acquire{}, false
	}
	recv := sig.Recv().Type()
	switch {
	case isMethod(fn, semaphorePath, "Weighted", "Acquire"):
		a.Kind = Semaphore
	case isMethod(fn, semaphorePath, "Weighted", "TryAcquire"):
		a.Kind = TryAcquire
	case isMethod(fn, ratePath, "Limiter", "Wait"), isMethod(fn, ratePath, "Limiter", "WaitN"):
		a.Kind = RateLimiter
	case isMethod(fn, errgroupPath, "Group", "Go"):
		if a.Limiter == nil || !f.IsLimitedGroup(a.Limiter) {
			return Acquire{}, false
		}
		a.Kind = LimitedGroup
	case fn.Name() == "Acquire" && hasMethod(recv, fn.Pkg(), "Release"):
		a.Kind = Semaphore
	case fn.Name() == "TryAcquire" && hasMethod(recv, fn.Pkg(), "Release"):
		a.Kind = TryAcquire
	case isAcquireVariant(fn.Name()) && hasMethod(recv, fn.Pkg(), "Release"):
		// AcquireMaybe, AcquireContext, TryAcquireN...: a variant of a
		// semaphore's acquire; one that reports success does not wait.
		a.Kind = Semaphore
		if returnsBool(sig) {
			a.Kind = TryAcquire
		}
	case fn.Name() == "Take" && hasMethod(recv, fn.Pkg(), "Give", "Release", "Put"):
		a.Kind = Semaphore
	case fn.Name() == "Take" && returnsTime(sig):
		a.Kind = RateLimiter // a pacer such as go.uber.org/ratelimit
	case fn.Name() == "Start" && hasMethod(recv, fn.Pkg(), "Done"):
		a.Kind = Gate
	default:
		return Acquire{}, false
	}
	return a, true
}

// IsSemaphoreChan reports whether v holds a channel used as a counting
// semaphore: blocking sends of values that carry no information (struct{}{},
// true, a constant), released by receives that drop the value, never made
// unbuffered and never pre-filled (a pre-filled channel is acquired by
// receiving). A send to it in a select with a default is a TryAcquire.
func (f *Finder) IsSemaphoreChan(v *types.Var) bool {
	fs := f.gather()
	v = origin(v)
	return fs.tokenSend[v] && fs.discardRcv[v] && !fs.unbuffered[v] && !fs.prefilled[v]
}

// IsTokenChan reports whether v holds a channel that is filled with tokens or
// resources up front (a send in a loop that does nothing else), so that
// receiving from it acquires a slot and sending back releases it.
func (f *Finder) IsTokenChan(v *types.Var) bool {
	fs := f.gather()
	v = origin(v)
	return fs.prefilled[v] && !fs.unbuffered[v]
}

// IsLimitedGroup reports whether v holds an errgroup.Group whose SetLimit is
// called somewhere in the package with a limit that is not a negative
// constant (a negative limit removes the limit).
func (f *Finder) IsLimitedGroup(v *types.Var) bool {
	return f.gather().setLimit[origin(v)]
}

// gather collects the package's facts once.
func (f *Finder) gather() *facts {
	if f.facts != nil {
		return f.facts
	}
	fs := &facts{
		tokenSend:  make(map[*types.Var]bool),
		tryingSend: make(map[*ast.SendStmt]bool),
		discardRcv: make(map[*types.Var]bool),
		prefilled:  make(map[*types.Var]bool),
		unbuffered: make(map[*types.Var]bool),
		setLimit:   make(map[*types.Var]bool),
	}
	f.facts = fs
	kinds := []ast.Node{(*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil)}
	for cur := range f.insp.Root().Preorder(kinds...) {
		switch n := cur.Node().(type) {
		case *ast.SendStmt:
			v := Var(f.info, n.Chan)
			if v == nil {
				continue
			}
			if InSelectWithDefault(cur) {
				// A coalescing wake-up (notify <- struct{}{} or default)
				// does not wait; a semaphore is acquired by waiting.
				fs.tryingSend[n] = true
			} else if carriesNoData(f.info, n.Value) {
				fs.tokenSend[v] = true
			}
			if isFillLoopBody(f.info, cur) {
				fs.prefilled[v] = true
			}
		case *ast.UnaryExpr:
			if n.Op != token.ARROW {
				continue
			}
			if _, ok := cur.Parent().Node().(*ast.ExprStmt); ok {
				if v := Var(f.info, n.X); v != nil {
					fs.discardRcv[v] = true
				}
			}
		case *ast.CallExpr:
			f.gatherCall(fs, cur, n)
		}
	}
	return fs
}

func (f *Finder) gatherCall(fs *facts, cur inspector.Cursor, call *ast.CallExpr) {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := f.info.Uses[id].(*types.Builtin); ok && b.Name() == "make" && isUnbufferedMake(f.info, call) {
			if v := AssignedTo(f.info, cur); v != nil {
				fs.unbuffered[v] = true
			}
		}
		return
	}
	fn, ok := typeutil.Callee(f.info, call).(*types.Func)
	if !ok || !isMethod(fn, errgroupPath, "Group", "SetLimit") || len(call.Args) != 1 {
		return
	}
	if tv, ok := f.info.Types[call.Args[0]]; ok && tv.Value != nil && strings.HasPrefix(tv.Value.ExactString(), "-") {
		return // SetLimit(-1) removes the limit
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if v := Var(f.info, sel.X); v != nil {
			fs.setLimit[v] = true
		}
	}
}

// Var returns the variable or struct field expr denotes (x, p.x, *p, &x,
// with fields of generic types mapped to their origin), or nil.
func Var(info *types.Info, expr ast.Expr) *types.Var {
	switch e := ast.Unparen(expr).(type) {
	case *ast.Ident:
		v, _ := info.Uses[e].(*types.Var)
		if v == nil {
			v, _ = info.Defs[e].(*types.Var)
		}
		return origin(v)
	case *ast.SelectorExpr:
		v, _ := info.Uses[e.Sel].(*types.Var)
		return origin(v)
	case *ast.StarExpr:
		return Var(info, e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return Var(info, e.X)
		}
	}
	return nil
}

func origin(v *types.Var) *types.Var {
	if v == nil {
		return nil
	}
	return v.Origin()
}

// InSelectWithDefault reports whether the channel operation at cur (a send
// statement, or a receive expression) is a case of a select that has a
// default: it tries, it does not wait.
func InSelectWithDefault(cur inspector.Cursor) bool {
	child := cur.Node()
	for p := cur.Parent(); p.Valid(); child, p = p.Node(), p.Parent() {
		switch n := p.Node().(type) {
		case *ast.CommClause:
			sel, ok := p.Parent().Parent().Node().(*ast.SelectStmt)
			return ok && n.Comm == child && hasDefault(sel)
		case *ast.ExprStmt, *ast.AssignStmt, *ast.ParenExpr:
			// <-ch, v := <-ch and v, ok = <-ch wrap a receive case.
		default:
			return false
		}
	}
	return false
}

func hasDefault(sel *ast.SelectStmt) bool {
	for _, s := range sel.Body.List {
		if s.(*ast.CommClause).Comm == nil {
			return true
		}
	}
	return false
}

// carriesNoData reports whether a sent value is a token: of a zero-size type
// or a constant.
func carriesNoData(info *types.Info, value ast.Expr) bool {
	tv, ok := info.Types[value]
	if !ok || tv.Type == nil {
		return false
	}
	if tv.Value != nil {
		return true
	}
	if s, ok := tv.Type.Underlying().(*types.Struct); ok && s.NumFields() == 0 {
		return true
	}
	return false
}

// isFillLoopBody reports whether the send at cur is the only statement of a
// counting loop (for i := 0; i < n; i++, for range n): the shape that fills a
// token channel or a resource pool up front. A loop over a slice that sends
// each element is a producer feeding a stream, not a fill.
func isFillLoopBody(info *types.Info, cur inspector.Cursor) bool {
	block, ok := cur.Parent().Node().(*ast.BlockStmt)
	if !ok || len(block.List) != 1 {
		return false
	}
	switch loop := cur.Parent().Parent().Node().(type) {
	case *ast.ForStmt:
		return loop.Init != nil && loop.Cond != nil && loop.Post != nil
	case *ast.RangeStmt:
		t := info.TypeOf(loop.X)
		if t == nil {
			return false
		}
		b, ok := t.Underlying().(*types.Basic)
		return ok && b.Info()&types.IsInteger != 0
	}
	return false
}

// isUnbufferedMake reports whether call is make(chan T) or make(chan T, 0).
func isUnbufferedMake(info *types.Info, call *ast.CallExpr) bool {
	if len(call.Args) == 0 {
		return false
	}
	if t := info.TypeOf(call.Args[0]); t == nil {
		return false
	} else if _, ok := t.Underlying().(*types.Chan); !ok {
		return false
	}
	if len(call.Args) == 1 {
		return true
	}
	tv, ok := info.Types[call.Args[1]]
	return ok && tv.Value != nil && tv.Value.ExactString() == "0"
}

// AssignedTo returns the variable (or field) that the value at cur is
// assigned to, declared with, or given as in a keyed composite literal.
func AssignedTo(info *types.Info, cur inspector.Cursor) *types.Var {
	if lhs := Assignee(cur); lhs != nil {
		return Var(info, lhs)
	}
	return nil
}

// Assignee returns the expression that the value at cur is assigned to: the
// left-hand side of an assignment or declaration, or the key of a keyed
// composite-literal element; nil otherwise.
func Assignee(cur inspector.Cursor) ast.Expr {
	value := cur.Node()
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == len(p.Rhs) {
			for i, rhs := range p.Rhs {
				if rhs == value {
					return p.Lhs[i]
				}
			}
		}
	case *ast.ValueSpec:
		if len(p.Names) == len(p.Values) {
			for i, rhs := range p.Values {
				if rhs == value {
					return p.Names[i]
				}
			}
		}
	case *ast.KeyValueExpr:
		if key, ok := p.Key.(*ast.Ident); ok && p.Value == value {
			return key
		}
	}
	return nil
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
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == typ
}

// hasMethod reports whether values of type recv (or pointers to them) have a
// method with one of the names.
func hasMethod(recv types.Type, pkg *types.Package, names ...string) bool {
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	for _, name := range names {
		obj, _, _ := types.LookupFieldOrMethod(recv, true, pkg, name)
		if _, ok := obj.(*types.Func); ok {
			return true
		}
	}
	return false
}

// isAcquireVariant reports whether a method name names a variant of a
// semaphore's Acquire or TryAcquire.
func isAcquireVariant(name string) bool {
	return strings.HasPrefix(name, "Acquire") || strings.HasPrefix(name, "TryAcquire")
}

func returnsBool(sig *types.Signature) bool {
	if sig.Results().Len() != 1 {
		return false
	}
	b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

func returnsTime(sig *types.Signature) bool {
	if sig.Results().Len() != 1 {
		return false
	}
	n, ok := types.Unalias(sig.Results().At(0).Type()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Time"
}
