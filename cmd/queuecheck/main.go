// Command queuecheck finds queues that grow without a bound, retry loops that
// bypass a bound, slow work sharing a pool with DNS resolution, and timings
// that hide queue wait inside the call.
//
// Standalone:
//
//	queuecheck [flags] [packages]
//
// As a vet tool (go vet's caching, facts, -json and -fix all apply):
//
//	go vet -vettool=$(which queuecheck) [flags] [packages]
//
// Run "queuecheck -help" for the flags, "queuecheck -list" for the checks and
// "queuecheck -explain CHECK" for one check's documentation.
package main

import (
	"flag"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/internal/driver"
)

func main() {
	if invokedByGoVet(os.Args[1:]) {
		// unitchecker parses the -CHECK flags into flag.CommandLine before
		// any check runs and asks which others run beside it.
		analyzers.SetRunning(func() []*analysis.Analyzer { return driver.VetSelection(flag.CommandLine, analyzers.All) })
		// -why sets every check's -CHECK.why; go vet learns of it from -flags.
		flag.CommandLine.Var(analyzers.WhyFlag(analyzers.All), "why", "`FILE:LINE` (FILE a path suffix) or all: also report, as CHECK/why diagnostics, the named rule that kept each candidate there from being a finding")
		unitchecker.Main(analyzers.All...) // exits
	}
	os.Exit(driver.Main(os.Args[1:], driver.Config{
		Analyzers: analyzers.All,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
	}))
}

// invokedByGoVet reports whether the command line follows go vet's vet-tool
// protocol: "-flags" (describe the flags), "-V=full" (describe the
// executable) or a final "*.cfg" argument (analyze one compilation unit).
func invokedByGoVet(args []string) bool {
	for _, a := range args {
		switch strings.TrimPrefix(a, "-") {
		case "-flags", "flags", "-V=full", "V=full":
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}
