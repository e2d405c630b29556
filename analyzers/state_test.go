package analyzers_test

// Tests that every check of analyzers.All can run outside the queuecheck
// binary: under Bazel's nogo (docs/scale-out.md), in golangci-lint, in any
// x/tools driver. Such a driver imports the check's package, takes its
// Analyzer variable, sets its flags and runs it on packages in whatever
// order and concurrency it likes, so a check may keep no state between
// passes other than its flags. New checks are picked up from analyzers.All
// and their testdata/src/<name> trees.

import (
	"bytes"
	"cmp"
	"encoding/gob"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/queuecheck/queuecheck/analyzers"
)

const modulePath = "github.com/queuecheck/queuecheck"

// repoRoot returns the repository's root directory.
func repoRoot(t *testing.T) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("runtime.Caller failed")
	}
	return filepath.Dir(filepath.Dir(file))
}

// analyzerPackage returns the import path of the package that defines a, from
// the name of its Run function.
func analyzerPackage(a *analysis.Analyzer) string {
	name := runtime.FuncForPC(reflect.ValueOf(a.Run).Pointer()).Name()
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	return name[:slash+1+dot]
}

// TestScaleOutAnalyzers checks, on one load of the testdata (loading the
// standard library from source takes seconds), that the checks can run in
// any driver, nogo in particular.
func TestScaleOutAnalyzers(t *testing.T) {
	t.Run("importable", testImportable)
	pkgs, gopath := sharedTestdata(t)
	t.Run("no hidden state", func(t *testing.T) { testNoHiddenState(t, pkgs) })
	t.Run("nogo", func(t *testing.T) { testNogo(t, pkgs, gopath) })
}

func testImportable(t *testing.T) {
	if err := analysis.Validate(analyzers.All); err != nil {
		t.Fatal(err)
	}
	seen := make(map[string]bool)
	for _, a := range analyzers.All {
		if seen[a.Name] {
			t.Errorf("two checks are named %s", a.Name)
		}
		seen[a.Name] = true
		if a.URL == "" {
			t.Errorf("%s has no URL", a.Name)
		}
		if first, _, _ := strings.Cut(a.Doc, "\n"); !strings.HasPrefix(first, a.Name+": ") {
			t.Errorf("%s: the first line of Doc is %q, want %q", a.Name, first, a.Name+": summary")
		}

		// nogo's generated main imports each package listed in its deps
		// and uses the package's variable Analyzer: the package must be
		// importable from outside the module's internal tree and declare it.
		pkg := analyzerPackage(a)
		rel, ok := strings.CutPrefix(pkg, modulePath+"/")
		if !ok || slices.Contains(strings.Split(rel, "/"), "internal") {
			t.Errorf("%s is defined in %s, which nogo cannot import", a.Name, pkg)
			continue
		}
		if !declaresAnalyzer(t, filepath.Join(repoRoot(t), filepath.FromSlash(rel))) {
			t.Errorf("%s: package %s declares no variable Analyzer (the nogo target //%s)", a.Name, pkg, rel)
		}

		// nogo's analyzer_flags set each flag by its bare name from a string.
		a.Flags.VisitAll(func(f *flag.Flag) {
			if strings.ContainsAny(f.Name, ".=") || strings.HasPrefix(f.Name, "-") {
				t.Errorf("%s: flag %q cannot be an analyzer_flags key", a.Name, f.Name)
			}
			if err := a.Flags.Set(f.Name, f.DefValue); err != nil || f.Value.String() != f.DefValue {
				t.Errorf("%s: flag %s does not accept its own default %q: %v", a.Name, f.Name, f.DefValue, err)
			}
		})
	}
}

