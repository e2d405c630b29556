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
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/internal/config"
	"github.com/queuecheck/queuecheck/internal/driver"
)

func main() {
	if invokedByGoVet(os.Args[1:]) {
		vet(os.Args[1:]) // exits
	}
	os.Exit(driver.Main(os.Args[1:], driver.Config{
		Analyzers: analyzers.All,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
	}))
}

// vet runs the vet-tool protocol with x/tools' unitchecker, each check
// configured from the queuecheck.toml files of the package's directory.
func vet(args []string) {
	if slices.ContainsFunc(args, func(a string) bool { return strings.TrimLeft(a, "-") == "V=full" }) {
		printVetToolID()
		os.Exit(0)
	}
	// unitchecker parses the -CHECK flags into flag.CommandLine before
	// any check runs and asks which others run beside it.
	analyzers.SetRunning(func() []*analysis.Analyzer { return driver.VetSelection(flag.CommandLine, analyzers.All) })
	// -why sets every check's -CHECK.why; go vet learns of it from -flags.
	flag.CommandLine.Var(analyzers.WhyFlag(analyzers.All), "why", "`FILE:LINE` (FILE a path suffix) or all: also report, as CHECK/why diagnostics, the named rule that kept each candidate there from being a finding")

	suite := config.New(analyzers.All)
	suite.AbsoluteNames()
	if dir := vetPackageDir(args); dir != "" {
		// A bad file fails the package before analysis, naming file,
		// line and key, rather than each check's run.
		if _, err := suite.ForDir(dir); err != nil {
			fmt.Fprintf(os.Stderr, "queuecheck: %v\n", err)
			os.Exit(2)
		}
	}
	// The command line's flags override the files'; unitchecker has
	// parsed them when the first check runs.
	suite.BeforeFirstRun(func() {
		flag.CommandLine.Visit(func(f *flag.Flag) {
			for _, a := range analyzers.All {
				if f.Name == "why" {
					suite.Override(a.Name+".why", f.Value.String())
				} else if check, name, ok := strings.Cut(f.Name, "."); ok && check == a.Name && a.Flags.Lookup(name) != nil {
					suite.Override(f.Name, f.Value.String())
				}
			}
		})
	})
	unitchecker.Main(suite.WrapAll(analyzers.All)...) // exits
}

// vetPackageDir returns the directory of the package a vet-tool invocation
// analyzes, from the JSON configuration file go vet passes last, or "".
func vetPackageDir(args []string) string {
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return ""
	}
	data, err := os.ReadFile(args[len(args)-1])
	if err != nil {
		return "" // unitchecker reports it
	}
	var cfg struct{ Dir string }
	if json.Unmarshal(data, &cfg) != nil {
		return ""
	}
	return cfg.Dir
}

// printVetToolID answers go vet's -V=full as unitchecker does, with the
// executable's hash, and folds in the queuecheck.toml files of the module
// around the working directory: go vet keys its cache of a package's
// results by this identity, its flags and the package's own files, so a
// changed configuration file must change the identity to be seen.
func printVetToolID() {
	exe, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	id, err := hashFile(exe)
	if err != nil {
		log.Fatal(err)
	}
	if wd, err := os.Getwd(); err == nil {
		if files := config.Fingerprint(wd); files != nil {
			h := sha256.New()
			h.Write(id)
			h.Write(files)
			id = h.Sum(nil)
		}
	}
	fmt.Printf("%s version devel comments-go-here buildID=%02x\n", exe, id)
}

// hashFile returns the SHA-256 of the file's content.
func hashFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	_, err = io.Copy(h, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
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
