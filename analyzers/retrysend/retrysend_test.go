package retrysend_test

import (
	"testing"

	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/retrysend"
)

var testdata = fixtest.TestData()

func TestRetryLoop(t *testing.T) {
	fixtest.Run(t, testdata, retrysend.Analyzer, "retrysend/retryloop", "retrysend/helper", "retrysend/imports")
}

func TestPollingSend(t *testing.T) {
	fixtest.Run(t, testdata, retrysend.Analyzer, "retrysend/pollingsend")
}

func TestOverflow(t *testing.T) {
	fixtest.Run(t, testdata, retrysend.Analyzer, "retrysend/overflow")
}

func TestNegative(t *testing.T) {
	fixtest.Run(t, testdata, retrysend.Analyzer, "retrysend/negative")
}
