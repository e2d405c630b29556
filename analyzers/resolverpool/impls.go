package resolverpool

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// A worker that calls t.Send(ev) on an interface runs whichever
// implementation t holds. What the implementations do is known for the
// concrete types converted to the interface in the analyzed packages: this
// package's conversions, and those its dependencies recorded in their
// implsFact. Only types whose methods resolve or are slow are recorded, so
// the facts stay small; interfaces of the standard library (io.Writer,
// net.Conn) are left out, since every package converts *os.File to them.

// An impl is a concrete type converted to an interface, with the chains of
// its methods that resolve or are slow.
type impl struct {
	Iface   string // the interface, "pkgpath.Name"
	Type    string // the concrete type, as types.TypeString spells it
	Methods []implMethod
}

type implMethod struct {
	Name                string
	Resolve, Slow, Held chain
}

// implsFact is a package fact: the implementations known to a package, its
// own conversions and those of the packages it imports, so that every
// package sees those of its whole dependency graph (package facts travel
// only to direct importers under go vet).
type implsFact struct{ Impls []impl }

func (*implsFact) AFact() {}

func (f *implsFact) String() string {
	var parts []string
	for _, im := range f.Impls {
		var ms []string
		for _, m := range im.Methods {
			ms = append(ms, m.Name)
		}
		parts = append(parts, im.Type+" as "+im.Iface+" ("+strings.Join(ms, ", ")+")")
	}
	return "implementations: " + strings.Join(parts, "; ")
}

// maxImpls bounds the implementations a package fact carries.
const maxImpls = 256

// A conversion is a value of a concrete type converted to an interface in
// this package.
type conversion struct {
	iface    *types.Named
	concrete types.Type
}

// conversionNodes are the nodes, besides calls, where a value may be
// converted to an interface implicitly.
var conversionNodes = []ast.Node{(*ast.AssignStmt)(nil), (*ast.ReturnStmt)(nil), (*ast.CompositeLit)(nil), (*ast.ValueSpec)(nil), (*ast.SendStmt)(nil)}

// needConversions reports whether the package's conversions can matter: it
// declares a method that resolves or is slow (its type may be converted to
// an interface here), or it calls methods of interfaces (its own pools may
// run what it converts). A package that does neither skips the walk; the
// price is a package that only converts other packages' types for a third
// to call, whose conversions go unseen.
func (fs *facts) needConversions() bool {
	if len(fs.ifaceCalls) > 0 {
		return true
	}
	for _, s := range fs.order {
		if s.fn.Signature().Recv() != nil && (s.resolve != nil || s.slow != nil) {
			return true
		}
	}
	return false
}

// conversions records the package's conversions of concrete values to
// interfaces, outside test files.
func (fs *facts) conversions(insp *inspector.Inspector) {
	nodeTypes := append([]ast.Node{(*ast.CallExpr)(nil)}, conversionNodes...)
	for file := range insp.Root().Children() {
		if strings.HasSuffix(fs.pass.Fset.File(file.Node().Pos()).Name(), "_test.go") {
			continue
		}
		for c := range file.Preorder(nodeTypes...) {
			fs.noteConversions(c)
		}
	}
}

