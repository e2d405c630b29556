package resolverpool_test

import (
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/resolverpool"
)

var testdata = fixtest.TestData()

func TestResolverpool(t *testing.T) {
	fixtest.Run(t, testdata, resolverpool.Analyzer, "resolverpool/lib", "resolverpool/a", "resolverpool/groups", "resolverpool/chans", "resolverpool/fields", "resolverpool/directives", "resolverpool/skip", "resolverpool/exported", "resolverpool/names", "resolverpool/crosspkg", "resolverpool/retries", "resolverpool/data", "resolverpool/ifaces", "resolverpool/ifacelib", "resolverpool/ifacemid", "resolverpool/ifaceuse", "resolverpool/nofix", "resolverpool/localgroup")
}

func TestFlags(t *testing.T) {
	// Either spelling of a method names it.
	for _, resolve := range []string{"resolverpool/flags.Client.Query", "(*resolverpool/flags.Client).Query"} {
		t.Run(resolve, func(t *testing.T) {
			fixtest.RunWithFlags(t, testdata, resolverpool.Analyzer, map[string]string{
				"resolve": resolve,
				"slow":    "resolverpool/flags.compact",
			}, "resolverpool/flags")
		})
	}
}

// TestWhy asks -resolverpool.why about one line of the ifaces cases, by a
// path suffix: the silence there is said, and only there.
func TestWhy(t *testing.T) {
	fixtest.RunWhy(t, testdata, resolverpool.Analyzer, "ifaces/ifaces.go:202", "resolverpool/ifaces")
}

// TestWhyAll runs with -resolverpool.why=all: the rules named by the
// "// why:" comments are said there.
func TestWhyAll(t *testing.T) {
	fixtest.RunWhy(t, testdata, resolverpool.Analyzer, "all", "resolverpool/a", "resolverpool/rejected")
}

// TestWhyStandardLibrary checks that a package of the standard library is
// skipped by the rule standard-library, said at its package clause.
func TestWhyStandardLibrary(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(build.Default.GOROOT, "src", "errors", "wrap.go"))
	if err != nil {
		t.Skip(err)
	}
	clause := 0 // the line of the package clause
	for i, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "package errors") {
			clause = i + 1
			break
		}
	}
	if err := resolverpool.Analyzer.Flags.Set(report.WhyFlagName, fmt.Sprintf("errors/wrap.go:%d", clause)); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resolverpool.Analyzer.Flags.Set(report.WhyFlagName, "") }()
	said := false
	var rec recorder // the why-diagnostics are unexpected: no "// want" in the standard library
	for _, r := range analysistest.Run(&rec, testdata, resolverpool.Analyzer, "errors") {
		for _, d := range r.Action.Diagnostics {
			said = said || strings.HasPrefix(d.Message, report.WhyMessagePrefix+"standard-library: ")
		}
	}
	if !said {
		t.Error("-why all says nothing of the rule standard-library on package errors")
	}
	for _, e := range rec.errs {
		if !strings.Contains(e, ": unexpected diagnostic: "+report.WhyMessagePrefix) {
			t.Error(e)
		}
	}
}

type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestWhyWholePackage asks -resolverpool.why about package clauses, where the
// rules that skip a whole package or file are said (-why all does not).
func TestWhyWholePackage(t *testing.T) {
	for _, c := range []struct{ at, pkg string }{
		{"ifacemid/ifacemid.go:6", "resolverpool/ifacemid"},
		{"lookupsonly/lookupsonly.go:3", "resolverpool/lookupsonly"},
		{"skip/gen.go:3", "resolverpool/skip"},
		{"skip/skip_test.go:1", "resolverpool/skip"},
	} {
		t.Run(c.at, func(t *testing.T) {
			fixtest.RunWhy(t, testdata, resolverpool.Analyzer, c.at, c.pkg)
		})
	}
}
