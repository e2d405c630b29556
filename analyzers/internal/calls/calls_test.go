package calls_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
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
		fn := code.Callee(info, call)
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

// Verify warns once about each entry that certainly names nothing in the
// package analyzed or its imports, and stays silent about the rest;
// Unresolved then gives the entries whose package no package analyzed
// imports.
func TestVerify(t *testing.T) {
	var out strings.Builder
	defer calls.SetWarnings(&out)()
	pkg, _, _ := check(t)
	tab := calls.New("-resolverpool.slow")
	err := tab.Set(strings.Join([]string{
		"p.T.Sleep",                  // found
		"(*p.T).Slep",                // a misspelt method
		"p.Nope",                     // no such function
		"p.U.M",                      // no such type
		"p.f",                        // found: unexported, in the package analyzed
		"time.Sleeep",                // misspelt, in an import
		"(*net/http.Client).Doo",     // misspelt method, in an import
		"time.sleep",                 // unexported, in an import: unknown
		"example.com/other.Compact",  // not in view
		"gopkg.in/yaml.v3.Unmarshal", // not in view, two readings
	}, ","))
	if err != nil {
		t.Fatal(err)
	}
	tab.Verify(pkg)
	tab.Verify(pkg) // a second package: nothing new
	want := []string{
		"queuecheck: warning: -resolverpool.slow: net/http.Client.Doo names nothing: type net/http.Client declares no method Doo",
		"queuecheck: warning: -resolverpool.slow: p.Nope names nothing: package p has no function Nope",
		"queuecheck: warning: -resolverpool.slow: p.T.Slep names nothing: type p.T declares no method Slep",
		"queuecheck: warning: -resolverpool.slow: p.U.M names nothing: package p has no type U",
		"queuecheck: warning: -resolverpool.slow: time.Sleeep names nothing: package time has no function Sleeep",
	}
	if got := strings.Split(strings.TrimSpace(out.String()), "\n"); !slices.Equal(got, want) {
		t.Errorf("Verify warned:\n%s\nwant:\n%s", out.String(), strings.Join(want, "\n"))
	}

	loaded := func(path string) *types.Package {
		for _, p := range append(pkg.Imports(), pkg) {
			if p.Path() == path {
				return p
			}
		}
		return nil
	}
	got := tab.Unresolved(loaded)
	want = []string{
		"queuecheck: warning: -resolverpool.slow: example.com/other.Compact names nothing: no package analyzed imports example.com/other",
		"queuecheck: warning: -resolverpool.slow: gopkg.in/yaml.v3.Unmarshal names nothing: no package analyzed imports gopkg.in/yaml.v3",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Unresolved = %q, want %q", got, want)
	}
	if again := tab.Unresolved(loaded); len(again) > 0 {
		t.Errorf("a second Unresolved repeats %q", again)
	}

	// Setting the flag again starts afresh.
	out.Reset()
	if err := tab.Set("p.Nope"); err != nil {
		t.Fatal(err)
	}
	tab.Verify(pkg)
	if !strings.Contains(out.String(), "p.Nope names nothing") {
		t.Errorf("after Set, Verify warned %q", out.String())
	}
}

// TestTakeOut checks that "-name" takes a built-in entry out of a table, in
// the notation of the knowledge lists' flags, and that only a built-in
// entry can be taken out.
func TestTakeOut(t *testing.T) {
	_, file, info := check(t)
	resolving := calls.NewResolving("-resolve")
	if err := resolving.Set("-(*net/http.Client).Do, p.T.Sleep"); err != nil {
		t.Fatal(err)
	}
	if got, want := resolving.String(), "p.T.Sleep,-net/http.Client.Do"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if err := resolving.Set(resolving.String()); err != nil || resolving.String() != "p.T.Sleep,-net/http.Client.Do" {
		t.Errorf("Set(String()) = %v, String() = %q", err, resolving.String())
	}
	var got []string
	ast.Inspect(file, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := code.Callee(info, call); fn != nil && resolving.Contains(fn) {
				got = append(got, calls.Key(fn))
			}
		}
		return true
	})
	if want := []string{"net/http.Get", "p.T.Sleep"}; !slices.Equal(got, want) {
		t.Errorf("resolving calls: got %q, want %q", got, want)
	}
	if err := resolving.Set("-p.T.Sleep"); err == nil {
		t.Errorf("taking out an entry that is not built in: no error")
	}
	if resolving.String() != "p.T.Sleep,-net/http.Client.Do" {
		t.Errorf("a failed Set changed the table: %q", resolving.String())
	}
	if err := resolving.Set(""); err != nil || resolving.String() != "" {
		t.Errorf("Set(\"\") = %v, String() = %q", err, resolving.String())
	}
}
