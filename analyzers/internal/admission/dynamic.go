package admission

import (
	"go/ast"
	"go/types"
	"slices"
	"sync"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// Waits behind an interface. A call of an interface method runs whichever
// implementation the value holds; the analyzed program declares some of
// them. A call is a wait when every implementation it declares waits (and
// at least one is known): the named types of this package and of the
// packages it imports directly whose method of that name is an admission
// wait, in this package's helpers or an imported package's facts.
//
// Not followed: implementations in packages this one does not import
// (a main package that wires a limiter of a third package into a
// library's interface), types made by reflection, and values whose dynamic
// type only a run shows (from maps, channels, plugins). An interface with
// no known implementation is no wait (the rule of each check that asks:
// no wait in the span).
//
// The implementations of each interface are computed once per package, on
// the first call of one of its methods a check asks about: only checks
// that look at a span or a bound ask.

// ifaceWaits caches, per interface method, the wait every implementation
// performs, or nil.
type ifaceWaits struct {
	mu   sync.Mutex
	done map[*types.Func]*ifaceWait
}

// A helper's fact does not follow interfaces: its callers' checks do, once
// every helper of the package is classified (Result.ready).

// An ifaceWait is what every known implementation of an interface method
// waits for.
type ifaceWait struct {
	h     *WaitHelper // the first implementation's wait
	impls int
	iface string // the interface's name, for messages
}

// viaInterface classifies a call of the interface method fn: a wait when
// every implementation the program declares is one.
func (f *Finder) viaInterface(call *ast.CallExpr, fn *types.Func) (Wait, bool) {
	recv := fn.Signature().Recv()
	if recv == nil || !types.IsInterface(recv.Type()) {
		return Wait{}, false
	}
	if !f.r.ready || !f.opts.Strict {
		// The helpers are still being classified; and only the timing
		// question (Strict) follows dynamic calls so far: the bound
		// question's checks were not measured with it on real code.
		return Wait{}, false
	}
	iw := f.r.ifaceWait(fn)
	if iw == nil || (f.opts.Strict && !iw.h.Strict) {
		return Wait{}, false
	}
	name := code.DisplayName(fn) + " via interface " + iw.iface + ": every implementation the program declares waits"
	return Wait{Kind: iw.h.Kind, Node: call, Name: name, Release: iw.h.Release}, true
}

// ifaceWait returns what every known implementation of the interface
// method fn waits for, or nil: computed once per method.
func (r *Result) ifaceWait(fn *types.Func) *ifaceWait {
	r.ifaces.mu.Lock()
	defer r.ifaces.mu.Unlock()
	if iw, ok := r.ifaces.done[fn]; ok {
		return iw
	}
	if r.ifaces.done == nil {
		r.ifaces.done = make(map[*types.Func]*ifaceWait)
	}
	iw := r.implsWait(fn)
	r.ifaces.done[fn] = iw
	return iw
}

// implsWait looks at every named type of this package and of the packages
// it imports directly that implements fn's interface: all of their methods
// named fn must be waits (strict ones when one is).
func (r *Result) implsWait(fn *types.Func) *ifaceWait {
	iface, ok := fn.Signature().Recv().Type().Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return nil
	}
	// Without a waiting helper anywhere, no implementation can wait.
	if !r.HasWaitHelpers() {
		return nil
	}
	iw := &ifaceWait{iface: typeBaseNameCased(fn.Signature().Recv().Type())}
	strict := true
	impls, ok := r.impls.Implementations(fn, append([]*types.Package{r.pass.Pkg}, r.pass.Pkg.Imports()...)...)
	if !ok {
		return nil
	}
	for _, m := range impls {
		h := r.Helper(m)
		if h == nil || h.Wait == nil {
			return nil // one implementation that does not wait
		}
		if iw.h == nil {
			iw.h = h.Wait
		}
		strict = strict && h.Wait.Strict
		iw.impls++
	}
	if iw.impls == 0 {
		return nil
	}
	h := *iw.h
	h.Strict = strict
	h.Field = ""
	iw.h = &h
	return iw
}

