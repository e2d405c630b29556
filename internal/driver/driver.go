// Package driver is queuecheck's standalone mode: it loads packages with
// go/packages, runs the suite with the x/tools checker, and turns the results
// into findings for the output formats, the baseline and the fix applier.
//
// The vet-tool mode (go vet -vettool) does not come through here: the binary
// hands those invocations to x/tools' unitchecker unchanged, so go vet's
// caching, facts and -fix work exactly as for any vet tool.
package driver

import (
	"errors"
	"flag"
	"fmt"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/internal/baseline"
	"github.com/queuecheck/queuecheck/internal/fix"
	"github.com/queuecheck/queuecheck/internal/gitdiff"
	"github.com/queuecheck/queuecheck/internal/output"
)

// Exit codes of the standalone mode.
const (
	ExitClean    = 0 // no findings
	ExitFindings = 1 // findings (not in the baseline)
	ExitFailure  = 2 // the tool could not do its job: bad flags, packages that do not load or type-check, a check that failed
)

// A Config is what Main needs besides the command line.
type Config struct {
	Analyzers      []*analysis.Analyzer
	Stdout, Stderr io.Writer
}

// options are the parsed command line.
type options struct {
	format        string
	json          bool
	fix, diff     bool
	list          bool
	explain       string
	version       bool
	tags          string
	deps          bool // load other modules' packages from source, for their facts
	baseline      string
	writeBaseline string
	// newFromRev and newFromMergeBase restrict the findings to changed lines.
	newFromRev, newFromMergeBase string
	timing                       bool
	configFile                   string
	configDump                   bool
	overrides                    map[string]string // analyzer flags set on the command line
	patterns                     []string
	analyzers                    []*analysis.Analyzer
}

// Main runs the standalone mode with the given arguments (without the program
// name) and returns the exit code.
func Main(args []string, cfg Config) int {
	opts, err := parseFlags(args, cfg)
	if errors.Is(err, flag.ErrHelp) {
		return ExitClean
	}
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "queuecheck: %v\nRun 'queuecheck -help' for usage.\n", err)
		return ExitFailure
	}
	switch {
	case opts.version:
		fmt.Fprintf(cfg.Stdout, "queuecheck version %s\n", Version())
		return ExitClean
	case opts.list:
		for _, a := range cfg.Analyzers {
			fmt.Fprintf(cfg.Stdout, "%-15s %s\n", a.Name, title(a))
		}
		return ExitClean
	case opts.explain != "":
		return explain(opts.explain, cfg)
	case opts.configDump:
		return dumpConfig(opts, cfg)
	}
	return run(opts, cfg)
}

// Version returns the module version queuecheck was built at, "(devel)" for
// a build from a checkout.
func Version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

func title(a *analysis.Analyzer) string {
	t, _, _ := strings.Cut(a.Doc, "\n")
	if _, rest, ok := strings.Cut(t, ": "); ok {
		return rest
	}
	return t
}

func explain(name string, cfg Config) int {
	for _, a := range cfg.Analyzers {
		if a.Name == name {
			fmt.Fprintf(cfg.Stdout, "%s\n\nDocumentation: %s\n", a.Doc, a.URL)
			if flags := analyzerFlags(a); flags != "" {
				fmt.Fprintf(cfg.Stdout, "\nFlags:\n%s", flags)
			}
			return explainConfig(a, cfg)
		}
	}
	fmt.Fprintf(cfg.Stderr, "queuecheck: unknown check %q; the checks are %s\n", name, names(cfg.Analyzers))
	return ExitFailure
}

func analyzerFlags(a *analysis.Analyzer) string {
	var b strings.Builder
	a.Flags.VisitAll(func(f *flag.Flag) {
		fmt.Fprintf(&b, "  -%s.%s=%s\n    \t%s\n", a.Name, f.Name, f.DefValue, f.Usage)
	})
	return b.String()
}

func names(as []*analysis.Analyzer) string {
	var ns []string
	for _, a := range as {
		ns = append(ns, a.Name)
	}
	return strings.Join(ns, ", ")
}

