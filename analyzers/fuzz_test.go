package analyzers_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
)

// FuzzAnalyzers feeds Go sources through every analyzer of the suite and
// checks what must hold for any input: no panic, every fix's edits lie inside
// the file and do not overlap the other fixes', and a file that parsed before
// the fixes still parses after them.
//
// The seed corpus is every .go file under testdata/src and testdata/fuzz (the
// latter holds sources chosen for odd shapes); "go test" runs the seeds, and
// "go test -fuzz=FuzzAnalyzers ./analyzers" mutates them.
func FuzzAnalyzers(f *testing.F) {
	root := fixtest.TestData()
	for _, dir := range []string{filepath.Join(root, "src"), filepath.Join(root, "fuzz"), filepath.Join(root, "demo")} {
		_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".go.txt")) {
				if src, err := os.ReadFile(path); err == nil {
					f.Add(src)
				}
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		// Importing a standard package the first time may build its export
		// data, which on a cold build cache takes longer than any analysis:
		// do it before the clock starts, so the limit below times the suite.
		importStd(src)
		// A check that loops forever on some input is as bad as a crash:
		// fail (and record the input) rather than stall the fuzzer.
		done := make(chan struct{})
		go func() {
			defer close(done)
			analyzeSource(t, src)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Fatalf("the suite did not finish on this input in 10s:\n%s\n%s", src, buf[:n])
		}
	})
}

// stdImporter imports standard packages from export data, once per process.
var stdImporter = sync.OnceValue(importer.Default)

// importStd imports the standard packages src names, ignoring any error:
// analyzeSource then finds them in stdImporter's cache.
func importStd(src []byte) {
	file, err := parser.ParseFile(token.NewFileSet(), "fuzz.go", src, parser.ImportsOnly)
	if err != nil {
		return
	}
	for _, spec := range file.Imports {
		if path, err := strconv.Unquote(spec.Path.Value); err == nil && !strings.Contains(path, ".") {
			_, _ = stdImporter().Import(path)
		}
	}
}

func analyzeSource(t *testing.T, src []byte) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "fuzz.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return // the suite never sees a file that does not parse
	}
	info := &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if strings.Contains(path, ".") {
				return nil, fmt.Errorf("no third-party packages in the fuzzer")
			}
			return stdImporter().Import(path)
		}),
		Error: func(error) {}, // analyze packages with type errors too, as RunDespiteErrors drivers may
		Sizes: types.SizesFor("gc", runtime.GOARCH),
	}
	pkg, _ := conf.Check("fuzz", fset, []*ast.File{file}, info)

	diags := runSuite(t, fset, file, pkg, info, src)
	checkFixes(t, fset, src, diags)
}

// runSuite runs every analyzer of the suite, and what they require, on one
// file, the way a driver would, and returns the suite's diagnostics.
func runSuite(t *testing.T, fset *token.FileSet, file *ast.File, pkg *types.Package, info *types.Info, src []byte) []analysis.Diagnostic {
	results := make(map[*analysis.Analyzer]any)
	facts := make(map[string]analysis.Fact)
	var diags []analysis.Diagnostic
	var exec func(a *analysis.Analyzer) any
	exec = func(a *analysis.Analyzer) any {
		if r, ok := results[a]; ok {
			return r
		}
		resultOf := make(map[*analysis.Analyzer]any)
		for _, req := range a.Requires {
			resultOf[req] = exec(req)
		}
		root := slices.Contains(analyzers.All, a)
		pass := &analysis.Pass{
			Analyzer:   a,
			Fset:       fset,
			Files:      []*ast.File{file},
			Pkg:        pkg,
			TypesInfo:  info,
			TypesSizes: types.SizesFor("gc", runtime.GOARCH),
			ResultOf:   resultOf,
			ReadFile: func(name string) ([]byte, error) {
				if name == "fuzz.go" {
					return src, nil
				}
				return nil, os.ErrNotExist
			},
			Report: func(d analysis.Diagnostic) {
				if root {
					diags = append(diags, d)
				}
			},
			ImportObjectFact: func(obj types.Object, fact analysis.Fact) bool {
				got, ok := facts[factKey(obj, fact)]
				if ok {
					reflect.ValueOf(fact).Elem().Set(reflect.ValueOf(got).Elem())
				}
				return ok
			},
			ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
				facts[factKey(obj, fact)] = fact
			},
			ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
			ExportPackageFact: func(analysis.Fact) {},
			AllObjectFacts:    func() []analysis.ObjectFact { return nil },
			AllPackageFacts:   func() []analysis.PackageFact { return nil },
		}
		r, err := a.Run(pass)
		if err != nil {
			t.Logf("%s: %v", a.Name, err) // an error is a reported failure, not a crash
		}
		results[a] = r
		return r
	}
	for _, a := range analyzers.All {
		exec(a)
	}
	return diags
}

func factKey(obj types.Object, fact analysis.Fact) string {
	return fmt.Sprintf("%p/%T", obj, fact)
}

func checkFixes(t *testing.T, fset *token.FileSet, src []byte, diags []analysis.Diagnostic) {
	tf := fset.File(token.Pos(fset.Base() - len(src) - 1))
	if tf == nil {
		fset.Iterate(func(f *token.File) bool { tf = f; return false })
	}
	var all []analysis.TextEdit
	for _, d := range diags {
		for _, fix := range d.SuggestedFixes {
			for _, e := range fix.TextEdits {
				end := e.End
				if !end.IsValid() {
					end = e.Pos
				}
				if e.Pos < token.Pos(tf.Base()) || end > token.Pos(tf.Base()+tf.Size()) || end < e.Pos {
					t.Fatalf("%s: fix %q has an edit outside the file: [%d, %d)", d.Category, fix.Message, e.Pos, end)
				}
			}
			// Each fix alone applies cleanly and leaves a parsable file.
			out, err := fixtest.Apply(tf, src, fix.TextEdits)
			if err != nil {
				t.Fatalf("%s: fix %q: %v", d.Category, fix.Message, err)
			}
			if _, err := parser.ParseFile(token.NewFileSet(), "fixed.go", out, parser.ParseComments); err != nil {
				t.Fatalf("%s: fix %q leaves a file that does not parse: %v\n%s", d.Category, fix.Message, err, out)
			}
			all = append(all, fix.TextEdits...)
		}
	}
	if len(all) == 0 {
		return
	}
	// All fixes together: no overlaps, and the result still parses.
	out, err := fixtest.Apply(tf, src, all)
	if err != nil {
		var b strings.Builder
		for _, d := range diags {
			for _, fix := range d.SuggestedFixes {
				for _, e := range fix.TextEdits {
					fmt.Fprintf(&b, "\t%s %s: [%d,%d) %q\n", fset.Position(d.Pos), d.Category, tf.Offset(e.Pos), tf.Offset(e.Pos)+int(e.End-e.Pos), e.NewText)
				}
			}
		}
		t.Fatalf("fixes overlap: %v\n%s%s", err, b.String(), src)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "fixed.go", out, parser.ParseComments); err != nil && !bytes.Equal(out, src) {
		t.Fatalf("the fixes together leave a file that does not parse: %v\n%s", err, out)
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
