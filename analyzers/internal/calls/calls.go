// Package calls holds [Table], the one flag type for every check flag that
// names functions, and the tables of the function lists of package
// knowledge (which calls resolve a hostname, which are slow blocking work).
//
// A table names functions as "pkgpath.Func" and methods as
// "pkgpath.Type.Method" (pointer or value receiver alike), so
// "net/http.Client.Do" is (*http.Client).Do. A flag also takes a method as
// types.Func.FullName spells it, "(*pkgpath.Type).Method" or
// "(pkgpath.Type).Method"; a generic type is named without type arguments.
package calls

import (
	"go/types"
)

// Key returns the name of fn in a table: "pkgpath.Func" or
// "pkgpath.Type.Method".
func Key(fn *types.Func) string {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return fn.Name()
	}
	if recv := RecvName(fn); recv != "" {
		return fn.Pkg().Path() + "." + recv + "." + fn.Name()
	}
	return fn.Pkg().Path() + "." + fn.Name()
}

// RecvName returns the name of the type fn is a method of, without pointer or
// type arguments, or "" when fn is not a method of a named type.
func RecvName(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}
