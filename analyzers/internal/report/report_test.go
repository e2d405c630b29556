package report_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/queuecheck/queuecheck/analyzers/internal/report"
)

// src holds directives that name no known check, and one that names a check
// but silences nothing. The comment after each directive gives the check it
// misspells ("-" for none) and a substring of the message.
const src = `package p

//queuecheck:ignore chansiz a typo
var a = 1 // chansize; did you mean chansize?

//queuecheck:ignore waittime a typo
var b = 2 // waittiming; did you mean waittiming?

//queuecheck:ignore RetrySend the wrong case
var c = 3 // retrysend; did you mean retrysend?

//queuecheck:ignore everything no check is called that
var d = 4 // -; names unknown check everything; known checks are chansize, unboundedqueue, retrysend, resolverpool, waittiming

//queuecheck:ignore
var e = 5 // -; names no check; write //queuecheck:ignore CHECK reason

//queuecheck:ignore resolverpool nothing to silence
var f = 6 // resolverpool; silences nothing here
`

// A directive of src, with what its trailing comment expects.
type directive struct {
	line    int    // the directive's line
	named   string // the name it gives
	check   string // the check it names or misspells; "" for none
	message string
}

func parseSrc(t *testing.T) []directive {
	var ds []directive
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		rest, ok := strings.CutPrefix(l, "//queuecheck:ignore")
		if !ok {
			continue
		}
		_, want, _ := strings.Cut(lines[i+1], "// ")
		check, msg, ok := strings.Cut(want, "; ")
		if !ok {
			t.Fatalf("line %d: no expectation", i+2)
		}
		if check == "-" {
			check = ""
		}
		named, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
		ds = append(ds, directive{line: i + 1, named: named, check: check, message: msg})
	}
	return ds
}

// fake returns an analyzer named like a check that reports nothing but
// directives, through a Reporter, as every check does.
func fake(name string) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     name,
		Doc:      name + ": a stand-in",
		Requires: []*analysis.Analyzer{report.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			report.New(pass).Finish()
			return nil, nil
		},
	}
}

func load(t *testing.T) []*packages.Package {
	dir := t.TempDir()
	for name, content := range map[string]string{"go.mod": "module p\n\ngo 1.26\n", "p.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadSyntax, Dir: dir, Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=")}, ".")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading: %v %v", err, pkgs)
	}
	return pkgs
}

// reported is one directive report: by which check, with what.
type reported struct {
	check, category, url, message string
}

// run runs fakes of the checks named, declared as the running ones, and
// returns their directive reports by line.
func run(t *testing.T, pkgs []*packages.Package, checks []string) map[int][]reported {
	report.SetRunning(func() []string { return checks })
	defer report.SetRunning(nil)
	var as []*analysis.Analyzer
	for _, c := range checks {
		as = append(as, fake(c))
	}
	graph, err := checker.Analyze(as, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := make(map[int][]reported)
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatal(act.Err)
		}
		for _, d := range act.Diagnostics {
			line := act.Package.Fset.Position(d.Pos).Line
			got[line] = append(got[line], reported{act.Analyzer.Name, d.Category, d.URL, d.Message})
		}
	}
	return got
}

// Whichever checks run, a directive naming no check is reported exactly
// once, by a check that runs, and by the check it misspells when that one
// runs; the same set of checks always picks the same one, whatever order
// the driver lists them in. A directive naming a check is that check's
// alone.
func TestUnknownDirectiveReportedOnceByOneRunningCheck(t *testing.T) {
	pkgs := load(t)
	directives := parseSrc(t)
	n := len(report.Checks)
	for mask := 1; mask < 1<<n; mask++ {
		var checks []string
		for i, c := range report.Checks {
			if mask&(1<<i) != 0 {
				checks = append(checks, c)
			}
		}
		t.Run(strings.Join(checks, "+"), func(t *testing.T) {
			got := run(t, pkgs, checks)
			for _, d := range directives {
				rs := got[d.line]
				if d.check != "" && d.named == d.check {
					// It names a check: that check reports it, if it
					// runs, and no other.
					if slices.Contains(checks, d.check) && (len(rs) != 1 || rs[0].check != d.check) ||
						!slices.Contains(checks, d.check) && len(rs) != 0 {
						t.Errorf("line %d: reported by %v, want by %s alone, if it runs", d.line, rs, d.check)
					}
					continue
				}
				if len(rs) != 1 {
					t.Errorf("line %d: %d reports %v, want exactly 1", d.line, len(rs), rs)
					continue
				}
				r := rs[0]
				if !slices.Contains(checks, r.check) {
					t.Errorf("line %d: reported by %s, which does not run", d.line, r.check)
				}
				if slices.Contains(checks, d.check) && r.check != d.check {
					t.Errorf("line %d: reported by %s, want %s, the check it misspells", d.line, r.check, d.check)
				}
				if r.category != r.check+"/directive" || r.url != report.URL(r.check)+"#suppressing-a-finding" {
					t.Errorf("line %d: category %q, URL %q: want the reporting check's", d.line, r.category, r.url)
				}
				if !strings.Contains(r.message, d.message) {
					t.Errorf("line %d: message %q does not contain %q", d.line, r.message, d.message)
				}
			}
			reversed := slices.Clone(checks)
			slices.Reverse(reversed)
			if again := run(t, pkgs, reversed); fmt.Sprint(again) != fmt.Sprint(got) {
				t.Errorf("with the checks listed in reverse, the reports differ:\n%v\n%v", got, again)
			}
		})
	}
}
