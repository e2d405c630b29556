package driver

import (
	"cmp"
	"fmt"
	"go/token"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/queuecheck/queuecheck/internal/output"
)

// collect turns the root actions of graph on the packages the user named into
// a Result. Packages in broken had their errors printed already; the
// checker's "analysis skipped" errors for them say nothing new.
func collect(graph *checker.Graph, analyzers []*analysis.Analyzer, named, broken map[*packages.Package]bool) *output.Result {
	res := new(output.Result)
	for _, a := range analyzers {
		res.Checks = append(res.Checks, output.Check{Name: a.Name, Doc: a.Doc, URL: a.URL})
	}
	src := newSourceCache()
	for _, act := range graph.Roots {
		if !named[act.Package] {
			continue // loaded only for its facts
		}
		if act.Err != nil {
			if !broken[act.Package] {
				res.Errors = append(res.Errors, output.Error{Package: act.Package.ID, Check: act.Analyzer.Name, Message: act.Err.Error()})
			}
			continue
		}
		for _, d := range act.Diagnostics {
			res.Findings = append(res.Findings, finding(act, d, src))
		}
	}
	res.Sort()
	res.Findings = slices.CompactFunc(res.Findings, func(a, b output.Finding) bool {
		return a.Pos == b.Pos && a.Category == b.Category && a.Message == b.Message
	})
	assignKeys(res.Findings, src)
	return res
}

func finding(act *checker.Action, d analysis.Diagnostic, src *sourceCache) output.Finding {
	fset := act.Package.Fset
	f := output.Finding{
		Package:  act.Package.ID,
		Check:    act.Analyzer.Name,
		Category: cmp.Or(d.Category, act.Analyzer.Name),
		URL:      cmp.Or(d.URL, act.Analyzer.URL),
		Message:  d.Message,
		Pos:      fset.Position(d.Pos),
		End:      fset.Position(cmp.Or(d.End, d.Pos)),
	}
	for _, r := range d.Related {
		f.Related = append(f.Related, output.Related{Pos: fset.Position(r.Pos), End: fset.Position(cmp.Or(r.End, r.Pos)), Message: r.Message})
	}
	// go vet -fix applies only a diagnostic's first fix, and every queuecheck
	// finding carries exactly one.
	if len(d.SuggestedFixes) > 0 {
		sf := d.SuggestedFixes[0]
		fx := &output.Fix{Message: sf.Message}
		for _, e := range sf.TextEdits {
			end := cmp.Or(e.End, e.Pos)
			start, stop := fset.Position(e.Pos), fset.Position(end)
			fx.Edits = append(fx.Edits, output.Edit{
				Filename: start.Filename, Start: start.Offset, End: stop.Offset, New: string(e.NewText),
				StartPos: start, EndPos: stop,
			})
		}
		f.Fix = fx
	}
	return f
}

// assignKeys gives each finding a key that survives edits elsewhere in its
// file: the category, the file (relative to the working directory), the
// flagged source text with its blanks collapsed, and the finding's rank among
// findings with the same text in that file.
func assignKeys(findings []output.Finding, src *sourceCache) {
	rel := relativeToWD()
	seen := make(map[string]int)
	for i := range findings {
		f := &findings[i]
		name := f.Pos.Filename
		if rel != nil {
			name = rel(name)
		}
		base := strings.Join([]string{f.Category, strings.ReplaceAll(name, "\\", "/"), src.text(f.Pos, f.End)}, "\x00")
		f.Key = fmt.Sprintf("%s\x00%d", base, seen[base])
		seen[base]++
	}
}

// sourceCache reads each file once.
type sourceCache struct{ files map[string][]byte }

func newSourceCache() *sourceCache { return &sourceCache{files: make(map[string][]byte)} }

// text returns the source lines from pos to end, each trimmed, joined by
// single spaces: what the finding flags, independent of where it sits.
func (c *sourceCache) text(pos, end token.Position) string {
	data, ok := c.files[pos.Filename]
	if !ok {
		data, _ = os.ReadFile(pos.Filename)
		c.files[pos.Filename] = data
	}
	lines := strings.Split(string(data), "\n")
	from, to := pos.Line-1, max(end.Line, pos.Line)-1
	if from < 0 || to >= len(lines) {
		return ""
	}
	return strings.Join(strings.Fields(strings.Join(lines[from:to+1], " ")), " ")
}

// printTiming prints, per check, the time its actions took summed over all
// packages, and each check's share of the total.
func printTiming(graph *checker.Graph, w io.Writer) {
	byCheck := make(map[string]time.Duration)
	var total time.Duration
	for act := range graph.All() {
		byCheck[act.Analyzer.Name] += act.Duration
		total += act.Duration
	}
	var names []string
	for n := range byCheck {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(byCheck[b], byCheck[a]) })
	for _, n := range names {
		fmt.Fprintf(w, "%-22s %10s %5.1f%%\n", n, byCheck[n].Round(time.Microsecond), 100*float64(byCheck[n])/float64(max(total, 1)))
	}
}
