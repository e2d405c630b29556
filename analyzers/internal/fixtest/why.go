package fixtest

import (
	"fmt"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/queuecheck/queuecheck/analyzers/internal/report"
)

// RunWhy runs a with -CHECK.why=why on the packages matching patterns under
// dir/src, the ordinary testdata of the check: their "// want" comments
// hold as without -why, and the why-diagnostics are checked against the
// "// why:" comments of the same files instead, so that no package needs a
// copy whose "// want" comments expect them.
//
// A comment "// why: RULE, RULE" (perhaps followed by "; a note", and
// before any "// want" on the line) says that exactly these rules are said
// at its line. With why "all" every such line is checked but package
// clauses (the rules of a whole file or package are said only when asked
// about by FILE:LINE), and lines without one may say anything; with why
// FILE:LINE the line asked about must have a "// why:" comment, and nothing
// may be said elsewhere.
func RunWhy(t *testing.T, dir string, a *analysis.Analyzer, why string, patterns ...string) {
	t.Helper()
	f := a.Flags.Lookup(report.WhyFlagName)
	if f == nil {
		t.Fatalf("analyzer %s has no -%s flag", a.Name, report.WhyFlagName)
	}
	if err := f.Value.Set(why); err != nil {
		t.Fatalf("-%s.%s=%s: %v", a.Name, report.WhyFlagName, why, err)
	}
	defer func() {
		if err := f.Value.Set(""); err != nil {
			t.Errorf("restoring -%s.%s: %v", a.Name, report.WhyFlagName, err)
		}
	}()
	results := analysistest.Run(whyFilter{t}, dir, a, patterns...)

	said := make(map[whyLine][]string)   // the rules said, by line
	wanted := make(map[whyLine][]string) // the "// why:" comments, by line
	clauses := make(map[whyLine]bool)    // the lines of package clauses
	for _, r := range results {
		if r.Action == nil || r.Action.Err != nil {
			continue
		}
		pkg := r.Action.Package
		for _, d := range r.Action.Diagnostics {
			if !report.IsWhy(d.Category) {
				continue
			}
			name, _, _ := strings.Cut(strings.TrimPrefix(d.Message, report.WhyMessagePrefix), ":")
			at := lineOf(pkg.Fset.Position(d.Pos))
			said[at] = append(said[at], name)
		}
		for _, file := range pkg.Syntax {
			clauses[lineOf(pkg.Fset.Position(file.Package))] = true
			for _, cg := range file.Comments {
				for _, c := range cg.List {
					if names, ok := parseWhyComment(c.Text); ok {
						at := lineOf(pkg.Fset.Position(c.Pos()))
						wanted[at] = append(wanted[at], names...)
					}
				}
			}
		}
	}
	if len(wanted) == 0 {
		t.Errorf("no \"// why:\" comment in %s", strings.Join(patterns, " "))
	}
	askedFile, askedLine := "", 0
	if why != "all" {
		i := strings.LastIndexByte(why, ':')
		askedFile = filepath.ToSlash(filepath.Clean(why[:i]))
		askedLine, _ = strconv.Atoi(why[i+1:])
	}
	isAsked := func(at whyLine) bool {
		name := filepath.ToSlash(at.file)
		return askedFile == "" || at.line == askedLine && (name == askedFile || strings.HasSuffix(name, "/"+askedFile))
	}
	checked := 0
	for at, names := range wanted {
		if !isAsked(at) || askedFile == "" && clauses[at] {
			continue
		}
		checked++
		if got := sortedSet(said[at]); !slices.Equal(got, sortedSet(names)) {
			t.Errorf("%s: -why says %v, want %v", at, got, sortedSet(names))
		}
		delete(said, at)
	}
	if checked == 0 {
		t.Errorf("-why %s: no \"// why:\" comment at the line asked about", why)
	}
	if askedFile != "" {
		for at, names := range said {
			t.Errorf("%s: -why %s says %v, a line not asked about", at, why, names)
		}
	}
}

// A whyLine is a line of a file.
type whyLine struct {
	file string
	line int
}

func lineOf(p token.Position) whyLine { return whyLine{p.Filename, p.Line} }

func (l whyLine) String() string { return fmt.Sprintf("%s:%d", l.file, l.line) }

// whyComment matches a "// why:" comment: the rules said at its line,
// separated by commas, and then perhaps "; a note" or a "// want" comment.
var whyComment = regexp.MustCompile(`^//\s*why:\s*([a-z]+(?:-[a-z]+)*(?:\s*,\s*[a-z]+(?:-[a-z]+)*)*)\s*(?:(?:;|//).*)?$`)

// parseWhyComment returns the rules a "// why:" comment names.
func parseWhyComment(text string) ([]string, bool) {
	m := whyComment.FindStringSubmatch(text)
	if m == nil {
		return nil, false
	}
	var names []string
	for n := range strings.SplitSeq(m[1], ",") {
		names = append(names, strings.TrimSpace(n))
	}
	return names, true
}

func sortedSet(names []string) []string {
	out := slices.Clone(names)
	slices.Sort(out)
	return slices.Compact(out)
}

// whyFilter passes analysistest's complaints on to t, but for the
// why-diagnostics, which no "// want" comment expects: RunWhy checks those.
type whyFilter struct{ t *testing.T }

func (w whyFilter) Errorf(format string, args ...any) {
	w.t.Helper()
	msg := fmt.Sprintf(format, args...)
	if strings.Contains(msg, ": unexpected diagnostic: "+report.WhyMessagePrefix) ||
		strings.Contains(msg, `: diagnostic "`+report.WhyMessagePrefix) && strings.Contains(msg, `" does not match pattern `) {
		return // on a line with a "// want" for a finding
	}
	w.t.Errorf("%s", msg)
}
