// Command corpus measures queuecheck on real services: it runs the suite on
// checkouts of the services listed in docs/corpus/services.tsv, at their
// pinned commits and with their real dependencies, matches every finding
// with the verdicts in docs/corpus/judged.tsv, and prints per check and
// overall the findings, the judged true, debatable and false ones, the
// unjudged ones (listed, ready to judge), the known misses still missed,
// recall and fix coverage, and per service the wall time, peak RSS and lines
// analyzed. It writes one JSON result per service.
//
//	go run ./internal/bench/corpus -checkouts DIR -out DIR
//	go run ./internal/bench/corpus -checkouts DIR -out DIR -only nsq,etcd
//	go run ./internal/bench/corpus -out DIR -rejudge   # after editing judged.tsv
//	go run ./internal/bench/corpus -census -checkouts DIR -out DIR
//
// With -census it runs the services of docs/corpus/census-services.tsv on
// the packages their reviewers read, and scores the findings against the
// judged sites of docs/corpus/census.tsv (the tune splits') and
// census-holdout.tsv.gz (the holdout splits', out of sight of a plain
// search) (census.go), per check and per split.
//
// It needs the network for the services' dependencies (go list -export
// builds them; the first run is slow, later ones hit the build cache), so it
// is neither in go test nor in .ci/run: see docs/corpus/README.md.
//
// The binary is also the suite: run with QUEUECHECK_CORPUS_CHILD=1 in its
// environment it is queuecheck's standalone driver, so the suite measured
// is the one built from this checkout, with no separate build step.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/internal/driver"
)

// childEnv, set in the environment, makes the binary queuecheck itself.
const childEnv = "QUEUECHECK_CORPUS_CHILD"

// Exit codes.
const (
	exitOK       = 0 // every finding judged, every module analyzed
	exitUnjudged = 1 // some findings have no verdict, or judged findings went away
	exitFailure  = 2 // a module failed to load or analyze, or bad input
)

func main() {
	if os.Getenv(childEnv) != "" {
		os.Exit(driver.Main(os.Args[1:], driver.Config{Analyzers: analyzers.All, Stdout: os.Stdout, Stderr: os.Stderr}))
	}
	os.Exit(corpusMain(os.Args[1:], os.Stdout, os.Stderr))
}

type config struct {
	checkouts string
	out       string
	services  string
	judged    string
	only      []string
	census    bool // score census.tsv's sites instead of judged.tsv's findings
	sites     string
	holdout   string // the holdout splits' sites, kept out of plain-text searches
	rejudge   bool   // read the results in out instead of running the suite
	fixcheck  bool   // apply every fix and build the fixed packages
	timeout   time.Duration
	suite     []string // the command that runs queuecheck
	progress  io.Writer
}

func corpusMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("corpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var only string
	fs.StringVar(&c.checkouts, "checkouts", "", "`directory` holding one checkout per service, named as the service column of services.tsv (required)")
	fs.StringVar(&c.out, "out", "", "`directory` to write one JSON result per service to (required; created if missing)")
	fs.StringVar(&c.services, "services", filepath.Join("docs", "corpus", "services.tsv"), "the list of services")
	fs.StringVar(&c.judged, "judged", filepath.Join("docs", "corpus", "judged.tsv"), "the verdicts")
	fs.BoolVar(&c.census, "census", false, "run the census instead: the services of -census-services, scored against the judged sites of -sites, per split")
	censusServices := fs.String("census-services", filepath.Join("docs", "corpus", "census-services.tsv"), "with -census, the list of services and their split")
	fs.StringVar(&c.sites, "sites", filepath.Join("docs", "corpus", "census.tsv"), "with -census, the judged sites of the tune splits")
	fs.StringVar(&c.holdout, "holdout-sites", filepath.Join("docs", "corpus", "census-holdout.tsv.gz"), "with -census, the judged sites of the holdout splits (gzip-compressed when the name ends in .gz, so that a search of the plain-text files cannot show them); empty: every site is in -sites")
	fs.StringVar(&only, "only", "", "comma-separated services to run (default all); the table then covers only these")
	fs.DurationVar(&c.timeout, "timeout", 45*time.Minute, "time limit of one module's run")
	deps := fs.Bool("deps", false, "run the suite with -deps: the packages of other modules that a service's packages import are analyzed for their facts too")
	fs.BoolVar(&c.fixcheck, "fixcheck", false, "also apply every suggested fix of each module in memory and go build the fixed packages through -overlay (the checkouts are not written)")
	fs.BoolVar(&c.rejudge, "rejudge", false, "do not run the suite: match the results already in -out with judged.tsv again and print the tables (after judging)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./internal/bench/corpus -checkouts DIR -out DIR [flags]\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitFailure
	}
	if c.checkouts == "" && !c.rejudge || c.out == "" || fs.NArg() > 0 {
		fs.Usage()
		return exitFailure
	}
	if c.census {
		c.services = *censusServices
	}
	if only != "" {
		c.only = strings.Split(only, ",")
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "corpus: %v\n", err)
		return exitFailure
	}
	c.suite = []string{self}
	if *deps {
		c.suite = append(c.suite, "-deps")
	}
	c.progress = stderr
	rep, err := run(context.Background(), c)
	if err != nil {
		fmt.Fprintf(stderr, "corpus: %v\n", err)
		return exitFailure
	}
	rep.write(stdout)
	return rep.exitCode()
}

// A scorer matches the results of the services run with verdicts and
// prints the tables: the corpus's report (judged findings) or the census's
// (judged sites).
type scorer interface {
	add(s *service, sr *serviceResult)
	write(w io.Writer)
	exitCode() int
}

// newScorer reads the services and the verdicts c names.
func newScorer(c config) ([]*service, scorer, error) {
	if c.census {
		services, err := readCensusServices(c.services)
		if err != nil {
			return nil, nil, err
		}
		sites, err := readSites(c.sites, c.holdout, services)
		if err != nil {
			return nil, nil, err
		}
		return services, newCensusReport(sites, services), nil
	}
	services, err := readServices(c.services)
	if err != nil {
		return nil, nil, err
	}
	judged, err := readJudged(c.judged)
	if err != nil {
		return nil, nil, err
	}
	return services, newReport(judged), nil
}

// A serviceResult is the JSON result of one service.
type serviceResult struct {
	Service        string         `json:"service"`
	Kind           string         `json:"kind"`
	Repository     string         `json:"repository"`
	Commit         string         `json:"commit"`
	CheckoutCommit string         `json:"checkout_commit,omitempty"` // HEAD of the checkout when it is a git one
	Modules        []moduleResult `json:"modules"`
	Missed         []missRow      `json:"missed"`
}

// A missRow is a judged miss as a result file records it.
type missRow struct {
	Check    string `json:"check"`
	Category string `json:"category"`
	File     string `json:"file"`
	Locator  string `json:"locator"`
	Why      string `json:"why"`
	Status   string `json:"status"` // "missed", "found" (its fingerprint matched) or "possibly found" (a finding in its function)
}