// declaresAnalyzer reports whether the package in dir declares a
// package-level variable named Analyzer.
func declaresAnalyzer(t *testing.T, dir string) bool {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Errorf("no Go files in %s", dir)
		return false
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, decl := range f.Decls {
			if gen, ok := decl.(*ast.GenDecl); ok && gen.Tok == token.VAR {
				for _, spec := range gen.Specs {
					for _, id := range spec.(*ast.ValueSpec).Names {
						if id.Name == "Analyzer" {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// load copies testdata/src to a temporary GOPATH (so that edits to the tree
// while the tests run cannot change what the checks read) and loads the
// trees of every check that has one, testdata/src/<check>, in GOPATH mode
// with their dependencies from source, as analysistest does.
func load(t *testing.T) (pkgs []*packages.Package, gopath string) {
	t.Helper()
	gopath = t.TempDir()
	return loadInto(t, gopath), gopath
}

// loadInto is load into the GOPATH gopath.
func loadInto(t *testing.T, gopath string) []*packages.Package {
	t.Helper()
	src := filepath.Join(repoRoot(t), "testdata", "src")
	var patterns []string
	for _, a := range analyzers.All {
		if fi, err := os.Stat(filepath.Join(src, a.Name)); err == nil && fi.IsDir() {
			patterns = append(patterns, a.Name+"/...")
		}
	}
	if len(patterns) == 0 {
		t.Skip("no check has a testdata/src tree")
	}
	if err := os.CopyFS(filepath.Join(gopath, "src"), os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	pkgs := loadGOPATH(t, gopath, patterns...)
	if len(pkgs) == 0 {
		t.Fatalf("no packages match %v", patterns)
	}
	return pkgs
}

// shared is the testdata as load loads it, loaded once (it takes seconds)
// for the tests that only read it; TestMain removes its copy.
var shared struct {
	once   sync.Once
	pkgs   []*packages.Package
	gopath string
}

// sharedTestdata is load for a test that does not change the files.
func sharedTestdata(t *testing.T) (pkgs []*packages.Package, gopath string) {
	t.Helper()
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "queuecheck-testdata-")
		if err != nil {
			t.Fatal(err)
		}
		shared.gopath = dir
		shared.pkgs = loadInto(t, dir)
	})
	if shared.pkgs == nil {
		t.Fatal("loading the testdata failed in an earlier test")
	}
	return shared.pkgs, shared.gopath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.gopath != "" {
		os.RemoveAll(shared.gopath)
	}
	os.Exit(code)
}

// flagValues records the value of every flag of every check.
func flagValues() map[string]string {
	m := make(map[string]string)
	for _, a := range analyzers.All {
		a.Flags.VisitAll(func(f *flag.Flag) { m[a.Name+"."+f.Name] = f.Value.String() })
	}
	return m
}

// finding formats one diagnostic with its fixes, so that runs on packages
// loaded twice (with different token.Pos values) compare equal.
func finding(fset *token.FileSet, check, pkg string, d analysis.Diagnostic) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s: [%s] %s", check, pkg, fset.Position(d.Pos), d.Category, d.Message)
	for _, r := range d.Related {
		fmt.Fprintf(&b, "\n\trelated %s: %s", fset.Position(r.Pos), r.Message)
	}
	for _, fix := range d.SuggestedFixes {
		fmt.Fprintf(&b, "\n\tfix %q", fix.Message)
		// The checker sorts a fix's edits; drivers need not.
		edits := slices.SortedStableFunc(slices.Values(fix.TextEdits), func(x, y analysis.TextEdit) int {
			return cmp.Or(cmp.Compare(x.Pos, y.Pos), cmp.Compare(x.End, y.End))
		})
		for _, e := range edits {
			fmt.Fprintf(&b, "\n\t\t%s-%s %q", fset.Position(e.Pos), fset.Position(e.End), e.NewText)
		}
	}
	return b.String()
}

// analyze runs the suite on pkgs with x/tools' checker and returns its
// findings (and errors), sorted.
func analyze(pkgs []*packages.Package) ([]string, error) {
	graph, err := checker.Analyze(analyzers.All, pkgs, &checker.Options{SanityCheck: true})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, act := range graph.Roots {
		if act.Err != nil {
			out = append(out, fmt.Sprintf("%s %s: error: %v", act.Analyzer.Name, act.Package.ID, act.Err))
		}
		for _, d := range act.Diagnostics {
			out = append(out, finding(act.Package.Fset, act.Analyzer.Name, act.Package.ID, d))
		}
	}
	slices.Sort(out)
	return out, nil
}

func diff(a, b []string) string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, "- "+s)
		}
	}
	for _, s := range b {
		if !slices.Contains(a, s) {
			out = append(out, "+ "+s)
		}
	}
	return strings.Join(out, "\n")
}

