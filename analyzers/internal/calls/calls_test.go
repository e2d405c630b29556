package calls_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
)

const src = `package p

import (
	"net/http"
	"os"
	"time"
)

type T[E any] struct{}

func (T[E]) Sleep() { time.Sleep(0) }

func f(c *http.Client, r *http.Request, fi *os.File, g func()) {
	c.Do(r)
	http.Get("")
	fi.Write(nil)
	time.Sleep(0)
	T[int]{}.Sleep()
	g()
	var rc interface{ Close() error } = fi
	rc.Close()
}
`

func TestTables(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: make(map[*ast.Ident]types.Object), Selections: make(map[*ast.SelectorExpr]*types.Selection), Types: make(map[ast.Expr]types.TypeAndValue), Instances: make(map[*ast.Ident]types.Instance)}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("p", fset, []*ast.File{file}, info); err != nil {
		t.Fatal(err)
	}
	resolving, slow := calls.NewResolving(), calls.NewSlow()
	if err := slow.Set("p.T.Sleep, p.T.Sleep"); err != nil {
		t.Fatal(err)
	}
	if got := slow.String(); got != "p.T.Sleep" {
		t.Errorf("slow.String() = %q, want p.T.Sleep", got)
	}
	var got []string
	ast.Inspect(file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := calls.Callee(info, call)
		switch {
		case fn == nil:
			got = append(got, "dynamic")
		case resolving.Contains(fn):
			got = append(got, "resolve "+calls.Key(fn))
		case slow.Contains(fn):
			got = append(got, "slow "+calls.Key(fn))
		}
		return true
	})
	want := []string{
		"slow time.Sleep",
		"resolve net/http.Client.Do",
		"resolve net/http.Get",
		"slow os.File.Write",
		"slow time.Sleep",
		"slow p.T.Sleep",
		"dynamic", // g()
		"dynamic", // rc.Close()
	}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("call %d: got %q, want %q", i, got[i], want[i])
		}
	}
}
