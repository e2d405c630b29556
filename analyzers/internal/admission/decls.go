package admission

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// FuncDecl returns the declaration, with a body, of the function or method fn
// (mapped to its origin) in this package, test files included. One index of
// the package's declarations serves every check: it is built on first use.
func (r *Result) FuncDecl(fn *types.Func) (inspector.Cursor, bool) {
	if fn == nil {
		return inspector.Cursor{}, false
	}
	r.declOnce.Do(r.indexDecls)
	i, ok := r.declAt[fn.Origin()]
	if !ok {
		return inspector.Cursor{}, false
	}
	return r.funcDecls[i].cur, true
}

// FuncDecl is [Result.FuncDecl].
func (f *Finder) FuncDecl(fn *types.Func) (inspector.Cursor, bool) { return f.r.FuncDecl(fn) }

// indexDecls lists the package's declared functions with bodies, in file
// and source order.
func (r *Result) indexDecls() {
	r.declAt = make(map[*types.Func]int)
	for file := range r.insp.Root().Children() {
		for d := range file.Children() {
			fd, ok := d.Node().(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := r.info.Defs[fd.Name].(*types.Func); ok {
				r.declAt[fn] = len(r.funcDecls)
				r.funcDecls = append(r.funcDecls, decl{fn: fn, cur: d})
			}
		}
	}
}

// declsOf returns the declared functions with bodies of the files for which
// skip reports false.
func (r *Result) declsOf(skip func(*ast.File) bool) []decl {
	r.declOnce.Do(r.indexDecls)
	var out []decl
	for _, d := range r.funcDecls {
		if !skip(d.cur.Parent().Node().(*ast.File)) {
			out = append(out, d)
		}
	}
	return out
}

// productionDecl returns the declaration of fn in a production file of the
// package (one other packages can call), or nil.
func (r *Result) productionDecl(fn *types.Func) *ast.FuncDecl {
	d, ok := r.FuncDecl(fn)
	if !ok || r.isTest(d.Parent().Node().(*ast.File)) {
		return nil
	}
	return d.Node().(*ast.FuncDecl)
}
