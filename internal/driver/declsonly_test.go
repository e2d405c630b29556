package driver

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"testing"
)

func TestStripBodies(t *testing.T) {
	const src = `package p

import (
	"fmt"
	"math/rand/v2"
	"strings"
	_ "embed"
	str "strconv"
)

func init() { fmt.Println("x") }

func Exported(s string) string { return strings.ToUpper(s) + str.Itoa(rand.IntN(3)) }

func Generic[T any](v T) T { fmt.Println(v); return v }

type G[T any] struct{ v T }

func (g *G[T]) Get() T { _ = strings.ToLower(""); return g.v }

var Sig func(strings.Builder) str.NumError
`
	goroot := t.TempDir()
	name := filepath.Join(goroot, "src", "p", "p.go")
	fset := token.NewFileSet()
	f, err := declarationsOnly(goroot, nil)(fset, name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{
		"func Exported(s string) string\n",       // body gone
		"func Generic[T any](v T) T { fmt.Print", // generic body kept
		"func (g *G[T]) Get() T { _ = strings",   // generic method body kept
		`_ "embed"`, `str "strconv"`, `"strings"`, `"fmt"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("stripped file lacks %q:\n%s", want, got)
		}
	}
	for _, gone := range []string{"func init", `"math/rand/v2"`} {
		if strings.Contains(got, gone) {
			t.Errorf("stripped file still has %q:\n%s", gone, got)
		}
	}
	// What is left type-checks without "imported and not used" errors.
	fset2 := token.NewFileSet()
	f2, err := parser.ParseFile(fset2, "p.go", got, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("p", fset2, []*ast.File{f2}, nil); err != nil {
		t.Errorf("stripped file does not type-check: %v", err)
	}

	// Root files and files outside GOROOT are parsed whole.
	for _, tc := range []struct {
		file  string
		roots map[string]bool
	}{
		{name, map[string]bool{name: true}},
		{filepath.Join(t.TempDir(), "q.go"), nil},
	} {
		f, err := declarationsOnly(goroot, tc.roots)(token.NewFileSet(), tc.file, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Decls) != 7 {
			t.Errorf("%s was stripped", tc.file)
		}
	}
}
