package waittiming_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/waittiming"
)

var testdata = fixtest.TestData()

func TestWaittiming(t *testing.T) {
	fixtest.Run(t, testdata, waittiming.Analyzer,
		"waittiming/a", "waittiming/deferred", "waittiming/chans", "waittiming/negative",
		"waittiming/deadline", "waittiming/directives", "waittiming/shapes",
		"waittiming/backoff", "waittiming/generic", "waittiming/hidden", "waittiming/timers", "waittiming/retries", "waittiming/handlers", "waittiming/handoff", "waittiming/nofix", "waittiming/slogclash", "waittiming/printf", "waittiming/twoends", "waittiming/crosspkg", "waittiming/retryspan", "waittiming/pacing", "waittiming/dynamic", "waittiming/condwait", "waittiming/ctxfirst", "waittiming/jobs", "waittiming/wrapped", "waittiming/wrapped/store", "waittiming/wrapped/metrics", "waittiming/wrapped/phases", "waittiming/enqueued", "waittiming/cancelled", "waittiming/closures", "waittiming/paths", "waittiming/startparam", "waittiming/queuebudget", "waittiming/timedcall", "waittiming/timedapart", "waittiming/dispatch", "waittiming/paramwait", "waittiming/implwait", "waittiming/awaited", "waittiming/handed", "waittiming/scoped", "waittiming/leaving", "waittiming/poolget", "waittiming/relclock", "waittiming/pooled", "waittiming/sdkretry")
}

// TestTimeClash: a Prometheus timer's fix needs time.Now(), and a
// declaration called time in scope leaves it no name.
func TestTimeClash(t *testing.T) {
	fixtest.Run(t, testdata, waittiming.Analyzer, "waittiming/timeclash")
}

func TestFlags(t *testing.T) {
	// Mutexes and the listed pool calls count as waits only with the flags;
	// without them the same package has no finding.
	// Either spelling of a method names it.
	for _, waits := range []string{
		"waittiming/flags/pool.Pool.Get,waittiming/flags/pool.Pool.Submit,waittiming/flags/pool.Enter",
		"(*waittiming/flags/pool.Pool).Get,(waittiming/flags/pool.Pool).Submit,waittiming/flags/pool.Enter",
	} {
		t.Run(waits, func(t *testing.T) {
			fixtest.RunWithFlags(t, testdata, waittiming.Analyzer, map[string]string{"mutex": "true", "waits": waits}, "waittiming/flags")
		})
	}
}

func TestFlagsOff(t *testing.T) {
	// Without the flags, every expectation of the package goes unmet and
	// nothing else is reported.
	var rec recorder
	analysistest.Run(&rec, testdata, waittiming.Analyzer, "waittiming/flags")
	if len(rec.errs) != 5 {
		t.Errorf("got %d complaints, want the 5 unmet expectations:\n%s", len(rec.errs), strings.Join(rec.errs, "\n"))
	}
	for _, e := range rec.errs {
		if !strings.Contains(e, "no diagnostic was reported matching") {
			t.Error(e)
		}
	}
}

type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestWaitsFlag(t *testing.T) {
	f := waittiming.Analyzer.Flags.Lookup("waits")
	defer func() {
		if err := f.Value.Set(""); err != nil {
			t.Error(err)
		}
	}()
	if err := f.Value.Set("example.com/x.T.M, example.com/x.F"); err != nil {
		t.Fatal(err)
	}
	if got, want := f.Value.String(), "example.com/x.F,example.com/x.T.M"; got != want {
		t.Errorf("-waittiming.waits = %q, want %q", got, want)
	}
}

// TestRealCode runs the check on code reduced from real services: each
// package holds a false alarm of an earlier version (no finding wanted)
// beside the near misses that are still reported.
func TestRealCode(t *testing.T) {
	fixtest.Run(t, testdata, waittiming.Analyzer, "waittiming/realcode/...")
}

// TestWhy asks -waittiming.why about one line of the negative cases, by a
// path suffix: the silence there is said, and only there.
func TestWhy(t *testing.T) {
	fixtest.RunWhy(t, testdata, waittiming.Analyzer, "waittiming/negative/negative.go:98", "waittiming/negative")
}

// TestWhyAll runs with -waittiming.why=all: each rule named by a "// why:"
// comment is said at its line; whyrules holds a case of each rule that no
// other package reaches.
func TestWhyAll(t *testing.T) {
	fixtest.RunWhy(t, testdata, waittiming.Analyzer, "all", "waittiming/hidden", "waittiming/crosspkg",
		"waittiming/negative", "waittiming/deferred", "waittiming/handoff", "waittiming/retries", "waittiming/deadline", "waittiming/whyrules", "waittiming/retryspan", "waittiming/pacing", "waittiming/dynamic", "waittiming/condwait", "waittiming/ctxfirst", "waittiming/jobs", "waittiming/enqueued", "waittiming/closures", "waittiming/paths", "waittiming/startparam", "waittiming/queuebudget", "waittiming/timedcall", "waittiming/timedapart", "waittiming/dispatch", "waittiming/paramwait", "waittiming/implwait", "waittiming/awaited", "waittiming/handed", "waittiming/scoped", "waittiming/leaving", "waittiming/poolget", "waittiming/relclock", "waittiming/pooled", "waittiming/sdkretry")
}

// TestWhyWholePackage asks -waittiming.why about package clauses, where the
// rules that skip a whole package or file are said (-why all does not).
func TestWhyWholePackage(t *testing.T) {
	for _, c := range []struct{ at, pkg string }{
		{"noclock/noclock.go:3", "waittiming/noclock"},
	} {
		t.Run(c.at, func(t *testing.T) {
			fixtest.RunWhy(t, testdata, waittiming.Analyzer, c.at, c.pkg)
		})
	}
}
