// Package code names the small questions every queuecheck check asks about
// Go code, in the style of staticcheck's analysis/code: is this type
// time.Time, is this call (*semaphore.Weighted).Acquire, which function
// encloses this node, does this statement list leave the function, which
// variables does this node assign. One place answers each question, so two
// checks never disagree about it.
package code

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sync"

	"golang.org/x/tools/go/types/typeutil"
)

// Import paths the checks look for.
const (
	ErrgroupPath  = "golang.org/x/sync/errgroup"
	SemaphorePath = "golang.org/x/sync/semaphore"
	RatePath      = "golang.org/x/time/rate"
)

// IsNamed reports whether t, or the type t points to, is the named type
// pkg.name (aliases resolved).
func IsNamed(t types.Type, pkg, name string) bool {
	if t == nil {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// IsExactly reports whether t itself, not a pointer to it, is pkg.name.
func IsExactly(t types.Type, pkg, name string) bool {
	if t == nil {
		return false
	}
	if _, ok := types.Unalias(t).(*types.Pointer); ok {
		return false
	}
	return IsNamed(t, pkg, name)
}

// IsTime reports whether t is time.Time (not a pointer to it).
func IsTime(t types.Type) bool { return IsExactly(t, "time", "Time") }

// IsContext reports whether t is context.Context.
func IsContext(t types.Type) bool { return IsExactly(t, "context", "Context") }

// TakesContext reports whether fn's first parameter is a context: a
// context.Context, or a type of the program's own that carries one (a
// service's request context embedding it), whose calls are as much a
// request as those taking the standard type. It is false for a nil fn.
func TakesContext(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	params := fn.Signature().Params()
	return params.Len() > 0 && ImplementsContext(params.At(0).Type())
}

// ImplementsContext reports whether t is context.Context or a concrete
// type of the program's own that carries one (a struct embedding it, as
// services' request contexts do), so that its Done and Err are the
// context's: it has Deadline, Done, Err and Value with their signatures.
func ImplementsContext(t types.Type) bool {
	if t == nil {
		return false
	}
	if IsContext(t) {
		return true
	}
	if _, isIface := t.Underlying().(*types.Interface); isIface {
		return false // an interface that merely has Done: not known to be a context
	}
	sigOf := func(name string) *types.Signature {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		if fn, ok := obj.(*types.Func); ok {
			return fn.Signature()
		}
		return nil
	}
	done, err, deadline, value := sigOf("Done"), sigOf("Err"), sigOf("Deadline"), sigOf("Value")
	if done == nil || err == nil || deadline == nil || value == nil {
		return false
	}
	if done.Params().Len() != 0 || done.Results().Len() != 1 {
		return false
	}
	ch, ok := done.Results().At(0).Type().Underlying().(*types.Chan)
	if !ok || ch.Dir() != types.RecvOnly {
		return false
	}
	return err.Params().Len() == 0 && err.Results().Len() == 1 && IsError(err.Results().At(0).Type()) &&
		deadline.Params().Len() == 0 && deadline.Results().Len() == 2 && value.Params().Len() == 1
}

// IsError reports whether t is the predeclared error type.
func IsError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// IsChan reports whether t is a channel type.
func IsChan(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// IsEmptyStruct reports whether t is a struct type without fields: values
// of it carry no data.
func IsEmptyStruct(t types.Type) bool {
	if t == nil {
		return false
	}
	s, ok := t.Underlying().(*types.Struct)
	return ok && s.NumFields() == 0
}

// Callee returns the function or concrete method call statically invokes,
// as its generic origin, or nil for calls of interface methods, function
// values, builtins and conversions.
func Callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn := typeutil.StaticCallee(info, call)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// CalleeFunc is like Callee but also returns interface methods: the
// function a call names, whatever runs.
func CalleeFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return nil
	}
	return fn.Origin()
}

// CalleeName returns the name a call calls by, f in f() and m in x.m(), or
// "": checking it first spares a type lookup for most calls.
func CalleeName(call *ast.CallExpr) string {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return fun.Name
	case *ast.SelectorExpr:
		return fun.Sel.Name
	case *ast.IndexExpr:
		if sel, ok := fun.X.(*ast.SelectorExpr); ok {
			return sel.Sel.Name
		}
	case *ast.IndexListExpr:
		if sel, ok := fun.X.(*ast.SelectorExpr); ok {
			return sel.Sel.Name
		}
	}
	return ""
}

