package edits_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
)

func TestZeroValue(t *testing.T) {
	const src = `package p

import (
	"sync"
	tm "time"
)

type S struct{ x int }

func f[T any]() (b bool, n int, s string, e error, p *int, st S, d tm.Duration, t tm.Time, m sync.Mutex, g T) {
	return
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: make(map[*ast.Ident]types.Object)}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	sig := pkg.Scope().Lookup("f").Type().(*types.Signature)
	want := []string{"false", "0", `""`, "nil", "nil", "S{}", "0", "tm.Time{}", "sync.Mutex{}", "*new(T)"}
	for i := range sig.Results().Len() {
		got, ok := edits.ZeroValue(pkg, f, sig.Results().At(i).Type())
		if !ok || got != want[i] {
			t.Errorf("ZeroValue(%s) = %q, %v; want %q", sig.Results().At(i).Type(), got, ok, want[i])
		}
	}
	// A file that does not import time cannot spell time.Time.
	other, _ := parser.ParseFile(fset, "q.go", "package p\n", 0)
	if _, ok := edits.TypeString(pkg, other, sig.Results().At(7).Type()); ok {
		t.Errorf("TypeString(time.Time) in a file without the import = ok")
	}
}
