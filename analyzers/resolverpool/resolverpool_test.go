package resolverpool_test

import (
	"testing"

	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
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
