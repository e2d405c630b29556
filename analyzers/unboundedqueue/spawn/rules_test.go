package spawn_test

import (
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/spawn"
)

var kebab = regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)

// TestRulesNamed checks that every rule has a distinct kebab-case name and a
// one-line doc.
func TestRulesNamed(t *testing.T) {
	seen := make(map[string]bool)
	for _, r := range spawn.Rules {
		if !kebab.MatchString(r.Name) {
			t.Errorf("rule %q: name not kebab-case", r.Name)
		}
		if seen[r.Name] {
			t.Errorf("rule %q: name used twice", r.Name)
		}
		seen[r.Name] = true
		if r.Doc == "" || strings.Contains(r.Doc, "\n") {
			t.Errorf("rule %q: doc empty or not one line", r.Name)
		}
	}
}

// unreached lists the rules no testdata case reaches yet; the test fails
// when one of them starts to be reached, so the list stays true.
// no-bounded-sibling: a listing is data-sized, so a fan-out over one with no
// bounded sibling is decided by the data-sized rule (datasize.go) instead.
var unreached = map[string]bool{"no-bounded-sibling": true}

// TestRulesReached runs the check over the testdata of unboundedqueue and
// checks that every rule silences at least one spawn there.
func TestRulesReached(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the check over all its testdata")
	}
	var mu sync.Mutex
	fired := make(map[string]int)
	defer report.SetTrace(func(r *report.Rule, _ token.Position) {
		mu.Lock()
		fired[r.Name]++
		mu.Unlock()
	})()
	dirs, err := filepath.Glob(filepath.Join(fixtest.TestData(), "src", "unboundedqueue", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, d := range dirs {
		if name := filepath.Base(d); name != "flags" { // want the flags TestFlags sets
			patterns = append(patterns, "unboundedqueue/"+name+"/...")
		}
	}
	analysistest.Run(t, fixtest.TestData(), unboundedqueue.Analyzer, patterns...)
	var names []string
	for _, r := range spawn.Rules {
		names = append(names, r.Name)
		switch {
		case fired[r.Name] == 0 && !unreached[r.Name]:
			t.Errorf("rule %s: no testdata case reaches it", r.Name)
		case fired[r.Name] > 0 && unreached[r.Name]:
			t.Errorf("rule %s: reached, but listed as unreached", r.Name)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%-20s %d", n, fired[n])
	}
}

// TestRulesDocumented checks that the check's page lists every rule, with
// its doc, in the order of Rules.
func TestRulesDocumented(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "checks", "unboundedqueue.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), "\n## Why a spawn is not reported\n")
	if !ok {
		t.Fatal(`docs/checks/unboundedqueue.md has no section "Why a spawn is not reported"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var want []string
	for _, r := range spawn.Rules {
		want = append(want, "| `"+r.Name+"` | "+strings.ReplaceAll(r.Doc, "|", `\|`)+" |")
	}
	var got []string
	for line := range strings.SplitSeq(section, "\n") {
		if strings.HasPrefix(line, "| `") {
			got = append(got, line)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the rules table of docs/checks/unboundedqueue.md is not spawn.Rules; want:\n%s", strings.Join(want, "\n"))
	}
}