func run(opts *options, cfg Config) int {
	code := ExitClean
	fail := func(format string, args ...any) {
		fmt.Fprintf(cfg.Stderr, "queuecheck: "+format+"\n", args...)
		code = ExitFailure
	}

	l, err := load(opts)
	if err != nil {
		fail("%v", err)
		return code
	}
	broken := reportPackageErrors(l.pkgs, cfg.Stderr)
	if len(broken) > 0 {
		code = ExitFailure
	}

	run, err := configure(opts, cfg, l.pkgs)
	if err != nil {
		fail("%v", err)
		return code
	}
	// The checks the configuration turns off everywhere do not run: a
	// directive naming no check goes to the nearest check that does.
	analyzers.SetRunning(func() []*analysis.Analyzer { return run })
	pruneFactlessImports(l.pkgs)
	graph, err := checker.Analyze(run, l.pkgs, nil)
	if err != nil {
		fail("%v", err)
		return code
	}
	res := collect(graph, run, l.named, broken)
	for _, msg := range unresolvedNames(opts.analyzers, l.pkgs) {
		fmt.Fprintln(cfg.Stderr, msg)
	}
	for _, e := range res.Errors {
		fail("%s: %s: %s", e.Package, e.Check, e.Message)
	}
	if opts.timing {
		printTiming(graph, cfg.Stderr)
	}

	// Why-diagnostics are no findings: no baseline records or filters
	// them, no fix is theirs, and they do not set the exit status. They
	// are printed with the findings.
	var why []output.Finding
	res.Findings = slices.DeleteFunc(res.Findings, func(f output.Finding) bool {
		if analyzers.IsWhy(f.Category) {
			why = append(why, f)
			return true
		}
		return false
	})

	if opts.writeBaseline != "" {
		if err := baseline.FromFindings(res.Findings).WriteFile(opts.writeBaseline); err != nil {
			fail("writing baseline: %v", err)
			return code
		}
		fmt.Fprintf(cfg.Stderr, "queuecheck: recorded %d findings in %s\n", len(res.Findings), opts.writeBaseline)
		return code
	}
	if opts.baseline != "" {
		b, err := baseline.ReadFile(opts.baseline)
		if err != nil {
			fail("%v", err)
			return code
		}
		var known int
		res.Findings, known = b.Filter(res.Findings)
		if stale := b.Len() - known; stale > 0 {
			fmt.Fprintf(cfg.Stderr, "queuecheck: %d baseline entries no longer match a finding; rerun with -write-baseline %s to prune them\n", stale, opts.baseline)
		}
	}

	if opts.newFromRev != "" || opts.newFromMergeBase != "" {
		res.Findings, err = onChangedLines(opts, res.Findings)
		if err != nil {
			fail("%v", err)
			return code
		}
	}

	if opts.fix || opts.diff {
		remaining, err := applyFixes(opts, cfg, res.Findings)
		if err != nil {
			fail("%v", err)
			return code
		}
		if !opts.diff {
			res.Findings = remaining
		}
	}

	findings := len(res.Findings)
	if len(why) > 0 {
		res.Findings = append(res.Findings, why...)
		res.Sort()
	}
	format := output.Formats[opts.format]
	if err := format(cfg.Stdout, res, output.Options{Rel: relativeToWD(), Version: Version()}); err != nil {
		fail("writing output: %v", err)
	}
	if code == ExitClean && findings > 0 {
		code = ExitFindings
	}
	return code
}

// onChangedLines returns the findings that lie on lines changed since the
// revision -new-from-rev names (or the merge base -new-from-merge-base
// names): a finding counts when its own line, or the line of one of its
// related positions, changed. A hazard is often made by the other end (a
// pool's slow task added beside an old resolving one, a consumer slowed
// down), and the change that made it is what the gate is for.
func onChangedLines(opts *options, findings []output.Finding) ([]output.Finding, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	rev := opts.newFromRev
	if opts.newFromMergeBase != "" {
		if rev, err = gitdiff.MergeBase(wd, opts.newFromMergeBase); err != nil {
			return nil, err
		}
	}
	changed, err := gitdiff.Changed(wd, rev)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(findings, func(f output.Finding) bool {
		if changed.Has(f.Pos.Filename, f.Pos.Line) {
			return false
		}
		for _, r := range f.Related {
			if changed.Has(r.Pos.Filename, r.Pos.Line) {
				return false
			}
		}
		return true
	}), nil
}

// A funcTable is an analyzer flag that names functions (a calls.Table). The
// checks warn about entries that name nothing in the packages they analyze
// and import; after a run, the driver gives the table every package loaded,
// so it can also warn about entries whose package no package analyzed
// imports.
type funcTable interface {
	Unresolved(loaded func(path string) *types.Package) []string
}

