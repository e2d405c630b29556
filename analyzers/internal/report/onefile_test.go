package report_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/queuecheck/queuecheck/analyzers/internal/report"
)

// With one-file fixes declared (golangci-lint), a fix that also edits
// another file is left out and its finding kept; a fix within the finding's
// file stays. Without the declaration both stay.
func TestOneFileFixes(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"go.mod": "module p\n\ngo 1.26\n",
		"a.go":   "package p\n\nvar a = 1\n",
		"b.go":   "package p\n\nvar b = 2\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadSyntax, Dir: dir, Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=")}, ".")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading: %v %v", err, pkgs)
	}
	a := &analysis.Analyzer{
		Name:     "chansize",
		Doc:      "chansize: a stand-in",
		Requires: []*analysis.Analyzer{report.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			rep := report.New(pass)
			defer rep.Finish()
			at := func(name string) analysis.TextEdit {
				for _, f := range pass.Files {
					if filepath.Base(pass.Fset.File(f.Pos()).Name()) == name {
						return analysis.TextEdit{Pos: f.Name.End(), End: f.Name.End(), NewText: []byte("\n")}
					}
				}
				t.Fatalf("no file %s", name)
				return analysis.TextEdit{}
			}
			own := at("a.go")
			rep.Report(analysis.Diagnostic{Pos: own.Pos, Message: "one file", SuggestedFixes: []analysis.SuggestedFix{{Message: "fix", TextEdits: []analysis.TextEdit{own}}}})
			rep.Report(analysis.Diagnostic{Pos: own.Pos, Message: "two files", SuggestedFixes: []analysis.SuggestedFix{{Message: "fix", TextEdits: []analysis.TextEdit{own, at("b.go")}}}})
			return nil, nil
		},
	}
	for _, on := range []bool{false, true} {
		report.SetOneFileFixes(on)
		graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
		report.SetOneFileFixes(false)
		if err != nil {
			t.Fatal(err)
		}
		fixes := make(map[string]int)
		for _, act := range graph.Roots {
			for _, d := range act.Diagnostics {
				fixes[d.Message] = len(d.SuggestedFixes)
			}
		}
		want := map[string]int{"one file": 1, "two files": 1}
		if on {
			want["two files"] = 0
		}
		if fixes["one file"] != want["one file"] || fixes["two files"] != want["two files"] {
			t.Errorf("one-file fixes %v: fixes per finding %v, want %v", on, fixes, want)
		}
	}
}
