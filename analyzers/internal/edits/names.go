package edits

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// Names chooses the names of the declarations a pass's fixes add. Make one
// per pass: it remembers the names it gave, so that the fixes of two
// findings in one package never declare the same package-level name, nor
// the same local in one top-level declaration, and a driver can apply them
// together.
//
// A name is free when declaring it changes what no identifier means: it
// shadows nothing at the insertion point (Scope.LookupParent there, as x/tools'
// refactor.FreshName asks), nothing declared where the fix uses it shadows
// it, and it clashes with no declaration of its block. On top of that, so
// that a fix reads unambiguously, no identifier the reader sees beside it
// spells the name: none in the package for a package-level name, none in the
// enclosing top-level declaration for a local one.
type Names struct {
	pass    *analysis.Pass
	given   map[string]bool              // every name given, package-level or local
	globals map[string]bool              // the package-level names given
	locals  map[ast.Decl]map[string]bool // the local names given, by top-level declaration
	spelled map[ast.Decl]map[string]bool // the identifiers of a top-level declaration, or of the package (nil key)
}

// NewNames returns the allocator of pass's new names.
func NewNames(pass *analysis.Pass) *Names {
	return &Names{
		pass:    pass,
		given:   make(map[string]bool),
		globals: make(map[string]bool),
		locals:  make(map[ast.Decl]map[string]bool),
		spelled: make(map[ast.Decl]map[string]bool),
	}
}

// Package returns base, or base followed by the smallest number from 2 up,
// for a new package-level declaration, or a new unexported field, that the
// fix refers to at the positions uses.
func (n *Names) Package(base string, uses ...token.Pos) string {
	name := n.first(base, func(name string) bool {
		return !n.given[name] && n.freeInPackage(name) && n.unshadowedAt(name, uses) && !n.spelledIn(nil, name)
	})
	n.given[name] = true
	n.globals[name] = true
	return name
}

// Local returns base, or base followed by the smallest number from 2 up,
// for a new local variable that a statement inserted at pos declares and
// the fix refers to at the positions uses.
func (n *Names) Local(pos token.Pos, base string, uses ...token.Pos) string {
	decl := n.enclosingDecl(pos)
	name := n.first(base, func(name string) bool {
		return !n.globals[name] && !n.locals[decl][name] && n.freeAt(pos, name) && n.unshadowedAt(name, uses) && !n.spelledIn(decl, name)
	})
	if n.locals[decl] == nil {
		n.locals[decl] = make(map[string]bool)
	}
	n.locals[decl][name] = true
	n.given[name] = true
	return name
}

// first returns the first of base, base2, base3, ... that free accepts.
func (n *Names) first(base string, free func(string) bool) string {
	name := base
	for i := 2; !free(name); i++ {
		name = base + strconv.Itoa(i)
	}
	return name
}

// freeInPackage reports whether a package-level declaration of name clashes
// with nothing: not with the universe, which it would shadow in every file,
// nor with the package's declarations or any file's imports, which share
// the package block's names.
func (n *Names) freeInPackage(name string) bool {
	if types.Universe.Lookup(name) != nil || n.pass.Pkg.Scope().Lookup(name) != nil {
		return false
	}
	for _, f := range n.pass.Files {
		if fs := n.pass.TypesInfo.Scopes[f]; fs != nil && fs.Lookup(name) != nil {
			return false
		}
	}
	return true
}

// freeAt reports whether a local declaration of name inserted at pos
// captures nothing: no declaration of its block, earlier or later, has the
// name, and nothing visible at pos does. Then no existing identifier from pos
// to the end of the block can refer to another object of that name, since
// any such object would be declared in an enclosing block before pos (and
// be visible at pos) or inside the region, where it shadows the new one.
func (n *Names) freeAt(pos token.Pos, name string) bool {
	scope := n.blockAt(pos)
	if scope.Lookup(name) != nil {
		return false
	}
	_, obj := scope.LookupParent(name, pos)
	return obj == nil
}

// unshadowedAt reports whether nothing called name is in scope at any of
// uses, so that the fix's references there mean its new declaration.
func (n *Names) unshadowedAt(name string, uses []token.Pos) bool {
	for _, pos := range uses {
		if scope := n.pass.Pkg.Scope().Innermost(pos); scope != nil {
			if _, obj := scope.LookupParent(name, pos); obj != nil {
				return false
			}
		}
	}
	return true
}

// blockAt returns the scope that a statement inserted at pos joins: the
// innermost scope around pos, or its parent when the statement at pos opens
// that scope (a for, if, switch or block statement starting at pos); the
// package scope when pos lies in no file.
func (n *Names) blockAt(pos token.Pos) *types.Scope {
	scope := n.pass.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return n.pass.Pkg.Scope()
	}
	if scope.Pos() == pos {
		scope = scope.Parent()
	}
	return scope
}

// enclosingDecl returns the top-level declaration holding pos, or nil.
func (n *Names) enclosingDecl(pos token.Pos) ast.Decl {
	if f := EnclosingFile(n.pass.Files, pos); f != nil {
		return EnclosingDecl(f, pos)
	}
	return nil
}

// spelledIn reports whether an identifier of the top-level declaration decl,
// or of the whole package when decl is nil, is name.
func (n *Names) spelledIn(decl ast.Decl, name string) bool {
	ids, ok := n.spelled[decl]
	if !ok {
		ids = make(map[string]bool)
		add := func(root ast.Node) {
			ast.Inspect(root, func(node ast.Node) bool {
				if id, ok := node.(*ast.Ident); ok {
					ids[id.Name] = true
				}
				return true
			})
		}
		if decl == nil {
			for _, f := range n.pass.Files {
				add(f)
			}
		} else {
			add(decl)
		}
		n.spelled[decl] = ids
	}
	return ids[name]
}