// ImplementationsInView returns the methods that implement the interface
// method fn among the named types of this package and of the packages it
// imports directly, where viaInterface looks for them; ok is false when
// they cannot be listed.
func (r *Result) ImplementationsInView(fn *types.Func) (methods []*types.Func, ok bool) {
	return r.impls.Implementations(fn, append([]*types.Package{r.pass.Pkg}, r.pass.Pkg.Imports()...)...)
}

// implementation returns the method of t (or *t) that implements the
// method m of iface, and whether t implements iface at all; the method is
// nil when t implements it with something that is no *types.Func.
func implementation(t types.Type, iface *types.Interface, m *types.Func) (*types.Func, bool) {
	if !types.Implements(t, iface) && !types.Implements(types.NewPointer(t), iface) {
		return nil, false
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, m.Pkg(), m.Name())
	fn, _ := obj.(*types.Func)
	return fn, true
}

// typeBaseNameCased returns the name of a named type, without its package.
func typeBaseNameCased(t types.Type) string {
	if n := code.NamedOf(t); n != nil {
		return n.Obj().Name()
	}
	return types.TypeString(t, func(*types.Package) string { return "" })
}

// Waits behind a func-typed field. A call of a field of func type
// (s.acquire(ctx), where s.acquire = pool.Acquire) runs what the package
// assigns to it: a composite literal's key, an assignment. It is a wait when
// every function assigned there, in this package, is one (and at least one
// is). Not followed: fields assigned in other packages, values that are
// parameters or results (a constructor's argument), function literals, and
// func-typed variables. A func-typed parameter is followed the same way
// when every call of its function is in view (params.go).

// fieldWaits caches, per func-typed field of this package's types, the
// functions the package assigns to it, a nil entry when one is no declared
// function; and, per func type the package declares, the functions it
// hands to a value of that type.
type fieldWaits struct {
	once     sync.Once
	assigned map[*types.Var][]*types.Func
	byType   map[*types.TypeName][]*types.Func
}

// viaFuncValue classifies a call of a func-typed field, or of a parameter
// whose values are all in view: a wait when every function assigned to it,
// or handed for it, is one.
func (f *Finder) viaFuncValue(call *ast.CallExpr) (Wait, bool) {
	if !f.r.ready || !f.opts.Strict { // as in viaInterface
		return Wait{}, false
	}
	var fns []*types.Func
	kind := "field"
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if v := code.Var(f.info, fun); v != nil && v.IsField() && v.Pkg() == f.r.pass.Pkg {
			fns = f.r.funcsAssigned(v)
		}
	case *ast.Ident:
		// A parameter whose every value is in view (params.go).
		if v, ok := f.info.Uses[fun].(*types.Var); ok {
			fns, _ = f.r.ParamFuncs(v)
			kind = "parameter"
		}
	}
	if len(fns) == 0 {
		return Wait{}, false
	}
	v := code.Var(f.info, call.Fun)
	var first *WaitHelper
	for _, fn := range fns {
		h := f.r.Helper(fn)
		if fn == nil || h == nil || h.Wait == nil || (f.opts.Strict && !h.Wait.Strict) {
			return Wait{}, false
		}
		if first == nil {
			first = h.Wait
		}
	}
	name := code.DisplayName(fns[0]) + " via func " + kind + " " + v.Name()
	switch {
	case len(fns) > 1 && kind == "field":
		name = "the func field " + v.Name() + ": every function the package assigns to it waits"
	case len(fns) > 1:
		name = "the func parameter " + v.Name() + ": every function its calls hand it waits"
	}
	return Wait{Kind: first.Kind, Node: call, Name: name, Via: fns[0], Release: first.Release}, true
}

// funcsAssigned returns what the package assigns to the func-typed field v.
func (r *Result) funcsAssigned(v *types.Var) []*types.Func {
	r.fields.once.Do(r.indexFieldFuncs)
	return r.fields.assigned[v]
}

