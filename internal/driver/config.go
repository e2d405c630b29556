package driver

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/queuecheck/queuecheck/internal/config"
)

// newSuite returns the configuration of the checks, with the command line's
// flags over the files'.
func newSuite(opts *options, cfg Config) *config.Suite {
	s := config.New(cfg.Analyzers)
	if opts.configFile != "" {
		s.UseFile(opts.configFile)
	}
	for name, text := range opts.overrides {
		s.Override(name, text)
	}
	return s
}

// configure reads the configuration of every package analyzed (the named
// ones and those analyzed for their facts) and returns the analyzers to run.
// When every package gets the same settings, which is the common case, the
// flags are set once and the checks that configuration turns off do not
// run; otherwise each check runs on each package with that package's
// settings (see config.Suite.Wrap).
func configure(opts *options, cfg Config, pkgs []*packages.Package) ([]*analysis.Analyzer, error) {
	s := newSuite(opts, cfg)
	var first *config.Effective
	uniform := true
	var errs []error
	seen := make(map[string]bool)
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if len(p.Syntax) == 0 {
			return
		}
		dir := config.DirOf(p.Fset, p.Syntax)
		if seen[dir] {
			return
		}
		seen[dir] = true
		e, err := s.ForDir(dir)
		if err != nil {
			if !slices.ContainsFunc(errs, func(x error) bool { return x.Error() == err.Error() }) {
				errs = append(errs, err)
			}
			return
		}
		if first == nil {
			first = e
		} else if !s.Same(first, e) {
			uniform = false
		}
	})
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if first == nil {
		return opts.analyzers, nil
	}
	if !uniform {
		return s.WrapAll(opts.analyzers), nil
	}
	if err := s.Apply(first); err != nil {
		return nil, err
	}
	var run []*analysis.Analyzer
	for _, a := range opts.analyzers {
		if first.Enabled[a.Name] {
			run = append(run, a)
		}
	}
	return run, nil
}

// explainConfig prints what the configuration of the working directory's
// package sets of a's: where a package's settings differ from the defaults,
// -explain says so.
func explainConfig(a *analysis.Analyzer, cfg Config) int {
	wd, err := os.Getwd()
	if err != nil {
		return ExitClean
	}
	e, err := config.New(cfg.Analyzers).ForDir(wd)
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "queuecheck: %v\n", err)
		return ExitFailure
	}
	var lines []string
	if !e.Enabled[a.Name] {
		lines = append(lines, fmt.Sprintf("  %s is off (checks, %s:%d)\n", a.Name, e.Checks.File, e.Checks.Line))
	}
	for _, name := range slices.Sorted(maps.Keys(e.Flags)) {
		if strings.HasPrefix(name, a.Name+".") {
			src := e.Flags[name]
			lines = append(lines, fmt.Sprintf("  -%s=%s (%s:%d)\n", name, src.Text, src.File, src.Line))
		}
	}
	if len(lines) > 0 {
		fmt.Fprintf(cfg.Stdout, "\nSet by %s for the package here (queuecheck -config-dump ./... shows every package's settings):\n%s", config.FileName, strings.Join(lines, ""))
	}
	return ExitClean
}

// dumpConfig prints the configuration of the packages the patterns name,
// once per distinct configuration.
func dumpConfig(opts *options, cfg Config) int {
	s := newSuite(opts, cfg)
	conf := &packages.Config{Mode: packages.NeedName | packages.NeedFiles}
	if opts.tags != "" {
		conf.BuildFlags = []string{"-tags=" + opts.tags}
	}
	pkgs, err := packages.Load(conf, opts.patterns...)
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "queuecheck: %v\n", err)
		return ExitFailure
	}
	type group struct {
		e    *config.Effective
		pkgs []string
	}
	var groups []*group
	rel := relativeToWD()
	for _, p := range pkgs {
		if len(p.GoFiles) == 0 {
			continue
		}
		e, err := s.ForDir(dirOfFiles(p.GoFiles))
		if err != nil {
			fmt.Fprintf(cfg.Stderr, "queuecheck: %v\n", err)
			return ExitFailure
		}
		i := slices.IndexFunc(groups, func(g *group) bool { return s.Same(g.e, e) && slices.Equal(g.e.Files, e.Files) })
		if i < 0 {
			groups = append(groups, &group{e: e})
			i = len(groups) - 1
		}
		groups[i].pkgs = append(groups[i].pkgs, p.PkgPath)
	}
	if len(groups) == 0 {
		fmt.Fprintf(cfg.Stderr, "queuecheck: %s matched no packages\n", strings.Join(opts.patterns, " "))
		return ExitFailure
	}
	for i, g := range groups {
		if i > 0 {
			fmt.Fprintln(cfg.Stdout)
		}
		s.Dump(cfg.Stdout, g.e, fmt.Sprintf("packages %s (%s)", strings.Join(g.pkgs, ", "), rel(g.e.Dir)))
	}
	return ExitClean
}

// dirOfFiles returns the directory most of files are in.
func dirOfFiles(files []string) string {
	count := make(map[string]int)
	best := ""
	for _, f := range files {
		d := filepath.Dir(f)
		count[d]++
		if best == "" || count[d] > count[best] {
			best = d
		}
	}
	return best
}
