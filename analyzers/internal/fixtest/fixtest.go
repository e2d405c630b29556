// Package fixtest checks the suggested fixes of a queuecheck check beyond
// what analysistest's golden files can: that every finding carries at most one
// fix, that no two fixes in a file overlap, that no fix edits a generated
// file, and that applying them all leaves every file gofmt-clean and the
// package type-checking. A finding without a
// fix is allowed (its message says what to do by hand); the test log lists
// each one, so a fix that goes missing shows there as well as in the golden
// files.
//
// Every check's test calls [Run] on its testdata packages.
package fixtest

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"

	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
)

// Run runs a on the packages matching patterns under dir/src with
// analysistest.RunWithSuggestedFixes (so "// want" comments and .golden files
// are checked), then checks the fixes as the package comment describes.
func Run(t *testing.T, dir string, a *analysis.Analyzer, patterns ...string) []*analysistest.Result {
	t.Helper()
	if *update {
		return writeGolden(t, dir, a, patterns...)
	}
	results := analysistest.RunWithSuggestedFixes(t, dir, a, patterns...)
	for _, r := range results {
		if r.Action == nil || r.Action.Err != nil {
			continue
		}
		unfixed, err := CheckFixes(r.Action.Package, r.Action.Diagnostics)
		if err != nil {
			t.Errorf("%s: %v", r.Action.Package.PkgPath, err)
		}
		if len(unfixed) > 0 {
			t.Logf("%s: %d findings without a fix:\n\t%s", r.Action.Package.PkgPath, len(unfixed), strings.Join(unfixed, "\n\t"))
		}
	}
	return results
}

// update makes Run write the golden files instead of comparing with them:
// go test ./analyzers/CHECK -run TestX -fixtest.update, then review the diff.
var update = flag.Bool("fixtest.update", false, "write the .golden files from the fixes instead of comparing them")

// writeGolden runs a, checking "// want" comments, and writes for every
// file a fix edits the file with all fixes applied as its .golden file.
func writeGolden(t *testing.T, dir string, a *analysis.Analyzer, patterns ...string) []*analysistest.Result {
	t.Helper()
	results := analysistest.Run(t, dir, a, patterns...)
	for _, r := range results {
		if r.Action == nil || r.Action.Err != nil {
			continue
		}
		fset := r.Action.Package.Fset
		byFile := make(map[string][]analysis.TextEdit)
		for _, d := range r.Action.Diagnostics {
			for _, fix := range d.SuggestedFixes {
				for _, e := range fix.TextEdits {
					name := fset.File(e.Pos).Name()
					byFile[name] = append(byFile[name], e)
				}
			}
		}
		for name, es := range byFile {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Apply(fset.File(es[0].Pos), src, es)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := os.WriteFile(name+".golden", out, 0o666); err != nil {
				t.Fatal(err)
			}
		}
	}
	return results
}

// CheckFixes checks the fixes of diags, reported on pkg, and returns the
// findings that have none, as "file:line: message".
func CheckFixes(pkg *packages.Package, diags []analysis.Diagnostic) (unfixed []string, err error) {
	fset := pkg.Fset
	edits := make(map[string][]analysis.TextEdit) // by file name
	for _, d := range diags {
		switch len(d.SuggestedFixes) {
		case 0:
			p := fset.Position(d.Pos)
			unfixed = append(unfixed, fmt.Sprintf("%s:%d: %s", filepath.Base(p.Filename), p.Line, d.Message))
			continue
		case 1:
		default:
			// x/tools applies only the first; golangci-lint applies them
			// all at once and drops every fix of the file when they overlap.
			return unfixed, fmt.Errorf("%s: %d suggested fixes, want at most 1: %s", fset.Position(d.Pos), len(d.SuggestedFixes), d.Message)
		}
		fix := d.SuggestedFixes[0]
		if fix.Message == "" || len(fix.TextEdits) == 0 {
			return unfixed, fmt.Errorf("%s: empty fix for %q", fset.Position(d.Pos), d.Message)
		}
		for _, e := range fix.TextEdits {
			name := fset.File(e.Pos).Name()
			edits[name] = append(edits[name], e)
		}
	}
	fixed := make(map[string][]byte)
	for name, es := range edits {
		src, err := os.ReadFile(name)
		if err != nil {
			return unfixed, err
		}
		// A generated file is overwritten when it is generated again, and
		// says not to edit it: no fix may touch one.
		if f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.PackageClauseOnly|parser.ParseComments); err == nil && ast.IsGenerated(f) {
			return unfixed, fmt.Errorf("%s: a fix edits this generated file", name)
		}
		out, err := Apply(fset.File(es[0].Pos), src, es)
		if err != nil {
			return unfixed, fmt.Errorf("%s: %v", name, err)
		}
		formatted, err := format.Source(out)
		if err != nil {
			return unfixed, fmt.Errorf("%s: fixed file does not parse: %v\n%s", name, err, out)
		}
		if !bytes.Equal(formatted, out) && isFormatted(src) {
			return unfixed, fmt.Errorf("%s: fixed file is not gofmt-clean; gofmt gives\n%s\nfix gives\n%s", name, formatted, out)
		}
		fixed[name] = out
	}
	if len(fixed) == 0 {
		return unfixed, nil
	}
	return unfixed, typeCheck(pkg, fixed)
}

