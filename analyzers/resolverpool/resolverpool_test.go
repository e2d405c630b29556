package resolverpool_test

import (
	"fmt"
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
// "// why:" comments, those of one task and those that skip a package, are
// said there, and those of files skipped whole (skip).
func TestWhyAll(t *testing.T) {
	fixtest.RunWhy(t, testdata, resolverpool.Analyzer, "all", "resolverpool/a", "resolverpool/ifacemid", "resolverpool/lookupsonly", "resolverpool/skip")
}

// TestWhyStandardLibrary checks that a package of the standard library is
// skipped by the rule standard-library, said at its package clause.
func TestWhyStandardLibrary(t *testing.T) {
	if err := resolverpool.Analyzer.Flags.Set(report.WhyFlagName, "all"); err != nil {
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
