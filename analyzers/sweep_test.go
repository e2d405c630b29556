package analyzers_test

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
)

// TestFixSweep applies every fix the whole suite proposes on its testdata
// and on the demo package at once, as "queuecheck -fix" and "go vet -fix" do, then loads the result and
// runs the suite again: the fixed code must type-check, every fixed finding
// must be gone, and no new finding may appear. It catches what no single
// check's golden files can: two checks whose fixes collide on the same code,
// and a fix that makes another check fire.
func TestFixSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the standard library from source twice")
	}
	pkgs, gopath := load(t)
	// The demo, beside the stubs of its third-party imports.
	demo := filepath.Join(gopath, "src", "queuecheckdemo")
	if err := os.CopyFS(demo, os.DirFS(filepath.Join(repoRoot(t), "testdata", "demo"))); err != nil {
		t.Fatal(err)
	}
	pkgs = append(pkgs, loadGOPATH(t, gopath, "queuecheckdemo")...)
	before, unfixed, edits := sweepRun(t, pkgs)
	if len(before) == 0 {
		t.Fatal("the suite found nothing in its testdata")
	}

	// Apply all fixes, file by file.
	for name, es := range edits {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out, err := fixtest.Apply(es.file, src, es.edits)
		if err != nil {
			t.Errorf("%s: the suite's fixes collide: %v", name, err)
			continue
		}
		if err := os.WriteFile(name, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if t.Failed() {
		return
	}

	fixed := reload(t, gopath, pkgs)
	var broken []string
	packages.Visit(fixed, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			broken = append(broken, e.Error())
		}
	})
	if len(broken) > 0 {
		t.Fatalf("the fixed testdata does not type-check:\n%s", strings.Join(broken, "\n"))
	}
	after, _, _ := sweepRun(t, fixed)

	// What remains must be exactly what had no fix.
	if !slices.Equal(after, unfixed) {
		t.Errorf("after applying every fix, the findings are not those that had none\nwant (had no fix):\n%s\ngot:\n%s",
			strings.Join(unfixed, "\n"), strings.Join(after, "\n"))
	}
	t.Logf("%d findings, %d fixed, %d without a fix", len(before), len(before)-len(unfixed), len(unfixed))
	// Fix coverage per category, for docs/reliability.md.
	type tally struct{ all, fixed int }
	byCategory := make(map[string]*tally)
	var categories []string
	for _, f := range before {
		c := strings.SplitN(f, ": ", 3)[1]
		if byCategory[c] == nil {
			byCategory[c] = new(tally)
			categories = append(categories, c)
		}
		byCategory[c].all++
		if !slices.Contains(unfixed, f) {
			byCategory[c].fixed++
		}
	}
	slices.Sort(categories)
	for _, c := range categories {
		t.Logf("  %-34s %3d findings, %3d with a fix", c, byCategory[c].all, byCategory[c].fixed)
	}
}

// sweepRun runs the suite on pkgs and returns its findings as "file: category:
// message" (without line numbers, which fixes shift), those of them without a
// fix, and the first fix of each finding, edits grouped by file.
func sweepRun(t *testing.T, pkgs []*packages.Package) (all, unfixed []string, edits map[string]*fileEdits) {
	t.Helper()
	graph, err := checker.Analyze(analyzers.All, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	edits = make(map[string]*fileEdits)
	seen := make(map[string]bool) // a file's finding, once for the package and once for its test variant
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Errorf("%s on %s: %v", act.Analyzer.Name, act.Package.ID, act.Err)
			continue
		}
		for _, d := range act.Diagnostics {
			pos := act.Package.Fset.Position(d.Pos)
			key := fmt.Sprintf("%s:%d:%d: %s: %s", pos.Filename, pos.Line, pos.Column, d.Category, d.Message)
			if seen[key] {
				continue
			}
			seen[key] = true
			f := fmt.Sprintf("%s: %s: %s", shortName(pos), d.Category, d.Message)
			all = append(all, f)
			if len(d.SuggestedFixes) == 0 {
				unfixed = append(unfixed, f)
				continue
			}
			for _, e := range d.SuggestedFixes[0].TextEdits {
				tf := act.Package.Fset.File(e.Pos)
				fe := edits[tf.Name()]
				if fe == nil {
					fe = &fileEdits{file: tf}
					edits[tf.Name()] = fe
				}
				fe.edits = append(fe.edits, e)
			}
		}
	}
	slices.Sort(all)
	slices.Sort(unfixed)
	return all, unfixed, edits
}

// fileEdits are the edits of one file, with the token.File of the load that
// produced them.
type fileEdits struct {
	file  *token.File
	edits []analysis.TextEdit
}

func shortName(p token.Position) string {
	if i := strings.Index(p.Filename, "/src/"); i >= 0 {
		return p.Filename[i+len("/src/"):]
	}
	return p.Filename
}

// reload loads the same packages again from the (fixed) GOPATH.
func reload(t *testing.T, gopath string, pkgs []*packages.Package) []*packages.Package {
	t.Helper()
	var patterns []string
	for _, p := range pkgs {
		if !strings.Contains(p.ID, " [") && !strings.HasSuffix(p.ID, ".test") && !slices.Contains(patterns, p.PkgPath) {
			patterns = append(patterns, p.PkgPath)
		}
	}
	return loadGOPATH(t, gopath, patterns...)
}

// loadGOPATH loads patterns in GOPATH mode from gopath, with tests and all
// dependencies from source, as analysistest does.
func loadGOPATH(t *testing.T, gopath string, patterns ...string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo |
			packages.NeedDeps | packages.NeedModule,
		Dir:   gopath,
		Tests: true,
		Env:   append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOWORK=off", "GOFLAGS="),
	}
	fixed, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	return fixed
}