// unresolvedNames returns the warnings of the function-naming flags of as
// about entries that name nothing in pkgs and what they import.
func unresolvedNames(as []*analysis.Analyzer, pkgs []*packages.Package) []string {
	byPath := make(map[string]*types.Package)
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if _, ok := byPath[p.Path()]; ok {
			return
		}
		byPath[p.Path()] = p
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	for _, p := range pkgs {
		if p.Types != nil {
			visit(p.Types)
		}
	}
	loaded := func(path string) *types.Package { return byPath[path] }
	var msgs []string
	for _, a := range as {
		a.Flags.VisitAll(func(f *flag.Flag) {
			if t, ok := f.Value.(funcTable); ok {
				msgs = append(msgs, t.Unresolved(loaded)...)
			}
		})
	}
	return msgs
}

// needFacts reports whether any analyzer, or one it requires, uses facts.
func needFacts(as []*analysis.Analyzer) bool {
	seen := make(map[*analysis.Analyzer]bool)
	var visit func([]*analysis.Analyzer) bool
	visit = func(as []*analysis.Analyzer) bool {
		for _, a := range as {
			if seen[a] {
				continue
			}
			seen[a] = true
			if len(a.FactTypes) > 0 || visit(a.Requires) {
				return true
			}
		}
		return false
	}
	return visit(as)
}

// reportPackageErrors prints every load, parse and type error, as the
// compiler words it, and returns the packages that have errors or depend on
// a package that has.
func reportPackageErrors(pkgs []*packages.Package, w io.Writer) map[*packages.Package]bool {
	rel := relativeToWD()
	broken := make(map[*packages.Package]bool)
	seen := make(map[string]bool)
	print := func(msg string) {
		if !seen[msg] {
			seen[msg] = true
			fmt.Fprintln(w, msg)
		}
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		// go list reports a compile error once more, as "# pkg" and the
		// compiler's output, when the type checker reports it too: print the
		// type checker's.
		checked := slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return e.Kind != packages.ListError })
		for _, e := range p.Errors {
			broken[p] = true
			if checked && e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
				continue
			}
			if e.Pos == "" || e.Pos == "-" {
				print(e.Msg)
			} else {
				print(rel(e.Pos) + ": " + e.Msg)
			}
		}
		if p.Module != nil && p.Module.Error != nil {
			broken[p] = true
			print(p.Module.Error.Err)
		}
	})
	if len(broken) == 0 {
		return broken // the common case: no walk of every root's dependencies
	}
	// A package is broken when a dependency is: visited after its imports,
	// each package reads its imports' answers.
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, d := range p.Imports {
			if broken[d] {
				broken[p] = true
			}
		}
	})
	return broken
}

// relativeToWD returns a function that shortens file names under the working
// directory to relative ones, as go vet prints them.
func relativeToWD() func(string) string {
	wd, err := os.Getwd()
	if err != nil {
		return func(name string) string { return name }
	}
	return func(name string) string {
		if !filepath.IsAbs(name) {
			return name
		}
		if rel, err := filepath.Rel(wd, name); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
		return name
	}
}

// applyFixes applies (or, with -diff, prints) the fixes of findings and
// returns the findings that no applied fix addresses.
func applyFixes(opts *options, cfg Config, findings []output.Finding) ([]output.Finding, error) {
	var fixes []*output.Fix
	var remaining []output.Finding
	for _, f := range findings {
		if f.Fix != nil {
			fixes = append(fixes, f.Fix)
		} else {
			remaining = append(remaining, f)
		}
	}
	res, err := fix.Apply(fixes)
	if err != nil {
		return nil, err
	}
	rel := relativeToWD()
	if opts.diff {
		for _, name := range res.Filenames() {
			c := res.Files[name]
			r := rel(name)
			io.WriteString(cfg.Stdout, fix.Unified("a/"+filepath.ToSlash(r), "b/"+filepath.ToSlash(r), c.Old, c.New))
		}
		return findings, nil
	}
	if err := res.Write(); err != nil {
		return nil, err
	}
	fmt.Fprintf(cfg.Stderr, "queuecheck: applied %d fixes to %d files", res.Applied, len(res.Files))
	if len(res.Skipped) > 0 {
		fmt.Fprintf(cfg.Stderr, "; %d fixes overlapped others and were left out: run queuecheck -fix again", len(res.Skipped))
		for _, f := range findings {
			if f.Fix != nil && slices.Contains(res.Skipped, f.Fix) {
				remaining = append(remaining, f) // its finding still stands
			}
		}
	}
	fmt.Fprintln(cfg.Stderr)
	return remaining, nil
}
