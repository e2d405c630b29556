package waittiming_test

import (
	"testing"

	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/waittiming"
)

var testdata = fixtest.TestData()

func TestWaittiming(t *testing.T) {
	fixtest.Run(t, testdata, waittiming.Analyzer, "waittiming/a", "waittiming/deferred")
}