// funcsOfType returns the declared functions the package hands to values
// of its func type tn.
func (r *Result) funcsOfType(tn *types.TypeName) []*types.Func {
	r.fields.once.Do(r.indexFieldFuncs)
	return r.fields.byType[tn]
}

// indexFieldFuncs records what the package assigns to its func-typed
// fields, and which declared functions it hands to values of the func
// types it declares: assigned, set in a composite literal, converted
// (cmdable(c.Process)) or passed for a parameter of that type.
func (r *Result) indexFieldFuncs() {
	r.fields.assigned = make(map[*types.Var][]*types.Func)
	r.fields.byType = make(map[*types.TypeName][]*types.Func)
	byType := func(t types.Type, rhs ast.Expr) {
		tn := r.ownFuncType(t)
		if tn == nil {
			return
		}
		if fn := code.FuncValue(r.info, rhs); fn != nil && !slices.Contains(r.fields.byType[tn], fn) {
			r.fields.byType[tn] = append(r.fields.byType[tn], fn)
		}
	}
	add := func(lhs, rhs ast.Expr) {
		if t := r.info.TypeOf(lhs); t != nil {
			byType(t, rhs)
		}
		v := code.Var(r.info, lhs)
		if v == nil || !v.IsField() {
			return
		}
		if _, ok := v.Type().Underlying().(*types.Signature); !ok {
			return
		}
		r.fields.assigned[v] = append(r.fields.assigned[v], code.FuncValue(r.info, rhs))
	}
	for cur := range r.insp.Root().Preorder((*ast.AssignStmt)(nil), (*ast.KeyValueExpr)(nil), (*ast.CallExpr)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i := range n.Lhs {
					add(n.Lhs[i], n.Rhs[i])
				}
			}
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				if v, ok := r.info.Uses[id].(*types.Var); ok && v.IsField() {
					add(n.Key, n.Value)
				}
			}
		case *ast.CallExpr:
			r.indexFuncArgs(n, byType)
		}
	}
}

// indexFuncArgs hands byType the arguments of call given to a value of a
// func type: the operand of a conversion, or an argument for a parameter
// of that type.
func (r *Result) indexFuncArgs(call *ast.CallExpr, byType func(types.Type, ast.Expr)) {
	tv, ok := r.info.Types[call.Fun]
	if !ok {
		return
	}
	if tv.IsType() {
		if len(call.Args) == 1 {
			byType(tv.Type, call.Args[0])
		}
		return
	}
	sig, ok := tv.Type.Underlying().(*types.Signature)
	if !ok {
		return
	}
	n := sig.Params().Len()
	if sig.Variadic() {
		n-- // the variadic parameter's type is the slice, not its elements'
	}
	for i, arg := range call.Args[:min(n, len(call.Args))] {
		byType(sig.Params().At(i).Type(), arg)
	}
}

// ownFuncType returns the func type of this package that t names, or nil.
func (r *Result) ownFuncType(t types.Type) *types.TypeName {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() != r.pass.Pkg {
		return nil
	}
	if _, ok := named.Underlying().(*types.Signature); !ok {
		return nil
	}
	return named.Origin().Obj()
}

// Dynamic callees of a wait inside. A call of a func value runs one of
// the functions the package hands to it: for a field of func type
// (hooks.process = c.baseClient.process), the declared functions the
// package assigns to the field; for a value of a func type the package
// declares (a receiver of type cmdable, called c(ctx, cmd)), the declared
// functions it converts, assigns or passes to that type. When one of them
// waits for admission inside and then works (InnerWait), a caller that
// times or bounds the call queues behind that wait on the paths that run
// it: the call is taken for a call of that function, and the message
// names it.
//
// Unlike an interface's implementations (implsInner), which are often
// alternatives a deployment chooses between (a writer that queues for a
// single SQLite writer beside one that runs at once on Postgres), the
// functions one func field or type is handed are the layers and variants
// of one path (a hook chain's base, each client kind's Process, which
// reach one another through the same field): requiring every one of them
// to wait would need each to wait first, and the cycle never starts. So a
// func value takes the union. Values the package cannot see (a hook a user
// installs, a result of a call, a literal) add nothing; functions other
// packages hand over are not followed. A parameter of func type whose
// function's calls are all in view (params.go) takes the union of the
// declared functions those calls hand it.

