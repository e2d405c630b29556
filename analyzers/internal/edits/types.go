package edits

import (
	"go/ast"
	"go/types"
)

// TypeString spells t as Go source in file of package pkg: types of pkg go
// unqualified, others by the name file imports their package under. It
// reports false when t names a package file does not import (or imports only
// blank or dot), since the spelling would then not compile.
func TypeString(pkg *types.Package, file *ast.File, t types.Type) (string, bool) {
	ok := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		name, imported := ImportName(file, p.Path())
		if !imported {
			ok = false
			return p.Name()
		}
		return name
	})
	return s, ok
}

// ZeroValue spells the zero value of t as Go source in file of package pkg:
// false, 0, "", nil, T{} for structs and arrays, *new(T) for type parameters.
// It reports false when the value cannot be written there (a type of a
// package file does not import, a basic type without a literal).
func ZeroValue(pkg *types.Package, file *ast.File, t types.Type) (string, bool) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false", true
		case u.Info()&types.IsNumeric != 0:
			return "0", true
		case u.Info()&types.IsString != 0:
			return `""`, true
		case u.Kind() == types.UnsafePointer:
			return "nil", true
		}
		return "", false
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature:
		return "nil", true
	case *types.Interface:
		if _, ok := types.Unalias(t).(*types.TypeParam); !ok {
			return "nil", true
		}
	}
	name, ok := TypeString(pkg, file, t)
	if !ok {
		return "", false
	}
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return name + "{}", true
	}
	return "*new(" + name + ")", true
}