// testNoHiddenState runs the whole suite on the checks' testdata
// repeatedly: twice in a row, three times concurrently, and one package at a
// time in reverse order. Any state a check kept from one pass to the next (a
// cache, a "reported" set, a counter, a table filled from another package)
// would change the findings of a later or an isolated run. Run it with -race
// to also catch state that the concurrent runs share unsynchronized.
func testNoHiddenState(t *testing.T, pkgs []*packages.Package) {
	before := flagValues()
	want, err := analyze(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("the suite found nothing in its testdata")
	}
	t.Logf("%d packages, %d findings", len(pkgs), len(want))

	check := func(what string, got []string, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", what, err)
		} else if !slices.Equal(got, want) {
			t.Errorf("%s: findings differ from the first run:\n%s", what, diff(want, got))
		}
	}

	got, err := analyze(pkgs)
	check("second run", got, err)

	var wg sync.WaitGroup
	results := make([][]string, 3)
	errs := make([]error, len(results))
	for i := range results {
		wg.Go(func() { results[i], errs[i] = analyze(pkgs) })
	}
	wg.Wait()
	for i := range results {
		check(fmt.Sprintf("concurrent run %d", i), results[i], errs[i])
	}

	// Each package alone (its test variant, which holds the same files and
	// more, aside), last first.
	var each []string
	var variants []*packages.Package
	for _, p := range slices.Backward(pkgs) {
		if strings.Contains(p.ID, " [") {
			variants = append(variants, p)
			continue
		}
		got, err := analyze([]*packages.Package{p})
		if err != nil {
			t.Fatal(err)
		}
		each = append(each, got...)
	}
	got, err = analyze(variants)
	if err != nil {
		t.Fatal(err)
	}
	each = append(each, got...)
	slices.Sort(each)
	check("one package at a time, in reverse order", each, nil)

	if after := flagValues(); !reflect.DeepEqual(before, after) {
		t.Errorf("running the suite changed flags: %v, then %v", before, after)
	}
}

// testNogo runs the suite the way rules_go's nogo does (its
// go/tools/builders/nogo_main.go, as of v0.62): one package at a time,
// dependencies first, in a fresh action graph per package that follows
// Requires; facts gob-encoded per package, keyed by object path, and read
// back by the packages that import it; no facts for the standard library
// (Bazel does not run nogo on it); flags set from the analyzer_flags of the
// nogo config in docs/scale-out.md; and a Pass holding only the fields nogo
// fills: no ReadFile, Module, TypeErrors, OtherFiles or IgnoredFiles (and
// before v0.61 no types.Info.FileVersions). The findings must be the
// checker's.
func testNogo(t *testing.T, pkgs []*packages.Package, gopath string) {
	want, err := analyze(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	roots := make(map[*packages.Package]bool)
	for _, p := range pkgs {
		roots[p] = true
	}

	// The documented config must be one nogo accepts: nogo sets each
	// analyzer_flags entry with Flags.Set and fails the build on an error.
	// The findings below are compared with the defaults, so put them back.
	cfg := nogoConfig(t)
	defaults := flagValues()
	for _, a := range analyzers.All {
		for name, value := range cfg[a.Name].AnalyzerFlags {
			if a.Flags.Lookup(name) == nil {
				t.Errorf("docs/scale-out.md: %s has no flag %q", a.Name, name)
			} else if err := a.Flags.Set(name, value); err != nil {
				t.Errorf("docs/scale-out.md: %s: analyzer_flags %s=%q: %v", a.Name, name, value, err)
			}
		}
	}
	for _, a := range analyzers.All {
		a.Flags.VisitAll(func(f *flag.Flag) {
			if err := a.Flags.Set(f.Name, defaults[a.Name+"."+f.Name]); err != nil {
				t.Errorf("resetting -%s.%s: %v", a.Name, f.Name, err)
			}
		})
	}
	if !reflect.DeepEqual(flagValues(), defaults) {
		t.Fatalf("the flags of the config in docs/scale-out.md cannot be reset (a list flag?); use scalar flags in the example")
	}

	// The workspace's packages are those of the GOPATH (Bazel runs nogo on
	// them, not on the standard library).
	inWorkspace := func(p *packages.Package) bool {
		return len(p.GoFiles) > 0 && strings.HasPrefix(p.GoFiles[0], gopath+string(filepath.Separator))
	}
	store := make(factStore)
	var got []string
	done := make(map[*packages.Package]bool)
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if done[p] {
			return
		}
		done[p] = true
		for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
			visit(p.Imports[path])
		}
		if !inWorkspace(p) {
			return
		}
		diags := nogoPackage(t, store, p)
		if roots[p] {
			got = append(got, diags...)
		}
	}
	for _, p := range pkgs {
		visit(p)
	}
	slices.Sort(got)

	// nogo leaves pass.ReadFile nil: every check reads source through
	// edits.FileContent, which falls back to the file system, so the
	// findings must be exactly the checker's.
	if !slices.Equal(got, want) {
		t.Errorf("under a nogo-like driver the findings differ from the checker's:\n%s", diff(want, got))
	}
}

