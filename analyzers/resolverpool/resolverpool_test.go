package resolverpool_test

import (
	"testing"

	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/resolverpool"
)

var testdata = fixtest.TestData()

func TestResolverpool(t *testing.T) {
	fixtest.Run(t, testdata, resolverpool.Analyzer, "resolverpool/lib", "resolverpool/a", "resolverpool/groups", "resolverpool/chans", "resolverpool/fields", "resolverpool/directives", "resolverpool/skip", "resolverpool/exported", "resolverpool/names", "resolverpool/crosspkg")
}

func TestFlags(t *testing.T) {
	fixtest.RunWithFlags(t, testdata, resolverpool.Analyzer, map[string]string{
		"resolve": "resolverpool/flags.Client.Query",
		"slow":    "resolverpool/flags.compact",
	}, "resolverpool/flags")
}
