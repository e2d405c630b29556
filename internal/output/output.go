// Package output renders queuecheck's findings for people and machines.
//
// The driver turns analysis results into a [Result] once; every format reads
// only that, so adding a format (or filtering through a baseline) never
// touches the analyzers.
package output

import (
	"fmt"
	"go/token"
	"io"
	"slices"
	"strings"
)

// A Finding is one diagnostic of one check, with positions resolved.
type Finding struct {
	Package  string // the package ID
	Check    string // the analyzer's name, e.g. "chansize"
	Category string // "check/kind", e.g. "unboundedqueue/slicefifo"
	URL      string
	Message  string
	Pos, End token.Position
	Related  []Related
	Fix      *Fix // nil when the finding has no suggested fix

	// Key identifies the finding independently of its line, for baselines and
	// SARIF fingerprints: the check, the file and the text of the flagged code.
	Key string
}

// IsWhy reports whether f is no finding but a why-diagnostic (category
// CHECK/why): the named rule that kept a candidate quiet, printed because
// -why asked. The formats show it as a note, not a warning or an error.
func (f Finding) IsWhy() bool { return strings.HasSuffix(f.Category, "/why") }

// Related is a secondary position of a finding.
type Related struct {
	Pos, End token.Position
	Message  string
}

// A Fix is a finding's suggested fix.
type Fix struct {
	Message string
	Edits   []Edit
}

// An Edit replaces the bytes [Start, End) of a file with New.
type Edit struct {
	Filename   string
	Start, End int // byte offsets
	New        string
	StartPos   token.Position
	EndPos     token.Position
}

// An Error is a failure to analyze a package: it did not load or type-check,
// or a check failed on it.
type Error struct {
	Package string
	Check   string // "" for load and type errors
	Message string
}

// A Result is everything one run produced.
type Result struct {
	Findings []Finding
	Errors   []Error
	// Checks are the names and documentation of the checks that ran, for
	// formats that describe their rules (SARIF).
	Checks []Check
}

// A Check describes one analyzer for formats that list rules.
type Check struct {
	Name string
	Doc  string
	URL  string
}

// Sort orders findings by file, line and column, then check.
func (r *Result) Sort() {
	slices.SortStableFunc(r.Findings, func(a, b Finding) int {
		if c := strings.Compare(a.Pos.Filename, b.Pos.Filename); c != 0 {
			return c
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		if a.Pos.Column != b.Pos.Column {
			return a.Pos.Column - b.Pos.Column
		}
		return strings.Compare(a.Category, b.Category)
	})
}

// Options adjust how findings are printed.
type Options struct {
	// Rel turns an absolute file name into the one to print (for example
	// relative to the working directory or the repository root).
	Rel func(filename string) string
	// Version is queuecheck's version, for formats that record the tool.
	Version string
}

func (o Options) rel(filename string) string {
	if o.Rel == nil {
		return filename
	}
	return o.Rel(filename)
}

// A Formatter writes a Result in one format.
type Formatter func(w io.Writer, r *Result, opts Options) error

// Formats maps each -format value to its Formatter.
var Formats = map[string]Formatter{
	"text":   Text,
	"json":   JSON,
	"github": GitHub,
	"sarif":  SARIF,
}

// FormatNames lists the -format values in the order the help shows them.
var FormatNames = []string{"text", "json", "sarif", "github"}

// Text writes one "file:line:col: message" line per finding, followed by
// indented related positions.
func Text(w io.Writer, r *Result, opts Options) error {
	for _, f := range r.Findings {
		if _, err := fmt.Fprintf(w, "%s: %s\n", position(f.Pos, opts), f.Message); err != nil {
			return err
		}
		for _, rel := range f.Related {
			if _, err := fmt.Fprintf(w, "\t%s: %s\n", position(rel.Pos, opts), rel.Message); err != nil {
				return err
			}
		}
	}
	return nil
}

func position(p token.Position, opts Options) string {
	p.Filename = opts.rel(p.Filename)
	return p.String()
}
