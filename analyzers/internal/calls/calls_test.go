package calls_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
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

// check type-checks src as package p.
func check(t *testing.T) (*types.Package, *ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: make(map[*ast.Ident]types.Object), Selections: make(map[*ast.SelectorExpr]*types.Selection), Types: make(map[ast.Expr]types.TypeAndValue), Instances: make(map[*ast.Ident]types.Instance)}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("p", fset, []*ast.File{file}, info)
	if err != nil {
		t.Fatal(err)
	}
	return pkg, file, info
}

func TestTables(t *testing.T) {
	_, file, info := check(t)
	resolving, slow := calls.NewResolving("-resolve"), calls.NewSlow("-slow")
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

// Every spelling of a method names the same method, generic or not, and
// prints as Key spells it.
func TestSetAcceptsEverySpelling(t *testing.T) {
	pkg, _, _ := check(t)
	sleep, _, _ := types.LookupFieldOrMethod(pkg.Scope().Lookup("T").Type(), true, pkg, "Sleep")
	do, _, _ := types.LookupFieldOrMethod(types.NewPointer(lookupType(t, "net/http", "Client")), true, nil, "Do")
	for _, tc := range []struct {
		set  string
		want string // String()
		fn   *types.Func
	}{
		{"p.T.Sleep", "p.T.Sleep", sleep.(*types.Func)},
		{"(p.T).Sleep", "p.T.Sleep", sleep.(*types.Func)},
		{"(*p.T).Sleep", "p.T.Sleep", sleep.(*types.Func)},
		{"(*p.T[E]).Sleep", "p.T.Sleep", sleep.(*types.Func)},
		{" (p.T[E]).Sleep ,", "p.T.Sleep", sleep.(*types.Func)},
		{"net/http.Client.Do", "net/http.Client.Do", do.(*types.Func)},
		{"(*net/http.Client).Do", "net/http.Client.Do", do.(*types.Func)},
		{"(*net/http.Client).Do,net/http.Client.Do", "net/http.Client.Do", do.(*types.Func)},
	} {
		tab := calls.New("-x")
		if err := tab.Set(tc.set); err != nil {
			t.Errorf("Set(%q): %v", tc.set, err)
			continue
		}
		if got := tab.String(); got != tc.want {
			t.Errorf("Set(%q): String() = %q, want %q", tc.set, got, tc.want)
		}
		if !tab.Contains(tc.fn) {
			t.Errorf("Set(%q): does not contain %s", tc.set, tc.fn.FullName())
		}
	}
}

func lookupType(t *testing.T, path, name string) types.Type {
	t.Helper()
	pkg, err := importer.ForCompiler(token.NewFileSet(), "source", nil).Import(path)
	if err != nil {
		t.Fatal(err)
	}
	return pkg.Scope().Lookup(name).Type()
}

// A name in none of the accepted spellings is an error naming it and the
// spellings, and leaves the table as it was.
func TestSetRejectsMalformedNames(t *testing.T) {
	for _, bad := range []string{
		"Sleep",               // no package
		"time.",               // no function
		".Sleep",              // no package
		"time.Sleep()",        // a call
		"*p.T.Sleep",          // a pointer without parentheses
		"p.T[E].Sleep",        // type parameters without parentheses
		"(*p.T.Sleep",         // unbalanced
		"(*p.T)",              // no method
		"(*p.T).Sleep.Again",  // two methods
		"(*T).Sleep",          // no package
		"(*p.T[E).Sleep",      // unbalanced brackets
		"p//q.F",              // an empty path element
		"time.Sleep time.Now", // a blank instead of a comma
		"example.com/q",       // a package, no function
	} {
		tab := calls.New("-x")
		if err := tab.Set("time.Sleep"); err != nil {
			t.Fatal(err)
		}
		err := tab.Set("net.Dial," + bad)
		if err == nil {
			t.Errorf("Set(%q) succeeded; String() = %q", bad, tab.String())
			continue
		}
		if !strings.Contains(err.Error(), strconv.Quote(bad)) || !strings.Contains(err.Error(), "(*pkg/path.Type).Method") {
			t.Errorf("Set(%q): error %q does not name the entry and the spellings", bad, err)
		}
		if got := tab.String(); got != "time.Sleep" {
			t.Errorf("Set(%q) failed but changed the table to %q", bad, got)
		}
	}
}