// Apply applies edits, all in file tf, to src: see edits.Apply.
func Apply(tf *token.File, src []byte, es []analysis.TextEdit) ([]byte, error) {
	return edits.Apply(tf, src, es)
}

// typeCheck type-checks pkg with the fixed contents of some of its files.
func typeCheck(pkg *packages.Package, fixed map[string][]byte) error {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range pkg.CompiledGoFiles {
		src, ok := fixed[name]
		if !ok {
			var err error
			if src, err = os.ReadFile(name); err != nil {
				return err
			}
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return fmt.Errorf("fixed package does not parse: %v", err)
		}
		files = append(files, f)
	}
	// Import what the package imported before, and a package a fix newly
	// imports from among its dependencies first, so types stay identical.
	deps := make(map[string]*types.Package)
	packages.Visit([]*packages.Package{pkg}, nil, func(p *packages.Package) {
		if p != pkg && p.Types != nil {
			deps[p.PkgPath] = p.Types
		}
	})
	fallback := importer.ForCompiler(fset, "source", nil)
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if imp, ok := pkg.Imports[path]; ok && imp.Types != nil {
				return imp.Types, nil
			}
			if p, ok := deps[path]; ok {
				return p, nil
			}
			return fallback.Import(path)
		}),
		GoVersion: pkg.TypesInfo.FileVersions[pkg.Syntax[0]],
	}
	var errs []string
	conf.Error = func(err error) { errs = append(errs, err.Error()) }
	_, _ = conf.Check(pkg.PkgPath, fset, files, nil) // errors are collected by conf.Error
	if len(errs) > 0 {
		var b strings.Builder
		for name, src := range fixed {
			fmt.Fprintf(&b, "\n-- %s --\n%s", name, src)
		}
		return fmt.Errorf("fixed package does not type-check:\n\t%s%s", strings.Join(errs, "\n\t"), b.String())
	}
	return nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// RunWithFlags is Run with some of a's flags set for the duration of the test.
// Tests that use it must not run in parallel with other tests of a.
func RunWithFlags(t *testing.T, dir string, a *analysis.Analyzer, flags map[string]string, patterns ...string) []*analysistest.Result {
	t.Helper()
	for name, value := range flags {
		f := a.Flags.Lookup(name)
		if f == nil {
			t.Fatalf("analyzer %s has no flag %q", a.Name, name)
		}
		old := f.Value.String()
		if err := f.Value.Set(value); err != nil {
			t.Fatalf("-%s.%s=%s: %v", a.Name, name, value, err)
		}
		t.Cleanup(func() {
			if err := f.Value.Set(old); err != nil {
				t.Errorf("restoring -%s.%s: %v", a.Name, name, err)
			}
		})
	}
	return Run(t, dir, a, patterns...)
}

// TestData returns the absolute path of the repository's testdata directory,
// whose src/<check>/... trees the checks' tests load in GOPATH mode.
func TestData() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("fixtest: cannot locate the source file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata")
}

func isFormatted(src []byte) bool {
	formatted, err := format.Source(src)
	return err == nil && bytes.Equal(formatted, src)
}