// nogoConfigEntry is one analyzer's entry in a nogo config file.
type nogoConfigEntry struct {
	Description   string            `json:"description"`
	OnlyFiles     map[string]string `json:"only_files"`
	ExcludeFiles  map[string]string `json:"exclude_files"`
	AnalyzerFlags map[string]string `json:"analyzer_flags"`
}

// nogoConfig returns the nogo config JSON of docs/scale-out.md, checked as
// nogo checks it: every key an analyzer of the suite or "_base", every
// pattern a regular expression.
func nogoConfig(t *testing.T) map[string]nogoConfigEntry {
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "scale-out.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```json\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/scale-out.md has no ```json block with the nogo config")
	}
	dec := json.NewDecoder(bytes.NewReader(m[1]))
	dec.DisallowUnknownFields()
	var cfg map[string]nogoConfigEntry
	if err := dec.Decode(&cfg); err != nil {
		t.Fatalf("docs/scale-out.md: nogo config: %v", err)
	}
	for name, c := range cfg {
		if name != "_base" && !slices.ContainsFunc(analyzers.All, func(a *analysis.Analyzer) bool { return a.Name == name }) {
			t.Errorf("docs/scale-out.md: nogo config names %q, not a check of the suite", name)
		}
		for re := range c.OnlyFiles {
			_, err := regexp.Compile(re)
			if err != nil {
				t.Errorf("docs/scale-out.md: %s: %v", name, err)
			}
		}
		for re := range c.ExcludeFiles {
			if _, err := regexp.Compile(re); err != nil {
				t.Errorf("docs/scale-out.md: %s: %v", name, err)
			}
		}
	}
	return cfg
}

// A factStore holds the serialized facts of the packages analyzed so far,
// as the .facts files nogo writes: by package path, then object path ("" for
// a package fact), then fact type.
type factStore map[string]map[string]map[reflect.Type][]byte