// InnerCallee returns the function a call of a func value may run that
// waits inside before its work, or nil: the first, in source order, of
// the functions the package hands to that field or func type with an
// InnerWait fact.
func (r *Result) InnerCallee(call *ast.CallExpr) *types.Func {
	if _, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		return nil
	}
	if callee := code.Callee(r.info, call); callee != nil {
		// A declared function or method: its own fact answers, unless it
		// is another package's and the value it calls back is ours.
		if callee.Pkg() == r.pass.Pkg || !r.ready {
			return nil
		}
		for _, fn := range r.HandedMethods(call) {
			if h := r.Helper(fn); h != nil && h.Inner != nil {
				return fn
			}
		}
		return nil
	}
	var fns []*types.Func
	if v := code.Var(r.info, call.Fun); v != nil && v.IsField() && v.Pkg() == r.pass.Pkg {
		fns = r.funcsAssigned(v)
	} else if v != nil && !r.TimedParam(v) {
		fns = r.paramFuncsSeen(v) // a parameter whose calls are all in view (params.go)
	}
	if len(fns) == 0 {
		if tv, ok := r.info.Types[call.Fun]; ok && !tv.IsType() {
			if tn := r.ownFuncType(tv.Type); tn != nil {
				fns = r.funcsOfType(tn)
			}
		}
	}
	for _, fn := range fns {
		if h := r.Helper(fn); fn != nil && h != nil && h.Inner != nil {
			return fn
		}
	}
	// Once the package's helpers are classified (as for viaInterface):
	// its own implementations are among those in view.
	if m := code.CalleeFunc(r.info, call); m != nil && r.ready && r.Helper(m) == nil {
		return r.importedImplInner(m)
	}
	return nil
}

// HandedMethods returns, for a call of a function of another package, the
// methods it is handed to call back: for each argument of a concrete type
// given for a parameter whose type is an interface of one method
// (kmsg's req.RequestWith(ctx, cl), whose Requestor has only Request),
// the argument's method that implements it. An interface
// of one method names the one thing the callee can do with the value, and
// a callee whose package gave no fact for it (not analyzed, or unable to
// see this program's implementations from there) runs it, so a caller
// that times or bounds the call times or bounds that method. Parameters of
// type-parameter or wider interface types, and arguments that are
// interfaces themselves, hand nothing the check can name; nor does a
// stream's reader or writer (takesBuffer).
func (r *Result) HandedMethods(call *ast.CallExpr) []*types.Func {
	callee := code.Callee(r.info, call)
	sig, ok := r.info.TypeOf(call.Fun).(*types.Signature)
	if callee == nil || callee.Pkg() == r.pass.Pkg || !ok {
		return nil
	}
	var out []*types.Func
	params := sig.Params()
	for i, arg := range call.Args {
		if params.Len() == 0 {
			break
		}
		pt := params.At(min(i, params.Len()-1)).Type()
		if sig.Variadic() && i >= params.Len()-1 {
			s, ok := pt.(*types.Slice)
			if !ok || call.Ellipsis.IsValid() {
				continue
			}
			pt = s.Elem()
		}
		if _, ok := pt.(*types.TypeParam); ok {
			continue
		}
		iface, ok := pt.Underlying().(*types.Interface)
		at := r.info.TypeOf(arg)
		if !ok || iface.NumMethods() != 1 || !iface.IsMethodSet() || at == nil || types.IsInterface(at) || takesBuffer(iface.Method(0)) {
			continue
		}
		if fn := methodFor(at, iface.Method(0)); fn != nil {
			out = append(out, fn)
		}
	}
	return out
}

