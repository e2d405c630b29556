// Command robustness runs the whole queuecheck suite over large bodies of Go
// code nobody on this project wrote — the standard library, x/tools,
// staticcheck and golangci-lint — and reports panics, analyzer errors and the
// findings, grouped by check and kind, with how many carry a fix, for
// review.
//
//	go run ./internal/bench/robustness                 # all four corpora
//	go run ./internal/bench/robustness -corpora std    # one
//
// It needs the Go module proxy to fetch the third-party corpora into the
// module cache. Every finding it prints is to be reviewed: a false positive
// becomes a negative test (docs/reliability.md).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// corpus is one body of code: a pattern, and the module to require for it.
type corpus struct {
	name, pattern, module string
}

var all = []corpus{
	{"std", "std", ""},
	{"x/tools", "golang.org/x/tools/go/...", "golang.org/x/tools@v0.52.0"},
	{"staticcheck", "honnef.co/go/tools/...", "honnef.co/go/tools@v0.8.2"},
	{"golangci-lint", "github.com/golangci/golangci-lint/v2/...", "github.com/golangci/golangci-lint/v2@v2.15.0"},
}

var (
	only    = flag.String("corpora", "", "comma-separated corpus names to run (default all): std, x/tools, staticcheck, golangci-lint")
	showAll = flag.Bool("v", false, "print every finding, not only the counts")
)

func main() {
	flag.Parse()
	log.SetFlags(0)
	root := strings.TrimSpace(string(output(exec.Command("go", "list", "-m", "-f", "{{.Dir}}"))))
	work, err := os.MkdirTemp("", "queuecheck-robustness")
	check(err)
	if !run(root, work) {
		os.RemoveAll(work)
		os.Exit(1)
	}
	os.RemoveAll(work)
}

// run runs the suite over each selected corpus and reports whether none of
// them made it panic or fail.
func run(root, work string) bool {
	qc := filepath.Join(work, "queuecheck")
	build := exec.Command("go", "build", "-o", qc, "./cmd/queuecheck")
	build.Dir = root
	output(build)

	// A module that requires every third-party corpus, so their patterns
	// resolve; -mod=mod lets the go command record the sums it needs.
	check(os.WriteFile(filepath.Join(work, "go.mod"), []byte("module robustness\n\ngo 1.26\n"), 0o644))
	failed := false
	for _, c := range all {
		if *only != "" && !strings.Contains(","+*only+",", ","+c.name+",") {
			continue
		}
		if c.module != "" {
			get := exec.Command("go", "get", c.module)
			get.Dir = work
			output(get)
		}
		start := time.Now()
		cmd := exec.Command(qc, "-json", c.pattern)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		elapsed := time.Since(start)
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		panics := strings.Count(stderr.String(), "panic:")
		analyzerErrors := regexp.MustCompile(`(?m)^queuecheck: .*: (chansize|unboundedqueue|retrysend|resolverpool|waittiming|queuecheckdirectives|queuecheckadmission|inspect): `).FindAllString(stderr.String(), -1)
		findings, err := countFindings(stdout.Bytes())
		check(err)
		fmt.Printf("## %s (%s): %.1f s, exit %d, %d panics, %d analyzer errors, %d findings, %d with a fix\n", c.name, c.pattern, elapsed.Seconds(), code, panics, len(analyzerErrors), findings.total, findings.fixed)
		for _, k := range findings.sortedKinds() {
			fmt.Printf("  %-32s %d (%d with a fix)\n", k, findings.byKind[k], findings.fixedByKind[k])
		}
		for _, e := range analyzerErrors {
			fmt.Println("  error:", e)
		}
		if panics > 0 {
			fmt.Println(stderr.String())
		}
		if *showAll {
			for _, f := range findings.lines {
				fmt.Println("  ", f)
			}
		}
		if panics > 0 || len(analyzerErrors) > 0 {
			failed = true
		}
	}
	return !failed
}

type counts struct {
	total, fixed        int
	byKind, fixedByKind map[string]int
	lines               []string
}

// countFindings reads the go vet JSON shape queuecheck -json prints: one
// object per package, keyed by package path and then by analyzer, holding
// the diagnostics (or an error object).
func countFindings(out []byte) (counts, error) {
	c := counts{byKind: make(map[string]int), fixedByKind: make(map[string]int)}
	type diag struct {
		Category, Posn, Message string
		SuggestedFixes          []json.RawMessage `json:"suggested_fixes"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			return c, fmt.Errorf("reading queuecheck's JSON: %v", err)
		}
		for _, byCheck := range tree {
			for _, raw := range byCheck {
				var ds []diag
				if json.Unmarshal(raw, &ds) != nil {
					continue // {"error": ...}, counted from standard error
				}
				for _, d := range ds {
					c.total++
					c.byKind[d.Category]++
					fix := ""
					if len(d.SuggestedFixes) > 0 {
						c.fixed++
						c.fixedByKind[d.Category]++
						fix = " [fix]"
					}
					c.lines = append(c.lines, d.Posn+": "+d.Category+": "+d.Message+fix)
				}
			}
		}
	}
	sort.Strings(c.lines)
	return c, nil
}

func (c counts) sortedKinds() []string {
	var ks []string
	for k := range c.byKind {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func output(cmd *exec.Cmd) []byte {
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		log.Fatalf("%v: %v\n%s", cmd.Args, err, stderr.String())
	}
	return out
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