// BuiltinName returns the name of the builtin function call calls, or "".
func BuiltinName(info *types.Info, call *ast.CallExpr) string {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return ""
	}
	if b, ok := info.Uses[id].(*types.Builtin); ok {
		return b.Name()
	}
	return ""
}

// IsConversion reports whether call converts a value to a type.
func IsConversion(info *types.Info, call *ast.CallExpr) bool {
	tv, ok := info.Types[call.Fun]
	return ok && tv.IsType()
}

// Recv returns the receiver type of method fn, or nil for a function.
func Recv(fn *types.Func) types.Type {
	if fn == nil {
		return nil // a call of a func value, a conversion or a builtin
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return nil
	}
	return sig.Recv().Type()
}

// IsMethod reports whether fn is the method name of the named type pkg.typ
// (value or pointer receiver).
func IsMethod(fn *types.Func, pkg, typ, name string) bool {
	if fn == nil || fn.Name() != name || fn.Pkg() == nil || fn.Pkg().Path() != pkg {
		return false
	}
	return IsNamed(Recv(fn), pkg, typ)
}

// IsFunc reports whether fn is the package-level function pkg.name.
func IsFunc(fn *types.Func, pkg, name string) bool {
	return fn != nil && fn.Name() == name && fn.Pkg() != nil && fn.Pkg().Path() == pkg && Recv(fn) == nil
}

// HasMethod reports whether values of type recv (or pointers to them) have a
// method with one of the names, as seen from pkg.
func HasMethod(recv types.Type, pkg *types.Package, names ...string) bool {
	if recv == nil {
		return false
	}
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

// An ImplFinder answers Implementations for one pass. A pass asks of the
// same packages (its own and its imports) for every interface call it
// follows, so each package's concrete types are listed once, not once per
// question: a scope's names are sorted anew on every call. It is safe for
// the checks of a package to share.
type ImplFinder struct {
	mu       sync.Mutex
	concrete map[*types.Package][]*types.Named
}

// Implementations returns the methods that implement the interface method
// fn in the named types the packages declare (generic types left out), the
// implementations a call of fn may run that those packages show. ok is false
// when a type implements fn with something that is no declared method (a
// promoted method of an embedded interface): what it runs is unknown.
func (f *ImplFinder) Implementations(fn *types.Func, pkgs ...*types.Package) (methods []*types.Func, ok bool) {
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil, false
	}
	iface, isIface := recv.Type().Underlying().(*types.Interface)
	if !isIface || iface.NumMethods() == 0 {
		return nil, false
	}
	for _, pkg := range pkgs {
		for _, t := range f.concreteTypes(pkg) {
			// *T has T's methods too: one question covers both.
			ptr := types.NewPointer(t)
			if !types.Implements(ptr, iface) {
				continue
			}
			obj, _, _ := types.LookupFieldOrMethod(ptr, true, fn.Pkg(), fn.Name())
			m, isFunc := obj.(*types.Func)
			if !isFunc || m.Signature().Recv() != nil && types.IsInterface(m.Signature().Recv().Type()) {
				return nil, false
			}
			methods = append(methods, m)
		}
	}
	return methods, true
}