// takesBuffer reports whether the method m takes a []byte: a stream's
// Read or Write, which the callee calls once per chunk until the stream
// ends. A wait inside it paces each chunk of the callee's loop (a reader
// throttled to a bandwidth, handed to an upload), a wait per iteration,
// which the checks leave alone, not a queue before the work.
func takesBuffer(m *types.Func) bool {
	for p := range m.Signature().Params().Variables() {
		if s, ok := p.Type().Underlying().(*types.Slice); ok {
			if b, ok := s.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
				return true
			}
		}
	}
	return false
}

// methodFor returns the method of t (or, for a named type that is no
// pointer, of *t) named as m, when t's method set implements m's interface.
func methodFor(t types.Type, m *types.Func) *types.Func {
	for _, tt := range []types.Type{t, types.NewPointer(t)} {
		if _, isPtr := t.(*types.Pointer); isPtr && tt != t {
			break
		}
		obj, _, _ := types.LookupFieldOrMethod(tt, false, m.Pkg(), m.Name())
		if fn, ok := obj.(*types.Func); ok {
			return fn
		}
	}
	return nil
}

// importedImplInner returns, for an interface method m whose declaring
// package gave it no fact and declares no type that implements it (an
// interface declared for its users), the method of the first
// implementation that waits inside before its work, when every
// implementation in view (ImplFinder.Implementations in this package and the
// packages it imports directly, as for implsWait) waits first: each one
// has the fact, save one of this package's that does no blocking work (its
// body was classified, as implsInner leaves such out). An imported
// implementation without the fact is no evidence: its package may not
// have been analyzed. An interface whose own package implements it (io's
// readers, a client package's interface and its client) is left to that
// package's fact. Cached per method.
func (r *Result) importedImplInner(m *types.Func) *types.Func {
	r.imported.mu.Lock() // the checks of a package ask at once
	defer r.imported.mu.Unlock()
	if fn, done := r.imported.done[m]; done {
		return fn
	}
	if r.imported.done == nil {
		r.imported.done = make(map[*types.Func]*types.Func)
	}
	found := r.importedImplInnerOnce(m)
	r.imported.done[m] = found
	return found
}

func (r *Result) importedImplInnerOnce(m *types.Func) *types.Func {
	if m.Pkg() == nil {
		return nil
	}
	if own, ok := r.impls.Implementations(m, m.Pkg()); !ok || len(own) > 0 {
		return nil
	}
	impls, ok := r.impls.Implementations(m, append([]*types.Package{r.pass.Pkg}, r.pass.Pkg.Imports()...)...)
	if !ok {
		return nil
	}
	var found *types.Func
	for _, fn := range impls {
		h := r.Helper(fn)
		switch {
		case h != nil && h.Inner != nil:
			if found == nil {
				found = fn
			}
		case fn.Pkg() == r.pass.Pkg && !h.works():
			// Returns what it holds: no place for a caller's time.
		default:
			return nil
		}
	}
	return found
}

// importedImpls caches, per interface method, importedImplInner's answer.
type importedImpls struct {
	mu   sync.Mutex
	done map[*types.Func]*types.Func
}

// Waits behind an interface declared with its implementations. A package
// that declares an interface and the types that implement it (tempodb's
// Reader and its readerWriter, a client interface and its unexported
// client) is where the program's implementations live; its callers see
// only the interface. When every implementation the declaring package has
// of a method waits for admission and then works (InnerWait), or does
// blocking work (Work), the method itself gets that fact, exported with
// the interface: a caller that times or bounds a call of it, or spawns a
// goroutine that makes one, in any package, sees the wait or the work. Implementations in
// other packages (a wrapper, a mock) are not in the fact: it is what the
// declaring package's own implementations do. A method the fact leaves
// without one, because its package has no implementation that works (an
// interface declared for its users), is answered at each call from the
// implementations in view there (importedImplInner).

