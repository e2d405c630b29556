package analyzers_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/tools/go/analysis/checker"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
)

// Every diagnostic links to its kind's section of the check's docs page,
// docs/checks/<check>.md#<kind>, and a directive finding to the page's
// "Suppressing a finding". TestDocsHaveEveryKindsSection checks that those
// sections exist for every kind the checks report on their testdata: the
// testdata is where every kind is exercised, so a kind added with its tests
// but without its section fails here.
func TestDocsHaveEveryKindsSection(t *testing.T) {
	pkgs, _ := sharedTestdata(t)
	graph, err := checker.Analyze(analyzers.All, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	urls := make(map[string]map[string]bool) // by check: the URLs reported
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatalf("%s on %s: %v", act.Analyzer.Name, act.Package.ID, act.Err)
		}
		for _, d := range act.Diagnostics {
			check := act.Analyzer.Name
			kind, ok := strings.CutPrefix(d.Category, check+"/")
			if !ok {
				t.Errorf("%s: category %q does not start with %q", act.Package.Fset.Position(d.Pos), d.Category, check+"/")
				continue
			}
			want := report.URL(check) + "#" + kind
			if kind == "directive" {
				want = report.URL(check) + "#suppressing-a-finding"
			}
			if d.URL != want {
				t.Errorf("%s: %s: URL %q, want %q", act.Package.Fset.Position(d.Pos), d.Category, d.URL, want)
			}
			if urls[check] == nil {
				urls[check] = make(map[string]bool)
			}
			urls[check][d.URL] = true
		}
	}

	for _, a := range analyzers.All {
		page := filepath.Join(repoRoot(t), "docs", "checks", a.Name+".md")
		anchors, err := headingAnchors(page)
		if err != nil {
			t.Error(err)
			continue
		}
		// A directive finding has no kind of its own, and a check's
		// testdata need not hold one: its section is required anyway.
		linked := map[string]bool{report.URL(a.Name) + "#suppressing-a-finding": true}
		for url := range urls[a.Name] {
			linked[url] = true
		}
		kinds := 0
		for url := range linked {
			anchor := strings.TrimPrefix(url, report.URL(a.Name)+"#")
			if anchor != "suppressing-a-finding" {
				kinds++
			}
			if !slices.Contains(anchors, anchor) {
				t.Errorf("docs/checks/%s.md has no heading with the anchor #%s, which %s's findings link to", a.Name, anchor, a.Name)
			}
		}
		if kinds == 0 {
			t.Errorf("%s reported nothing on its testdata: no kind's section could be checked", a.Name)
		}
	}
}

// headingAnchors returns the anchors GitHub gives the headings of the
// Markdown file: the heading's text in lower case, spaces turned into
// hyphens, and everything but letters, digits, hyphens and underscores
// dropped; a repeated anchor gets "-1", "-2", ... Lines in fenced code
// blocks are not headings.
func headingAnchors(file string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var anchors []string
	seen := make(map[string]int)
	fenced := false
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		text, ok := headingText(line)
		if fenced || !ok {
			continue
		}
		anchor := githubAnchor(text)
		if n := seen[anchor]; n > 0 {
			anchors = append(anchors, fmt.Sprintf("%s-%d", anchor, n))
		} else {
			anchors = append(anchors, anchor)
		}
		seen[anchor]++
	}
	return anchors, nil
}

// headingText returns the text of an ATX heading ("## Text").
func headingText(line string) (string, bool) {
	hashes := len(line) - len(strings.TrimLeft(line, "#"))
	if hashes == 0 || hashes > 6 || len(line) == hashes || line[hashes] != ' ' {
		return "", false
	}
	return strings.TrimSpace(line[hashes:]), true
}

func githubAnchor(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestGitHubAnchor(t *testing.T) {
	for text, want := range map[string]string{
		"Suppressing a finding":                      "suppressing-a-finding",
		"memory":                                     "memory",
		"chansize — oversized channel buffers":       "chansize--oversized-channel-buffers",
		"Silencing a finding: `//nolint:<check>` or": "silencing-a-finding-nolintcheck-or",
		"What counts as resolving and as slow work":  "what-counts-as-resolving-and-as-slow-work",
	} {
		if got := githubAnchor(text); got != want {
			t.Errorf("githubAnchor(%q) = %q, want %q", text, got, want)
		}
	}
}
