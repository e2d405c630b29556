package edits

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// newPass parses and type-checks the files of one package, given as name
// and source, for a pass that reads them from memory. Imports resolve to
// packages that declare only the variables memberVars lists: the tests need
// names, not behaviour, and type errors are tolerated as RunDespiteErrors
// drivers do.
func newPass(t *testing.T, files ...string) *analysis.Pass {
	t.Helper()
	fset := token.NewFileSet()
	content := make(map[string][]byte)
	var syntax []*ast.File
	for i := 0; i+1 < len(files); i += 2 {
		name, src := files[i], files[i+1]
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		content[name] = []byte(src)
		syntax = append(syntax, f)
	}
	info := &types.Info{
		Types:  make(map[ast.Expr]types.TypeAndValue),
		Defs:   make(map[*ast.Ident]types.Object),
		Uses:   make(map[*ast.Ident]types.Object),
		Scopes: make(map[ast.Node]*types.Scope),
	}
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			pkg := types.NewPackage(path, path[strings.LastIndex(path, "/")+1:])
			for _, name := range memberVars[path] {
				pkg.Scope().Insert(types.NewVar(token.NoPos, pkg, name, types.Typ[types.Int]))
			}
			pkg.MarkComplete()
			return pkg, nil
		}),
		Error: func(error) {},
	}
	pkg, _ := conf.Check("p", fset, syntax, info)
	return &analysis.Pass{
		Fset:      fset,
		Files:     syntax,
		Pkg:       pkg,
		TypesInfo: info,
		ReadFile: func(name string) ([]byte, error) {
			if src, ok := content[name]; ok {
				return src, nil
			}
			return nil, os.ErrNotExist
		},
	}
}

// memberVars lists the variables of the packages the tests import.
var memberVars = map[string][]string{"example.com/limits": {"MaxJobs"}}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// at returns the position of the first occurrence of marker in the file
// name of pass.
func at(t *testing.T, pass *analysis.Pass, name, marker string) token.Pos {
	t.Helper()
	for _, f := range pass.Files {
		if tf := pass.Fset.File(f.Pos()); tf.Name() == name {
			src, _ := pass.ReadFile(name)
			off := strings.Index(string(src), marker)
			if off < 0 {
				t.Fatalf("%s: no %q", name, marker)
			}
			return tf.Pos(off)
		}
	}
	t.Fatalf("no file %s", name)
	return token.NoPos
}

// after returns the position just after the first occurrence of marker in
// the file name of pass.
func after(t *testing.T, pass *analysis.Pass, name, marker string) token.Pos {
	t.Helper()
	return at(t, pass, name, marker) + token.Pos(len(marker))
}

// insert returns the edit that inserts text at pos.
func insert(pos token.Pos, text string) analysis.TextEdit {
	return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text)}
}
