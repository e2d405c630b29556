package admission

import (
	"go/ast"
	"go/types"

	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
)

// Blocking work: what a goroutine does that takes time outside the process
// (I/O, an RPC, a query, a file, a program) or queues for a limiter. A
// goroutine per element is a hazard only when each one does such work: a
// thousand goroutines that compute finish as fast as the CPUs allow, a
// thousand that each call a backend are a thousand calls at once.
//
// FuncFact.Work records it for a declared function, to a fixpoint within
// the package and, as a fact, across packages: a method of an API client
// that calls http.Client.Do does blocking work, and so does every caller of
// it. The standard library has no facts; its blocking calls are the slow
// and resolving call lists plus knowledge.WorkCalls.

var (
	slowCalls      = calls.NewSlow("")
	resolvingCalls = calls.NewResolving("")
)

// classifyWork marks the declared functions of the package that do
// blocking work (FuncFact.Work): one walk of each body finds its own work
// and the package's functions it calls, then the callers of a function
// that works are marked to a fixpoint. It runs after classifyAll, whose
// rounds replace the facts it would otherwise have set.
func (r *Result) classifyWork(decls []decl) {
	callers := make(map[*types.Func][]*types.Func)
	var work []*types.Func
	for _, d := range decls {
		body := d.cur.Node().(*ast.FuncDecl).Body
		direct := false
		for cur := range d.cur.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			if call.Pos() < body.Pos() {
				continue // in the signature (an array length)
			}
			if r.IsWork(call) {
				direct = true
				break
			}
			if fn := code.Callee(r.info, call); fn != nil && fn.Pkg() == r.pass.Pkg {
				callers[fn] = append(callers[fn], d.fn)
			}
		}
		if direct {
			work = append(work, d.fn)
		}
	}
	marked := make(map[*types.Func]bool)
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		if marked[fn] {
			continue
		}
		marked[fn] = true
		ff := r.helpers[fn]
		if ff == nil {
			ff = &FuncFact{}
			r.helpers[fn] = ff
		}
		ff.Work = true
		work = append(work, callers[fn]...)
	}
}

// WorkIn returns the first call in n (function literals included: the
// work of a goroutine often sits in a closure it calls) that does blocking
// work, or nil. See IsWork.
func (r *Result) WorkIn(n ast.Node) *ast.CallExpr {
	if n == nil {
		return nil
	}
	var found *ast.CallExpr
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && found == nil && r.IsWork(call) {
			found = call
		}
		return found == nil
	})
	return found
}

// IsWork reports whether the call does blocking work: it calls a function
// whose fact says so, an admission wait or pause, a standard call that does
// I/O, or an API shaped like an RPC — a function or method of another
// package, or a method of an interface, that takes a context (or a type
// of the program's own carrying one) or returns an *http.Response, and
// returns an error (a client's Get, a store's List, a peer's ClaimKeys),
// whatever implements it.
func (r *Result) IsWork(call *ast.CallExpr) bool {
	fn := code.CalleeFunc(r.info, call)
	if fn == nil {
		return r.isRequestValue(call)
	}
	if fn.Pkg() == nil {
		return false
	}
	if r.Helper(fn).works() {
		return true
	}
	if slowCalls.Contains(fn) || resolvingCalls.Contains(fn) || isStdWork(fn) {
		return true
	}
	path := fn.Pkg().Path()
	if path == "context" || path == "log" || path == "log/slog" || code.IsStdPath(path) {
		return false
	}
	sig := fn.Signature()
	recv := code.Recv(fn)
	if fn.Pkg() == r.pass.Pkg && (recv == nil || !types.IsInterface(recv)) {
		return false // a function of this package: its own fact decides
	}
	if sig.Results().Len() == 0 || !code.IsError(sig.Results().At(sig.Results().Len()-1).Type()) {
		return false
	}
	return code.TakesContext(fn) || returnsHTTPResponse(sig)
}

// returnsHTTPResponse reports whether a function's results hold an
// *http.Response: whatever implements it (an httpGetter interface a
// scraper is given, a client wrapper of another package) made a round trip.
func returnsHTTPResponse(sig *types.Signature) bool {
	for v := range sig.Results().Variables() {
		if ptr, ok := v.Type().(*types.Pointer); ok && code.IsExactly(ptr.Elem(), "net/http", "Response") {
			return true
		}
	}
	return false
}

// isRequestValue reports whether the call calls a function value whose
// body the package cannot see — a parameter, a field, an element of a
// slice or map, a call's result — and whose first parameter is a context:
// the shape of a request handed over as a closure (spicedb's
// ReduceableExpandFunc dispatches; a task's Run(ctx)), work whatever it
// holds, as an interface method taking a context is. A literal called in
// place, or held in a local variable, is judged by its body instead.
func (r *Result) isRequestValue(call *ast.CallExpr) bool {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.FuncLit:
		return false
	case *ast.Ident:
		if v, ok := r.info.Uses[fun].(*types.Var); ok {
			if _, isLit := r.litVars[v]; isLit {
				return false
			}
		}
	}
	tv, ok := r.info.Types[call.Fun]
	if !ok || tv.IsType() || tv.IsBuiltin() {
		return false
	}
	sig, ok := tv.Type.Underlying().(*types.Signature)
	return ok && sig.Params().Len() > 0 && code.ImplementsContext(sig.Params().At(0).Type())
}

// isStdWork reports whether fn is one of the standard calls of
// knowledge.WorkCalls.
func isStdWork(fn *types.Func) bool {
	return code.IsStdPath(fn.Pkg().Path()) && knowledge.WorkCalls.Has(calls.Key(fn))
}

// WorkIn is Result.WorkIn.
func (f *Finder) WorkIn(n ast.Node) *ast.CallExpr { return f.r.WorkIn(n) }

// IsWork is Result.IsWork.
func (f *Finder) IsWork(call *ast.CallExpr) bool { return f.r.IsWork(call) }

// FuncWorks reports whether calling fn, a declared function of this
// package or of an imported one, does blocking work: its fact says it
// works, waits or pauses. A caller that holds fn as a value (a handler it
// registers, a method value it wraps) asks this instead of IsWork.
func (r *Result) FuncWorks(fn *types.Func) bool { return r.Helper(fn).works() }
