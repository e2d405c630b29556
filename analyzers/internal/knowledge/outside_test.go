package knowledge_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoListsOutside checks that no package of analyzers/ but this one
// declares a list of names: a slice or map literal of three or more string
// constants. Single names that are the pattern itself (sync.Mutex's Lock,
// the errgroup import path) may stay where they are used.
func TestNoListsOutside(t *testing.T) {
	root := filepath.Join("..", "..")
	allowed := map[string]bool{
		"Checks": true, // report.Checks: the names of the checks, not names of code
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "knowledge" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		allowedLits := make(map[*ast.CompositeLit]bool)
		ast.Inspect(f, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok {
				for i, name := range vs.Names {
					if cl, ok := valueAt(vs, i).(*ast.CompositeLit); ok && allowed[name.Name] {
						allowedLits[cl] = true
					}
				}
			}
			cl, ok := n.(*ast.CompositeLit)
			if !ok || allowedLits[cl] || len(cl.Elts) < 3 {
				return true
			}
			for _, e := range cl.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Key
				}
				if lit, ok := e.(*ast.BasicLit); !ok || lit.Kind != token.STRING {
					return true
				}
			}
			t.Errorf("%s: a list of %d names; declare it in package knowledge", fset.Position(cl.Pos()), len(cl.Elts))
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func valueAt(vs *ast.ValueSpec, i int) ast.Expr {
	if i < len(vs.Values) {
		return vs.Values[i]
	}
	return nil
}
