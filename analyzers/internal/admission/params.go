package admission

import (
	"go/ast"
	"go/types"
	"slices"
	"sync"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// Waits behind a func-typed parameter. A call of a parameter (acquire(ctx),
// do(ctx)) runs whatever the function's callers hand it. When every call
// of the function is in view, the functions handed for that parameter are
// every value it can take, as the functions a package assigns to its func
// field are (viaFuncValue, InnerCallee). Every call is in view when the
// function is declared in this package with an unexported name, is
// named nowhere but as the function of a call (never taken as a value,
// which could be called from anywhere) whose arguments line up with its
// parameters, is a method no interface of the
// package names (an unexported method can satisfy only those), and its
// parameter is never assigned in its body.
//
// Not followed: exported functions (their callers may be in other
// packages), function literals handed over (their bodies are classified
// where a check asks about the call that takes them: LitFact), values of
// variables, fields or results, and parameters of function literals.

// paramFuncs caches, per parameter of func type of the package's
// functions whose calls are all in view, the functions its calls hand it:
// a nil entry for a value that is no declared function.
type paramFuncs struct {
	once   sync.Once
	handed map[*types.Var][]*types.Func
	timed  map[*types.Var]bool // the parameters timer wrappers time
}

// ParamFuncs returns the functions every call of v's function hands for
// the func-typed parameter v, when all of them are in view and each is a
// declared function (or method value): ok is false otherwise. Asked only
// once the package's helpers are classified, as for a func field.
func (r *Result) ParamFuncs(v *types.Var) (fns []*types.Func, ok bool) {
	handed := r.handedFor(v)
	if len(handed) == 0 || slices.Contains(handed, nil) {
		return nil, false
	}
	return handed, true
}

// paramFuncsSeen returns the declared functions among what the calls of
// v's function hand for v, when all the calls are in view, whatever else
// they hand (the union InnerCallee takes).
func (r *Result) paramFuncsSeen(v *types.Var) []*types.Func {
	return slices.DeleteFunc(slices.Clone(r.handedFor(v)), func(fn *types.Func) bool { return fn == nil })
}

// handedFor returns what the calls of v's function hand for v, a nil
// entry for a value that is no declared function, when v is a parameter
// of this package whose calls are all in view.
func (r *Result) handedFor(v *types.Var) []*types.Func {
	if v == nil || v.IsField() || v.Pkg() != r.pass.Pkg || !r.ready {
		return nil
	}
	r.params.once.Do(r.indexParamFuncs)
	return r.params.handed[v]
}

// indexParamFuncs records, for each func-typed parameter of the package's
// functions whose calls are all in view, what each call hands it.
func (r *Result) indexParamFuncs() {
	r.params.timed = make(map[*types.Var]bool)
	handed := make(map[*types.Var][]*types.Func)
	owner := make(map[*types.Var]*types.Func)
	escapes := make(map[*types.Func]bool)
	calledAt := make(map[*ast.Ident]bool) // the names of called functions, as written at the call
	for cur := range r.insp.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		fn := code.Callee(r.info, call)
		if fn == nil || fn.Pkg() != r.pass.Pkg || fn.Exported() {
			continue
		}
		switch f := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			calledAt[f] = true
		case *ast.SelectorExpr:
			calledAt[f.Sel] = true
		case *ast.IndexExpr: // a generic function instantiated explicitly
			if id, ok := f.X.(*ast.Ident); ok {
				calledAt[id] = true
			}
		case *ast.IndexListExpr:
			if id, ok := f.X.(*ast.Ident); ok {
				calledAt[id] = true
			}
		}
		fn = fn.Origin()
		sig := fn.Signature()
		n := sig.Params().Len()
		if sig.Variadic() {
			n-- // the variadic parameter's elements are no one parameter
		}
		if len(call.Args) < n || r.isMethodExpr(call) {
			// f(g()) spreads a call's results over the parameters, and
			// (*T).m(recv, …) shifts them by the receiver: the arguments
			// do not line up with the parameters, so nothing is in view.
			escapes[fn] = true
			continue
		}
		for i := range n {
			p := sig.Params().At(i)
			if _, isFunc := p.Type().Underlying().(*types.Signature); !isFunc {
				continue
			}
			if code.Var(r.info, call.Args[i]) == p {
				continue // a recursive call hands the parameter on: nothing new
			}
			var h *types.Func
			if v := code.FuncValue(r.info, call.Args[i]); v != nil {
				h = v.Origin()
			}
			if !slices.Contains(handed[p], h) {
				handed[p] = append(handed[p], h)
			}
			owner[p] = fn
		}
	}
	r.params.handed = handed
	if len(handed) == 0 {
		return // no func-typed parameter is handed anything: no walk of the uses
	}
	// A function named anywhere but at a call may be called from
	// anywhere: its parameters take values out of view.
	for id, obj := range r.info.Uses {
		if fn, ok := obj.(*types.Func); ok && fn.Pkg() == r.pass.Pkg && !calledAt[id] {
			escapes[fn.Origin()] = true
		}
	}
	var ifaceMethods map[string]bool
	for p := range handed {
		fn := owner[p]
		if code.Recv(fn) != nil && ifaceMethods == nil {
			ifaceMethods = r.interfaceMethodNames()
		}
		if escapes[fn] || (code.Recv(fn) != nil && ifaceMethods[fn.Name()]) || r.assignedInBody(fn, p) {
			delete(handed, p)
		}
		if r.timesParam(fn, p) {
			r.params.timed[p] = true
		}
	}
}

