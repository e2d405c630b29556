package resolverpool_test

import (
	"testing"

	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/resolverpool"
)

var testdata = fixtest.TestData()

func TestResolverpool(t *testing.T) {
	fixtest.Run(t, testdata, resolverpool.Analyzer, "resolverpool/lib", "resolverpool/a", "resolverpool/groups", "resolverpool/chans", "resolverpool/fields")
}