// concreteTypes returns the named types pkg declares at package level that
// can implement an interface: no alias, no interface, no type parameters.
func (f *ImplFinder) concreteTypes(pkg *types.Package) []*types.Named {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ts, ok := f.concrete[pkg]; ok {
		return ts
	}
	var ts []*types.Named
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, isType := scope.Lookup(name).(*types.TypeName)
		if !isType || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		if n, isNamed := tn.Type().(*types.Named); isNamed && n.TypeParams().Len() == 0 {
			ts = append(ts, n)
		}
	}
	if f.concrete == nil {
		f.concrete = make(map[*types.Package][]*types.Named)
	}
	f.concrete[pkg] = ts
	return ts
}

// TypeName returns "pkgpath.Name" for a named type or a pointer to one, and
// "" for anything else.
func TypeName(t types.Type) string {
	n := NamedOf(t)
	if n == nil || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// NamedOf returns the named type t is, or points to, or nil: methods and
// type names are asked of T whether a value is a T or a *T.
func NamedOf(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// DisplayName names fn the way Go code would: "pool.Get",
// "(*pool.Pool).Get".
func DisplayName(fn *types.Func) string {
	pkg := ""
	if fn.Pkg() != nil {
		pkg = fn.Pkg().Name() + "."
	}
	t := Recv(fn)
	if t == nil {
		return pkg + fn.Name()
	}
	star := ""
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t, star = p.Elem(), "*"
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return "(" + star + pkg + n.Obj().Name() + ")." + fn.Name()
	}
	return fn.Name()
}

// Imports reports whether pkg imports the package path directly.
func Imports(pkg *types.Package, path string) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == path {
			return true
		}
	}
	return false
}

// Referenced returns the object a name refers to: x, or the selected
// name of pkg.X, v.f or v.m; nil for other expressions.
func Referenced(info *types.Info, expr ast.Expr) types.Object {
	switch e := ast.Unparen(expr).(type) {
	case *ast.Ident:
		return info.Uses[e]
	case *ast.SelectorExpr:
		return info.Uses[e.Sel]
	}
	return nil
}

// FuncValue returns the declared function or method a function value
// names (f, pkg.F, x.m), or nil.
func FuncValue(info *types.Info, expr ast.Expr) *types.Func {
	fn, _ := Referenced(info, expr).(*types.Func)
	return fn
}

// Var returns the variable or struct field expr denotes (x, p.x, *p, &x),
// with fields and variables of generic types mapped to their origin, or nil.
// Checks recognise a queue or a limiter by this object, never by its name.
func Var(info *types.Info, expr ast.Expr) *types.Var {
	switch e := ast.Unparen(expr).(type) {
	case *ast.Ident, *ast.SelectorExpr:
		v, _ := Referenced(info, e).(*types.Var)
		if id, ok := e.(*ast.Ident); ok && v == nil {
			v, _ = info.Defs[id].(*types.Var)
		}
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

// IsLocal reports whether v is a variable of a function: not a field, not
// package-level.
func IsLocal(v *types.Var) bool {
	return v != nil && !v.IsField() && v.Pkg() != nil && v.Parent() != nil && v.Parent() != v.Pkg().Scope()
}

// IsShared reports whether v is state that outlives a call of a function of
// pkg: a struct field or a variable of pkg's scope.
func IsShared(pkg *types.Package, v *types.Var) bool {
	return v != nil && (v.IsField() || (v.Pkg() == pkg && v.Parent() == pkg.Scope()))
}

// IsNil reports whether e is the predeclared nil.
func IsNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// IsZeroValue reports whether e is a zero value written out: nil, a
// composite literal with no elements (T{}), or a constant 0, "" or false.
func IsZeroValue(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if lit, ok := e.(*ast.CompositeLit); ok {
		return len(lit.Elts) == 0
	}
	tv, ok := info.Types[e]
	if !ok {
		return false
	}
	if tv.IsNil() {
		return true
	}
	if tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Bool:
		return !constant.BoolVal(tv.Value)
	case constant.String:
		return constant.StringVal(tv.Value) == ""
	case constant.Int, constant.Float, constant.Complex:
		return constant.Sign(tv.Value) == 0
	}
	return false
}