// TimedParam reports whether v is the parameter a timer wrapper times
// (timing.Helper Runs): a function handed for it that waits inside or
// retries is reported at the wrapper's call, where it is named
// (waittiming's timedcall.go), so the questions that would report it
// again from the wrapper's body (InnerCallee, a retrying call) leave it.
// A plain wait handed for it is reported from the body alone.
func (r *Result) TimedParam(v *types.Var) bool {
	if v == nil || !r.ready {
		return false
	}
	r.params.once.Do(r.indexParamFuncs)
	return r.params.timed[v]
}

// isMethodExpr reports whether call calls a method expression
// ((*T).m(recv, …)), whose first argument is the receiver.
func (r *Result) isMethodExpr(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s, ok := r.info.Selections[sel]
	return ok && s.Kind() == types.MethodExpr
}

// timesParam reports whether fn is a timer wrapper of its parameter p
// (timing.Helper Runs): a call of it is answered at its call sites.
func (r *Result) timesParam(fn *types.Func, p *types.Var) bool {
	h := r.Helper(fn)
	if h == nil || h.Timer == nil || !h.Timer.Runs {
		return false
	}
	params := fn.Signature().Params()
	return h.Timer.Param < params.Len() && params.At(h.Timer.Param) == p
}

// interfaceMethodNames returns the names of the methods of the interface
// types the package writes: an unexported method of one of its types can
// satisfy only those (its name is the package's), and is then called
// through them out of view. Every interface type the package spells, named
// or a literal, is among info.Types.
func (r *Result) interfaceMethodNames() map[string]bool {
	names := make(map[string]bool)
	for _, tv := range r.info.Types {
		if !tv.IsType() {
			continue
		}
		if iface, ok := tv.Type.Underlying().(*types.Interface); ok {
			for m := range iface.Methods() {
				names[m.Name()] = true
			}
		}
	}
	return names
}

// assignedInBody reports whether fn's body assigns to its parameter p:
// the calls no longer say what a call of p runs.
func (r *Result) assignedInBody(fn *types.Func, p *types.Var) bool {
	decl, ok := r.FuncDecl(fn)
	if !ok {
		return true
	}
	found := false
	ast.Inspect(decl.Node().(*ast.FuncDecl).Body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range s.Lhs {
				if code.Var(r.info, lhs) == p {
					found = true
				}
			}
		case *ast.UnaryExpr:
			if code.Var(r.info, s.X) == p && s.Op.String() == "&" {
				found = true // its address taken: set out of view
			}
		}
		return !found
	})
	return found
}
