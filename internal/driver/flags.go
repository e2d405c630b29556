package driver

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/internal/config"
	"github.com/queuecheck/queuecheck/internal/output"
)

// parseFlags parses the standalone command line. Per-check flags are named
// exactly as x/tools' multichecker names them, so one command line works in
// both modes: -CHECK enables a check (or, =false, disables it), and
// -CHECK.FLAG sets one of its analyzer flags.
func parseFlags(args []string, cfg Config) (*options, error) {
	opts := &options{format: "text"}
	fs := flag.NewFlagSet("queuecheck", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are printed once, by Main

	enabled := make(map[*analysis.Analyzer]*triState)
	for _, a := range cfg.Analyzers {
		enabled[a] = new(triState)
		fs.Var(enabled[a], a.Name, fmt.Sprintf("enable the %s check (with =false, disable it)", a.Name))
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	fs.StringVar(&opts.format, "format", opts.format, "output format: "+strings.Join(output.FormatNames, ", "))
	fs.BoolVar(&opts.json, "json", false, "emit JSON output, as go vet -json does (same as -format=json)")
	fs.BoolVar(&opts.fix, "fix", false, "apply the suggested fixes")
	fs.BoolVar(&opts.diff, "diff", false, "print the suggested fixes as a unified diff instead of applying them")
	fs.BoolVar(&opts.list, "list", false, "list the checks and exit")
	fs.StringVar(&opts.explain, "explain", "", "print the documentation of `check` and exit")
	fs.BoolVar(&opts.version, "V", false, "print the version and exit")
	fs.BoolVar(&opts.version, "version", false, "print the version and exit")
	fs.StringVar(&opts.tags, "tags", "", "a comma-separated list of build tags to consider satisfied")
	fs.BoolVar(&opts.deps, "deps", false, "also analyze, for their facts, the packages of other modules that the packages named depend on (go vet -vettool always does): a call into a library that waits or retries is then followed, at the price of type-checking those packages from source")
	fs.StringVar(&opts.baseline, "baseline", "", "report only findings not recorded in this baseline `file`")
	fs.StringVar(&opts.writeBaseline, "write-baseline", "", "record the current findings in this baseline `file` and exit")
	fs.StringVar(&opts.newFromRev, "new-from-rev", "", "report only findings on lines changed since git `revision` REV (committed or not), or whose related positions lie on such lines")
	fs.StringVar(&opts.newFromMergeBase, "new-from-merge-base", "", "report only findings on lines changed since the merge base of HEAD and `branch`, as -new-from-rev")
	fs.Var(analyzers.WhyFlag(cfg.Analyzers), "why", "`FILE:LINE` (FILE a path suffix) or all: also report, as CHECK/why diagnostics that are no findings, the named rule that kept each candidate there from being a finding")
	fs.StringVar(&opts.configFile, "config", "", "read the configuration from `file` alone, instead of the "+config.FileName+" files between each package's directory and its module's root")
	fs.BoolVar(&opts.configDump, "config-dump", false, "print the configuration each package gets (the "+config.FileName+" files merged, with the command line's flags) and exit")
	fs.BoolVar(&opts.timing, "timing", false, "print the time each check took, summed over packages, to standard error")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			usage(fs, cfg.Stderr)
		}
		return nil, err
	}
	if opts.json {
		opts.format = "json"
	}
	opts.overrides = commandLineFlags(fs, cfg.Analyzers)
	if _, ok := output.Formats[opts.format]; !ok {
		return nil, fmt.Errorf("unknown -format %q; the formats are %s", opts.format, strings.Join(output.FormatNames, ", "))
	}
	if opts.fix && opts.diff {
		opts.fix = false // -fix -diff means "show, don't write", as in go vet
	}
	if opts.baseline != "" && opts.writeBaseline != "" {
		return nil, fmt.Errorf("-baseline and -write-baseline exclude each other")
	}
	if opts.newFromRev != "" && opts.newFromMergeBase != "" {
		return nil, fmt.Errorf("-new-from-rev and -new-from-merge-base exclude each other")
	}
	if opts.writeBaseline != "" && (opts.newFromRev != "" || opts.newFromMergeBase != "") {
		return nil, fmt.Errorf("-write-baseline records every finding; it does not combine with -new-from-rev or -new-from-merge-base")
	}
	opts.patterns = fs.Args()
	if len(opts.patterns) == 0 {
		opts.patterns = []string{"./..."}
	}
	opts.analyzers = selectAnalyzers(cfg.Analyzers, enabled)
	if len(opts.analyzers) == 0 && !opts.list && !opts.version && opts.explain == "" {
		return nil, fmt.Errorf("every check is disabled")
	}
	return opts, nil
}