// noteConversions records the conversions of concrete values to interfaces
// at the node of c.
func (fs *facts) noteConversions(c inspector.Cursor) {
	info := fs.pass.TypesInfo
	to := func(target types.Type, e ast.Expr) {
		if target != nil && e != nil {
			fs.noteConversion(target, e)
		}
	}
	switch n := c.Node().(type) {
	case *ast.CallExpr:
		tv, ok := info.Types[n.Fun]
		if !ok {
			return
		}
		if tv.IsType() {
			if len(n.Args) == 1 {
				to(tv.Type, n.Args[0])
			}
			return
		}
		sig, ok := types.Unalias(tv.Type).(*types.Signature)
		if !ok || !fs.takesInterface(sig) {
			return
		}
		params := sig.Params()
		for i, arg := range n.Args {
			switch {
			case sig.Variadic() && i >= params.Len()-1 && !n.Ellipsis.IsValid():
				if s, ok := params.At(params.Len() - 1).Type().Underlying().(*types.Slice); ok {
					to(s.Elem(), arg)
				}
			case i < params.Len():
				to(params.At(i).Type(), arg)
			}
		}
	case *ast.AssignStmt:
		// := gives new variables the values' own types, and x op= y
		// converts nothing.
		if n.Tok == token.ASSIGN && len(n.Lhs) == len(n.Rhs) {
			for i := range n.Lhs {
				to(info.TypeOf(n.Lhs[i]), n.Rhs[i])
			}
		}
	case *ast.ValueSpec:
		if n.Type != nil && len(n.Values) == len(n.Names) {
			for _, v := range n.Values {
				to(info.TypeOf(n.Type), v)
			}
		}
	case *ast.ReturnStmt:
		if len(n.Results) == 0 {
			return
		}
		if fn := code.EnclosingFunc(c); fn.Valid() {
			if sig := code.FuncSignature(info, fn.Node()); sig != nil && sig.Results().Len() == len(n.Results) {
				for i, e := range n.Results {
					to(sig.Results().At(i).Type(), e)
				}
			}
		}
	case *ast.SendStmt:
		if t := info.TypeOf(n.Chan); t != nil {
			if ch, ok := t.Underlying().(*types.Chan); ok {
				to(ch.Elem(), n.Value)
			}
		}
	case *ast.CompositeLit:
		if n.Type == nil || len(n.Elts) == 0 {
			return // an element of an outer literal, which converts it
		}
		t := info.TypeOf(n)
		if t == nil {
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Slice, *types.Array, *types.Map:
			elem := u.(interface{ Elem() types.Type }).Elem()
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				to(elem, e)
			}
		case *types.Struct:
			if !fs.takesInterface(u) {
				return
			}
			for i, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if key, ok := kv.Key.(*ast.Ident); ok {
						if v, ok := info.Uses[key].(*types.Var); ok {
							to(v.Type(), kv.Value)
						}
					}
				} else if i < u.NumFields() {
					to(u.Field(i).Type(), e)
				}
			}
		}
	}
}

// takesInterface reports whether a signature has a parameter, or a struct a
// field, whose type is an interface of an application: most calls and
// literals have none and are skipped whole. Structs are remembered; the
// signature of a method call is made afresh for each call.
func (fs *facts) takesInterface(t types.Type) bool {
	isApp := func(t types.Type) bool {
		if s, ok := t.Underlying().(*types.Slice); ok {
			t = s.Elem() // a variadic parameter
		}
		n, ok := types.Unalias(t).(*types.Named)
		return ok && fs.appInterface(n)
	}
	switch t := t.(type) {
	case *types.Signature:
		for i := range t.Params().Len() {
			if isApp(t.Params().At(i).Type()) {
				return true
			}
		}
	case *types.Struct:
		if v, ok := fs.takes[t]; ok {
			return v
		}
		v := false
		for i := range t.NumFields() {
			v = v || isApp(t.Field(i).Type())
		}
		if fs.takes == nil {
			fs.takes = make(map[*types.Struct]bool)
		}
		fs.takes[t] = v
		return v
	}
	return false
}

// noteConversion records e converted to target when target is an interface
// of a package outside the standard library and e a value of a named type
// (or a pointer to one) with methods.
func (fs *facts) noteConversion(target types.Type, e ast.Expr) {
	iface, ok := types.Unalias(target).(*types.Named)
	if !ok || !fs.appInterface(iface) {
		return
	}
	t := fs.pass.TypesInfo.TypeOf(e)
	if t == nil || types.IsInterface(t) {
		return
	}
	named := t
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		named = p.Elem()
	}
	if n, ok := types.Unalias(named).(*types.Named); !ok || n.NumMethods() == 0 {
		return
	}
	iface = iface.Origin()
	for _, c := range fs.convs {
		if c.iface == iface && types.Identical(c.concrete, t) {
			return
		}
	}
	fs.convs = append(fs.convs, conversion{iface, t})
}

