package analyzers_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/spawn"
)

var kebab = regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)

// TestRulesRegistered checks that every rule of every check has a distinct
// (check, name), a kebab-case name and a one-line doc, and belongs to a
// check of the suite.
func TestRulesRegistered(t *testing.T) {
	seen := make(map[[2]string]bool)
	for _, r := range report.Rules() {
		key := [2]string{r.Check, r.Name}
		switch {
		case !slices.Contains(report.Checks, r.Check):
			t.Errorf("rule %s/%s: no such check", r.Check, r.Name)
		case !kebab.MatchString(r.Name):
			t.Errorf("rule %s/%s: name not kebab-case", r.Check, r.Name)
		case seen[key]:
			t.Errorf("rule %s/%s: registered twice", r.Check, r.Name)
		case r.Doc == "" || strings.Contains(r.Doc, "\n"):
			t.Errorf("rule %s/%s: doc empty or not one line", r.Check, r.Name)
		}
		seen[key] = true
	}
	for _, c := range report.Checks {
		if len(report.RulesOf(c)) < 2 {
			t.Errorf("check %s names fewer than two rules", c)
		}
	}
}

// TestRulesDocumentedPerCheck checks that each check's page lists its
// rules, with their docs, in tables under "## Why a candidate is not
// reported" (and, for unboundedqueue, "## Why a spawn is not reported",
// which lists the spawn kinds' rules).
func TestRulesDocumentedPerCheck(t *testing.T) {
	for _, c := range report.Checks {
		page, err := os.ReadFile(filepath.Join("..", "docs", "checks", c+".md"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, heading := range []string{"\n## Why a candidate is not reported\n", "\n## Why a spawn is not reported\n"} {
			_, section, ok := strings.Cut(string(page), heading)
			if !ok {
				continue
			}
			section, _, _ = strings.Cut(section, "\n## ")
			for line := range strings.SplitSeq(section, "\n") {
				if strings.HasPrefix(line, "| `") {
					got = append(got, line)
				}
			}
		}
		var want, section []string
		for _, r := range report.RulesOf(c) {
			row := "| `" + r.Name + "` | " + strings.ReplaceAll(r.Doc, "|", `\|`) + " |"
			want = append(want, row)
			if !slices.Contains(spawn.Rules, r) {
				section = append(section, row)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("docs/checks/%s.md: the rules tables are not the check's rules; the section \"Why a candidate is not reported\" should hold:\n| rule | not reported when |\n| --- | --- |\n%s", c, strings.Join(section, "\n"))
		}
	}
}

// TestWhyChangesNothing runs the suite over its testdata with -why all and
// without: besides the why-diagnostics, the findings and their fixes are
// the same.
func TestWhyChangesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the standard library from source")
	}
	pkgs, _ := load(t)
	plain, _, plainEdits := sweepRun(t, pkgs)
	for _, a := range analyzers.All {
		if err := a.Flags.Set(report.WhyFlagName, "all"); err != nil {
			t.Fatal(err)
		}
	}
	defer func() {
		for _, a := range analyzers.All {
			_ = a.Flags.Set(report.WhyFlagName, "")
		}
	}()
	all, _, whyEdits := sweepRun(t, pkgs)
	var findings []string
	var why int
	for _, f := range all {
		if strings.Contains(f, "/why: not reported: ") {
			why++
			continue
		}
		findings = append(findings, f)
	}
	if why == 0 {
		t.Error("-why all said nothing")
	}
	if !slices.Equal(findings, plain) {
		t.Errorf("-why changes the findings:\nwithout:\n%s\nwith:\n%s", strings.Join(plain, "\n"), strings.Join(findings, "\n"))
	}
	if len(plainEdits) != len(whyEdits) {
		t.Errorf("-why changes the fixes: %d files edited without, %d with", len(plainEdits), len(whyEdits))
	}
	for name, es := range plainEdits {
		if w := whyEdits[name]; w == nil || len(w.edits) != len(es.edits) {
			t.Errorf("%s: -why changes the fixes", name)
		}
	}
	t.Logf("%d findings, %d why-diagnostics", len(plain), why)
}
