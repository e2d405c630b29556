package retrysend_test

import (
	"go/token"
	"sync"
	"testing"

	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/retrysend"
)

var testdata = fixtest.TestData()

func TestRetryLoop(t *testing.T) {
	fixtest.Run(t, testdata, retrysend.Analyzer, "retrysend/retryloop", "retrysend/helper", "retrysend/imports", "retrysend/gotolabel", "retrysend/crosspkg", "retrysend/helpertest", "retrysend/helperbuild", "retrysend/realcode", "retrysend/errtry")
}

func TestPollingSend(t *testing.T) {
	fixtest.Run(t, testdata, retrysend.Analyzer, "retrysend/pollingsend")
}

func TestOverflow(t *testing.T) {
	fixtest.Run(t, testdata, retrysend.Analyzer, "retrysend/overflow", "retrysend/shadowed", "retrysend/shed")
}

// TestSpin covers loops that try non-blocking sends and never block.
func TestSpin(t *testing.T) {
	fixtest.Run(t, testdata, retrysend.Analyzer, "retrysend/spin")
}

func TestNegative(t *testing.T) {
	fixtest.Run(t, testdata, retrysend.Analyzer, "retrysend/negative")
}

func TestDirectives(t *testing.T) {
	fixtest.Run(t, testdata, retrysend.Analyzer, "retrysend/directives")
}

// When retrysend is the only check that runs, it reports every directive
// that names no check, and leaves those naming another check alone.
func TestDirectivesNamingNoCheckWhenAlone(t *testing.T) {
	report.SetRunning(func() []string { return []string{"retrysend"} })
	t.Cleanup(func() { report.SetRunning(nil) })
	fixtest.Run(t, testdata, retrysend.Analyzer, "retrysend/alone")
}

func TestFlags(t *testing.T) {
	// b.Wait is no wait the check knows: without the flag the loop does
	// other work between attempts. Either spelling of the method names it.
	for _, waits := range []string{"(*retrysend/flags.backoff).Wait", "retrysend/flags.backoff.Wait"} {
		t.Run(waits, func(t *testing.T) {
			fixtest.RunWithFlags(t, testdata, retrysend.Analyzer, map[string]string{"waits": waits}, "retrysend/flags")
		})
	}
}

// TestWhy runs with -retrysend.why=all: every non-blocking send not
// reported says which named rule kept it quiet. Each of the check's rules
// has a case there.
func TestWhy(t *testing.T) {
	var mu sync.Mutex
	fired := make(map[*report.Rule]bool)
	defer report.SetTrace(func(r *report.Rule, _ token.Position) {
		mu.Lock()
		fired[r] = true
		mu.Unlock()
	})()
	fixtest.RunWithFlags(t, testdata, retrysend.Analyzer, map[string]string{"why": "all"}, "retrysend/why")
	for _, r := range report.RulesOf("retrysend") {
		if !fired[r] {
			t.Errorf("rule %s: no case in retrysend/why silences a candidate with it", r.Name)
		}
	}
}