// appInterface reports whether n is an interface declared outside the
// standard library, remembering the answer for each type (context.Context
// is a parameter of half the calls of a package).
func (fs *facts) appInterface(n *types.Named) bool {
	obj := n.Obj()
	if v, ok := fs.appIfaces[obj]; ok {
		return v
	}
	v := types.IsInterface(n) && obj.Pkg() != nil && !code.IsStdPath(obj.Pkg().Path())
	if fs.appIfaces == nil {
		fs.appIfaces = make(map[*types.TypeName]bool)
	}
	fs.appIfaces[obj] = v
	return v
}

// implementations gathers the implementations the package knows: its own
// conversions, classified now that its functions are, and those of the
// packages it imports.
func (fs *facts) implementations() {
	var all []impl
	for _, c := range fs.convs {
		if im, ok := fs.implOf(c); ok {
			all = append(all, im)
		}
	}
	for _, imp := range fs.pass.Pkg.Imports() {
		var f implsFact
		if fs.pass.ImportPackageFact(imp, &f) {
			all = append(all, f.Impls...)
		}
	}
	if len(all) == 0 {
		return
	}
	fs.impls = make(map[string][]impl)
	seen := make(map[[2]string]bool)
	for _, im := range all {
		k := [2]string{im.Iface, im.Type}
		if seen[k] {
			continue
		}
		seen[k] = true
		fs.impls[im.Iface] = append(fs.impls[im.Iface], im)
	}
	// A package that calls a method of an interface with implementations of
	// both kinds may have a shared pool even without a lookup of its own.
	for key := range fs.ifaceCalls {
		for _, im := range fs.impls[key] {
			for _, m := range im.Methods {
				fs.anyResolve = fs.anyResolve || m.Resolve != nil
				fs.anySlow = fs.anySlow || m.Slow != nil || m.Held != nil
			}
		}
	}
}

// implOf classifies the methods of c's concrete type that implement c's
// interface.
func (fs *facts) implOf(c conversion) (impl, bool) {
	it, ok := c.iface.Underlying().(*types.Interface)
	if !ok {
		return impl{}, false
	}
	im := impl{Iface: typeKey(c.iface), Type: types.TypeString(c.concrete, nil)}
	for i := range it.NumMethods() {
		m := it.Method(i)
		obj, _, _ := types.LookupFieldOrMethod(c.concrete, false, m.Pkg(), m.Name())
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() == nil {
			continue
		}
		fn = fn.Origin()
		r, sl := fs.chains(fn)
		held, _ := fs.heldOf(fn)
		if r != nil || sl != nil {
			im.Methods = append(im.Methods, implMethod{Name: m.Name(), Resolve: r, Slow: sl, Held: held})
		}
	}
	return im, len(im.Methods) > 0
}

// exportImpls exports the implementations the package knows, if any. No
// package imports a main package (nor the test main a test run builds).
func (fs *facts) exportImpls() {
	if len(fs.impls) == 0 || fs.pass.Pkg.Name() == "main" {
		return
	}
	// Only another package's calls of an exported interface's methods can
	// use them there.
	var all []impl
	for key, list := range fs.impls {
		if name := key[strings.LastIndexByte(key, '.')+1:]; token.IsExported(name) {
			all = append(all, list...)
		}
	}
	if len(all) == 0 {
		return
	}
	slices.SortFunc(all, func(a, b impl) int {
		return strings.Compare(a.Iface+" "+a.Type, b.Iface+" "+b.Type)
	})
	if len(all) > maxImpls {
		all = all[:maxImpls]
	}
	fs.pass.ExportPackageFact(&implsFact{Impls: all})
}

// typeKey names a named type across packages: "pkgpath.Name".
func typeKey(n *types.Named) string {
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// ifaceKey returns the key of the named interface t, or "".
func ifaceKey(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || !types.IsInterface(n) || n.Obj().Pkg() == nil {
		return ""
	}
	return typeKey(n.Origin())
}

// implsOfCall returns the implementations of the interface method call
// calls, with the method's name, or nil when call calls no such method or
// none is known.
func (fs *facts) implsOfCall(call *ast.CallExpr) ([]impl, string) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	s, ok := fs.pass.TypesInfo.Selections[sel]
	if !ok || s.Kind() != types.MethodVal || !types.IsInterface(s.Recv()) {
		return nil, ""
	}
	return fs.impls[ifaceKey(s.Recv())], sel.Sel.Name
}