// commandLineFlags returns the analyzer flags the command line set,
// "CHECK.FLAG" to the text: they override the configuration files. -why
// sets every check's why flag.
func commandLineFlags(fs *flag.FlagSet, as []*analysis.Analyzer) map[string]string {
	set := make(map[string]string)
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "why" {
			for _, a := range as {
				if wf := a.Flags.Lookup("why"); wf != nil {
					set[a.Name+".why"] = wf.Value.String()
				}
			}
			return
		}
		if check, name, ok := strings.Cut(f.Name, "."); ok {
			for _, a := range as {
				if a.Name == check && a.Flags.Lookup(name) != nil {
					set[f.Name] = f.Value.String()
				}
			}
		}
	})
	return set
}

// selectAnalyzers applies the enable flags as multichecker does: if any
// -CHECK flag is true, run only those; otherwise run all but those set false.
func selectAnalyzers(all []*analysis.Analyzer, enabled map[*analysis.Analyzer]*triState) []*analysis.Analyzer {
	var hasTrue bool
	for _, a := range all {
		if *enabled[a] == setTrue {
			hasTrue = true
		}
	}
	var keep []*analysis.Analyzer
	for _, a := range all {
		if hasTrue && *enabled[a] == setTrue || !hasTrue && *enabled[a] != setFalse {
			keep = append(keep, a)
		}
	}
	return keep
}

// VetSelection returns the checks of all that unitchecker runs, given the
// flag set it parsed the command line into: it registers a boolean flag per
// check, named after it, and selects by the rule of selectAnalyzers. Only
// which of those flags were set, and to what, counts.
func VetSelection(fs *flag.FlagSet, all []*analysis.Analyzer) []*analysis.Analyzer {
	enabled := make(map[*analysis.Analyzer]*triState)
	for _, a := range all {
		enabled[a] = new(triState)
	}
	fs.Visit(func(f *flag.Flag) {
		for _, a := range all {
			if a.Name == f.Name {
				_ = enabled[a].Set(f.Value.String()) // unitchecker parsed it: a boolean
			}
		}
	})
	return selectAnalyzers(all, enabled)
}

func usage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprint(w, `queuecheck finds unbounded queues, retry loops that bypass a bound, slow work
sharing a pool with DNS resolution, and timings that hide queue wait.

Usage:
  queuecheck [flags] [packages]          (default ./...)
  go vet -vettool=$(which queuecheck) [flags] [packages]

Exit status: 0 no findings, 1 findings, 2 the tool could not do its job
(bad flags, packages that do not load or type-check).

Flags:
`)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// triState is a boolean flag that remembers whether it was set.
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (ts *triState) Get() any { return *ts == setTrue }

func (ts *triState) Set(value string) error {
	b, err := strconv.ParseBool(value)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	if b {
		*ts = setTrue
	} else {
		*ts = setFalse
	}
	return nil
}

func (ts *triState) String() string {
	switch *ts {
	case setTrue:
		return "true"
	case setFalse:
		return "false"
	}
	return "unset"
}

func (ts triState) IsBoolFlag() bool { return true }