// classifyInterfaces gives the methods of the package's interfaces the
// InnerWait fact every implementation of the package shares, and reports
// whether it gave any.
func (r *Result) classifyInterfaces() bool {
	scope := r.pass.Pkg.Scope()
	var impls []types.Type
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok && !tn.IsAlias() && !types.IsInterface(tn.Type()) {
			impls = append(impls, tn.Type())
		}
	}
	added := false
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || !types.IsInterface(tn.Type()) {
			continue
		}
		iface := tn.Type().Underlying().(*types.Interface)
		its := r.implementersIn(iface, impls)
		if len(its) == 0 {
			continue // declared for its users: no implementation here gives a fact
		}
		for m := range iface.ExplicitMethods() {
			if old := r.helpers[m]; old == nil || old.Timer == nil {
				if t := r.implsStart(iface, m, its); t != nil {
					added = true
					if old != nil {
						old.Timer = t
					} else {
						// A starter waits for nothing: no InnerWait to
						// look for. Work, if its implementations do
						// any, is added by the next round.
						r.helpers[m] = &FuncFact{Timer: t}
						continue
					}
				}
			}
			if old := r.helpers[m]; old != nil {
				// Given its InnerWait before the work facts were known:
				// add the work.
				if !old.Work && r.implsWork(iface, m, its) {
					old.Work = true
					added = true
				}
				continue
			}
			iw, work := r.implsInner(iface, m, its), r.implsWork(iface, m, its)
			if iw != nil || work {
				r.helpers[m] = &FuncFact{Inner: iw, Work: work}
				added = true
			}
		}
	}
	return added
}

// implementersIn returns the types of impls that implement iface (or whose
// pointers do), cached per interface: classifyInterfaces asks for each of
// an interface's methods, and runs twice, and most of a package's types
// implement none of its interfaces.
func (r *Result) implementersIn(iface *types.Interface, impls []types.Type) []types.Type {
	if its, ok := r.implementers[iface]; ok {
		return its
	}
	var its []types.Type
	for _, t := range impls {
		if types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface) {
			its = append(its, t)
		}
	}
	if r.implementers == nil {
		r.implementers = make(map[*types.Interface][]types.Type)
	}
	r.implementers[iface] = its
	return its
}

// implFacts returns the facts of method m of every type of impls that
// implements iface, nil for one without; ok is false when an
// implementation's method cannot be seen (a promoted method of an
// embedded interface).
func (r *Result) implFacts(iface *types.Interface, m *types.Func, impls []types.Type) (facts []*FuncFact, ok bool) {
	facts, _, ok = r.implMethods(iface, m, impls)
	return facts, ok
}

// implMethods is implFacts with the methods the facts are of.
func (r *Result) implMethods(iface *types.Interface, m *types.Func, impls []types.Type) (facts []*FuncFact, fns []*types.Func, ok bool) {
	for _, t := range impls {
		fn, impl := implementation(t, iface, m)
		if !impl {
			continue
		}
		if fn == nil {
			return nil, nil, false
		}
		facts, fns = append(facts, r.Helper(fn)), append(fns, fn)
	}
	return facts, fns, true
}

// implsStart returns the timer every type of impls that implements iface
// starts in its method m, when at least one does and all start the same
// field (of the same type: the interface fixes the method's result): a metrics scope's StartTimer, whose real and
// no-op implementations both return a started stopwatch, starts one
// whichever the caller holds.
func (r *Result) implsStart(iface *types.Interface, m *types.Func, impls []types.Type) *timing.Helper {
	facts, ok := r.implFacts(iface, m, impls)
	if !ok || len(facts) == 0 {
		return nil
	}
	var first *timing.Helper
	for _, h := range facts {
		if h == nil || h.Timer == nil || h.Timer.Starts == "" || first != nil && h.Timer.Starts != first.Starts {
			return nil
		}
		first = h.Timer
	}
	return &timing.Helper{Starts: first.Starts}
}

// implsWork reports whether every type of impls that implements iface
// does blocking work in its method m (a cluster client whose
// implementation calls the API server), when at least one implements it.
func (r *Result) implsWork(iface *types.Interface, m *types.Func, impls []types.Type) bool {
	facts, ok := r.implFacts(iface, m, impls)
	if !ok || len(facts) == 0 {
		return false
	}
	for _, h := range facts {
		if !h.works() {
			return false
		}
	}
	return true
}

