package driver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// With a fact-based check in the suite, the x/tools checker must load every
// dependency from source so the check can run on it. The standard library
// needs no such run — resolverpool answers it from tables — but it still
// gets type-checked, and its function bodies are most of that work. So the
// driver parses standard-library files outside the root packages without
// function bodies (and without the imports only those bodies used): their
// declarations, all that the root packages' type-checking needs, stay
// exact.

// rootFiles lists the Go files of the packages patterns match, cheaply (no
// dependencies, no types), so the full load knows which files it must parse
// whole.
func rootFiles(conf *packages.Config, patterns []string) (map[string]bool, error) {
	c := *conf
	c.Mode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles
	pkgs, err := packages.Load(&c, patterns...)
	if err != nil {
		return nil, err
	}
	files := make(map[string]bool)
	for _, p := range pkgs {
		for _, f := range p.GoFiles {
			files[f] = true
		}
		for _, f := range p.CompiledGoFiles {
			files[f] = true
		}
	}
	return files, nil
}

// declarationsOnly returns a packages.Config.ParseFile that parses files of
// goroot's standard library outside roots without function bodies.
func declarationsOnly(goroot string, roots map[string]bool) func(*token.FileSet, string, []byte) (*ast.File, error) {
	src := filepath.Join(goroot, "src") + string(filepath.Separator)
	return func(fset *token.FileSet, filename string, data []byte) (*ast.File, error) {
		if roots[filename] || !strings.HasPrefix(filename, src) {
			return parser.ParseFile(fset, filename, data, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		}
		f, err := parser.ParseFile(fset, filename, data, parser.SkipObjectResolution)
		if f != nil && !hasDotImport(f) {
			stripBodies(f)
		}
		return f, err
	}
}

// stripBodies drops the bodies of f's functions and then the imports nothing
// left refers to, which the type checker would otherwise report as unused.
// Generic functions keep theirs (the language requires them) and init
// functions go whole (nothing can refer to them).
func stripBodies(f *ast.File) {
	decls := f.Decls[:0]
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && !isGeneric(fd) {
			if fd.Recv == nil && fd.Name.Name == "init" {
				continue
			}
			fd.Body = nil
		}
		decls = append(decls, d)
	}
	f.Decls = decls
	used := make(map[string]bool)
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	keep := func(spec *ast.ImportSpec) bool {
		if spec.Name != nil {
			return spec.Name.Name == "_" || used[spec.Name.Name]
		}
		path, err := strconv.Unquote(spec.Path.Value)
		return err != nil || path == "C" || used[stdPackageName(path)]
	}
	var imports []*ast.ImportSpec
	for _, d := range f.Decls {
		gen, ok := d.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT {
			continue
		}
		specs := gen.Specs[:0]
		for _, s := range gen.Specs {
			if keep(s.(*ast.ImportSpec)) {
				specs = append(specs, s)
				imports = append(imports, s.(*ast.ImportSpec))
			}
		}
		gen.Specs = specs
	}
	f.Imports = imports
}

// stdPackageName is the name a standard-library (or GOROOT-vendored) package
// declares: the last element of its path, skipping a major-version suffix.
func stdPackageName(path string) string {
	elems := strings.Split(path, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = elems[len(elems)-2]
	}
	return name
}

// hasDotImport reports whether f imports a package into its own scope, whose
// uses no selector shows: such a file is parsed whole.
func hasDotImport(f *ast.File) bool {
	for _, spec := range f.Imports {
		if spec.Name != nil && spec.Name.Name == "." {
			return true
		}
	}
	return false
}

// isGeneric reports whether fd declares a generic function or a method of a
// generic type.
func isGeneric(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams != nil {
		return true
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	t := fd.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	switch ast.Unparen(t).(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}