// nogoPackage analyzes one package as nogo does and returns its findings.
func nogoPackage(t *testing.T, store factStore, p *packages.Package) []string {
	t.Helper()
	// nogo type-checks with these maps only.
	info := &types.Info{
		Types:        p.TypesInfo.Types,
		Uses:         p.TypesInfo.Uses,
		Defs:         p.TypesInfo.Defs,
		Implicits:    p.TypesInfo.Implicits,
		Scopes:       p.TypesInfo.Scopes,
		Selections:   p.TypesInfo.Selections,
		Instances:    p.TypesInfo.Instances,
		FileVersions: p.TypesInfo.FileVersions, // since v0.61
	}
	type objKey struct {
		obj types.Object
		typ reflect.Type
	}
	objectFacts := make(map[objKey]analysis.Fact)
	packageFacts := make(map[reflect.Type]analysis.Fact)
	decode := func(pkgPath, objPath string, ptr analysis.Fact) bool {
		data, ok := store[pkgPath][objPath][reflect.TypeOf(ptr)]
		if !ok {
			return false
		}
		if err := gob.NewDecoder(bytes.NewReader(data)).Decode(ptr); err != nil {
			t.Errorf("decoding a %T fact of %s: %v", ptr, pkgPath, err)
			return false
		}
		return true
	}

	type action struct {
		once   sync.Once
		result any
		err    error
		diags  []analysis.Diagnostic
	}
	actions := make(map[*analysis.Analyzer]*action)
	var run func(a *analysis.Analyzer) *action
	run = func(a *analysis.Analyzer) *action {
		act, ok := actions[a]
		if !ok {
			act = new(action)
			actions[a] = act
		}
		act.once.Do(func() {
			inputs := make(map[*analysis.Analyzer]any)
			for _, req := range a.Requires {
				dep := run(req)
				if dep.err != nil {
					act.err = fmt.Errorf("failed prerequisite %s: %v", req.Name, dep.err)
					return
				}
				inputs[req] = dep.result
			}
			pass := &analysis.Pass{
				Analyzer:   a,
				Fset:       p.Fset,
				Files:      p.Syntax,
				Pkg:        p.Types,
				TypesInfo:  info,
				TypesSizes: types.SizesFor("gc", runtime.GOARCH),
				ResultOf:   inputs,
				Report:     func(d analysis.Diagnostic) { act.diags = append(act.diags, d) },
				ImportObjectFact: func(obj types.Object, ptr analysis.Fact) bool {
					if obj.Pkg() == p.Types {
						if f, ok := objectFacts[objKey{obj, reflect.TypeOf(ptr)}]; ok {
							reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
							return true
						}
						return false
					}
					path, err := objectpath.For(obj)
					return err == nil && obj.Pkg() != nil && decode(obj.Pkg().Path(), string(path), ptr)
				},
				ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
					if obj.Pkg() != p.Types {
						panic(fmt.Sprintf("%s exports a fact of %s, outside package %s", a.Name, obj, p.Types.Path()))
					}
					objectFacts[objKey{obj, reflect.TypeOf(fact)}] = fact
				},
				ImportPackageFact: func(pkg *types.Package, ptr analysis.Fact) bool {
					if pkg == p.Types {
						if f, ok := packageFacts[reflect.TypeOf(ptr)]; ok {
							reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
							return true
						}
						return false
					}
					return decode(pkg.Path(), "", ptr)
				},
				ExportPackageFact: func(fact analysis.Fact) { packageFacts[reflect.TypeOf(fact)] = fact },
				AllObjectFacts: func() []analysis.ObjectFact {
					// nogo decodes the facts of every package this one
					// imports, directly or not (x/tools' facts.Set), and
					// adds those this package has exported so far.
					var out []analysis.ObjectFact
					for _, imp := range allImports(p.Types) {
						for objPath, byType := range store[imp.Path()] {
							if objPath == "" {
								continue
							}
							obj, err := objectpath.Object(imp, objectpath.Path(objPath))
							if err != nil {
								continue
							}
							for _, ft := range a.FactTypes {
								ptr := reflect.New(reflect.TypeOf(ft).Elem()).Interface().(analysis.Fact)
								if _, ok := byType[reflect.TypeOf(ptr)]; ok && decode(imp.Path(), objPath, ptr) {
									out = append(out, analysis.ObjectFact{Object: obj, Fact: ptr})
								}
							}
						}
					}
					for k, f := range objectFacts {
						if slices.ContainsFunc(a.FactTypes, func(ft analysis.Fact) bool { return reflect.TypeOf(ft) == k.typ }) {
							out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
						}
					}
					return out
				},
				AllPackageFacts: func() []analysis.PackageFact { return nil },
			}
			defer func() {
				if r := recover(); r != nil {
					// nogo v0.62 reports "panic: <value>"; add where.
					act.err = fmt.Errorf("panic: %v at %s", r, panicSite())
				}
			}()
			act.result, act.err = a.Run(pass)
		})
		return act
	}

	var out []string
	for _, a := range analyzers.All {
		act := run(a)
		if act.err != nil {
			out = append(out, fmt.Sprintf("%s %s: error: %v", a.Name, p.ID, act.err))
			continue
		}
		for _, d := range act.diags {
			out = append(out, finding(p.Fset, a.Name, p.ID, d))
		}
	}

	// Write this package's facts, as nogo's .facts output.
	if store[p.Types.Path()] == nil {
		store[p.Types.Path()] = make(map[string]map[reflect.Type][]byte)
	}
	put := func(objPath string, fact analysis.Fact) {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(fact); err != nil {
			t.Errorf("%s: a %T fact does not gob-encode: %v", p.ID, fact, err)
			return
		}
		m := store[p.Types.Path()]
		if m[objPath] == nil {
			m[objPath] = make(map[reflect.Type][]byte)
		}
		m[objPath][reflect.TypeOf(fact)] = buf.Bytes()
	}
	for k, fact := range objectFacts {
		if path, err := objectpath.For(k.obj); err == nil {
			put(string(path), fact)
		}
	}
	for _, fact := range packageFacts {
		put("", fact)
	}
	return out
}

// allImports returns the packages pkg imports, directly or not.
func allImports(pkg *types.Package) []*types.Package {
	seen := make(map[*types.Package]bool)
	var out []*types.Package
	var visit func(*types.Package)
	visit = func(p *types.Package) {
		for _, imp := range p.Imports() {
			if !seen[imp] {
				seen[imp] = true
				out = append(out, imp)
				visit(imp)
			}
		}
	}
	visit(pkg)
	return out
}

// panicSite returns the innermost frame of this module's non-test code on
// the stack of a recovered panic.
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, modulePath+"/") && !strings.HasSuffix(f.File, "_test.go") {
			return fmt.Sprintf("%s (%s:%d)", f.Function, filepath.Base(f.File), f.Line)
		}
		if !more {
			return "an unknown place"
		}
	}
}