func run(ctx context.Context, c config) (scorer, error) {
	services, rep, err := newScorer(c)
	if err != nil {
		return nil, err
	}
	if len(c.only) > 0 {
		for _, name := range c.only {
			if !slices.ContainsFunc(services, func(s *service) bool { return s.Name == name }) {
				return nil, fmt.Errorf("-only: no service %q in %s", name, c.services)
			}
		}
		services = slices.DeleteFunc(services, func(s *service) bool { return !slices.Contains(c.only, s.Name) })
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return nil, err
	}
	total := 0
	for _, s := range services {
		total += len(s.Modules)
	}
	n := 0
	for _, s := range services {
		if c.rejudge {
			sr, err := readResult(filepath.Join(c.out, s.Name+".json"), s)
			if err != nil {
				return nil, err
			}
			rep.add(s, sr)
			if err := writeResult(c.out, sr); err != nil {
				return nil, err
			}
			continue
		}
		root := filepath.Join(c.checkouts, s.Name)
		sr := &serviceResult{Service: s.Name, Kind: s.Kind, Repository: s.Repository, Commit: s.Commit, Missed: []missRow{}}
		if _, err := os.Stat(root); err != nil {
			return nil, fmt.Errorf("%s: no checkout at %s (see docs/corpus/README.md)", s.Name, root)
		}
		sr.CheckoutCommit = gitHead(root)
		if sr.CheckoutCommit != "" && sr.CheckoutCommit != s.Commit {
			return nil, fmt.Errorf("%s: the checkout at %s is at %s, services.tsv pins %s: git checkout %s", s.Name, root, sr.CheckoutCommit, s.Commit, s.Commit)
		}
		for _, m := range s.Modules {
			n++
			mr := runModule(ctx, c.suite, root, m, c.timeout, c.fixcheck)
			fmt.Fprintf(c.progress, "[%d/%d] %s %s: %d packages, %d lines, %d findings, %.1fs, %d MiB peak RSS%s\n",
				n, total, s.Name, m.Dir, mr.Packages, mr.Lines, len(mr.Findings), mr.Wall, mr.PeakRSSKiB/1024, failure(mr))
			sr.Modules = append(sr.Modules, mr)
		}
		rep.add(s, sr)
		if err := writeResult(c.out, sr); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

func writeResult(dir string, sr *serviceResult) error {
	data, err := json.MarshalIndent(sr, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, sr.Service+".json"), append(data, '\n'), 0o644)
}

// readResult reads a result file of an earlier run for s, without its
// verdicts, so that they are matched anew.
func readResult(name string, s *service) (*serviceResult, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("-rejudge: %v", err)
	}
	sr := new(serviceResult)
	if err := json.Unmarshal(data, sr); err != nil {
		return nil, fmt.Errorf("-rejudge: %s: %v", name, err)
	}
	same := sr.Commit == s.Commit && len(sr.Modules) == len(s.Modules)
	for i := 0; same && i < len(s.Modules); i++ {
		same = sr.Modules[i].Dir == s.Modules[i].Dir && slices.Equal(sr.Modules[i].Patterns, s.Modules[i].Patterns)
	}
	if !same {
		return nil, fmt.Errorf("-rejudge: %s is a result of another commit, module or pattern list than services.tsv has for %s: run it again", name, s.Name)
	}
	sr.Missed = []missRow{}
	for i := range sr.Modules {
		sr.Modules[i].module = s.Modules[i]
		for k := range sr.Modules[i].Findings {
			sr.Modules[i].Findings[k].Verdict, sr.Modules[i].Findings[k].Why = "", ""
		}
	}
	return sr, nil
}

func failure(mr moduleResult) string {
	if mr.Error == "" {
		return ""
	}
	return fmt.Sprintf(" (exit %d: %s)", mr.Exit, strings.ReplaceAll(mr.Error, "\n", "\n\t"))
}

// gitHead returns the commit checked out at dir, "" when dir is not a git
// checkout (a snapshot: its commit cannot be verified).
func gitHead(dir string) string {
	cmd := exec.Command("git", "rev-parse", "HEAD")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	// A checkout nested in another repository reports that one's HEAD:
	// only trust git when dir is the top of its work tree.
	top := exec.Command("git", "rev-parse", "--show-toplevel")
	top.Dir = dir
	t, err := top.Output()
	if err != nil {
		return ""
	}
	a, _ := filepath.EvalSymlinks(strings.TrimSpace(string(t)))
	b, _ := filepath.EvalSymlinks(dir)
	if a != b {
		return ""
	}
	return strings.TrimSpace(string(out))
}