// works reports whether a function with the fact f does blocking work:
// work of its own, or a wait or a pause.
func (f *FuncFact) works() bool {
	return f != nil && (f.Work || f.Wait != nil || f.Pause != nil)
}

// implsInner returns the InnerWait that every type of impls implementing
// iface has on its method m, leaving out the implementations that cannot
// be where a caller's time goes or that only pass the call on: one whose
// method does no blocking work and runs nothing it is handed (it returns
// what it holds: go-redis's SingleConnPool hands out a connection taken
// before), and a decorator, whose method calls m on another value of the
// interface (StickyConnPool around the pool, an instrumented gate around
// a gate) and whose wait inside is that call: its wait is its delegate's.
// A decorator that waits on its own first is kept (waitsBeforePassingOn).
// At least one implementation must
// wait. An implementation that works without waiting (a writer that runs
// the transaction at once beside one that queues it for a single writer
// goroutine) leaves the method no fact. When implementations were left
// out, Impl names the first that waits, for the messages. Ctx is kept
// when every implementation that waits takes the same context parameter.
func (r *Result) implsInner(iface *types.Interface, m *types.Func, impls []types.Type) *InnerWait {
	facts, fns, ok := r.implMethods(iface, m, impls)
	if !ok || !slices.ContainsFunc(facts, func(h *FuncFact) bool { return h != nil && h.Inner != nil }) {
		return nil // no implementation waits: no body need be read
	}
	var iw *InnerWait
	leftOut := false
	for i, h := range facts {
		if h == nil || h.Inner == nil {
			if r.PassesOn(fns[i], m) || !h.works() && !r.runsHanded(fns[i]) {
				leftOut = true
				continue
			}
			return nil
		}
		if r.PassesOn(fns[i], m) && !r.waitsBeforePassingOn(fns[i], m, h.Inner) {
			leftOut = true
			continue
		}
		if iw == nil {
			first := *h.Inner
			iw = &first
			iw.Impl = code.DisplayName(fns[i])
			continue
		}
		iw.Ctx = iw.Ctx && h.Inner.Ctx && h.Inner.Param == iw.Param
	}
	if iw != nil && !leftOut {
		iw.Impl = ""
	}
	return iw
}

// waitsBeforePassingOn reports whether the decorator fn waits on a limiter
// of its own before it hands the call to its delegate: its wait inside is
// not the delegate's call of m (a stats decorator of a store's connection
// that takes a slot of a process-wide read semaphore first). Such a
// decorator is where a caller's time goes, whatever it wraps.
func (r *Result) waitsBeforePassingOn(fn, m *types.Func, iw *InnerWait) bool {
	return !r.bodyCalls(fn, true, func(call *ast.CallExpr) bool {
		return code.CalleeFunc(r.info, call) == m && r.posString(call.Pos()) == iw.At
	})
}

// PassesOn reports whether the method fn, a method of this package, calls
// the interface method m: a decorator of the interface, which hands the
// call to a delegate.
func (r *Result) PassesOn(fn, m *types.Func) bool {
	return r.bodyCalls(fn, false, func(call *ast.CallExpr) bool { return code.CalleeFunc(r.info, call) == m })
}

// runsHanded reports whether the method fn calls a func value (a
// parameter, a field): what it runs is whatever it is handed.
func (r *Result) runsHanded(fn *types.Func) bool {
	return r.bodyCalls(fn, true, func(call *ast.CallExpr) bool {
		if code.CalleeFunc(r.info, call) != nil {
			return false
		}
		tv, ok := r.info.Types[call.Fun]
		return ok && !tv.IsType() && !tv.IsBuiltin()
	})
}

// bodyCalls reports whether the body of fn, a function of this package,
// has a call that pred holds of; unseen when the body cannot be seen.
func (r *Result) bodyCalls(fn *types.Func, unseen bool, pred func(*ast.CallExpr) bool) bool {
	decl, ok := r.FuncDecl(fn)
	if !ok {
		return unseen
	}
	found := false
	ast.Inspect(decl.Node().(*ast.FuncDecl).Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found && pred(call) {
			found = true
		}
		return !found
	})
	return found
}
