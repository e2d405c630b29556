package chansize_test

import (
	"testing"

	"github.com/queuecheck/queuecheck/analyzers/chansize"
	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
)

var testdata = fixtest.TestData()

func TestChansize(t *testing.T) {
	fixtest.Run(t, testdata, chansize.Analyzer, "chansize/a", "chansize/constdecl", "chansize/nomin", "chansize/directives", "chansize/directiveeof", "chansize/generic", "chansize/crosspkg/...")
}

func TestFlags(t *testing.T) {
	// Raising the byte limit silences the memory findings; the count limit
	// still applies.
	fixtest.RunWithFlags(t, testdata, chansize.Analyzer, map[string]string{"maxbytes": "1099511627776", "max": "1048576"}, "chansize/flags")
}

// TestWhy runs with -chansize.why=all: every buffered channel not reported
// says which named rule kept it quiet.
func TestWhy(t *testing.T) {
	fixtest.RunWithFlags(t, testdata, chansize.Analyzer, map[string]string{"why": "all"}, "chansize/why")
}
