package unboundedqueue_test

import (
	"testing"

	"github.com/queuecheck/queuecheck/analyzers/internal/fixtest"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue"
)

var testdata = fixtest.TestData()

func TestSliceFIFO(t *testing.T) {
	fixtest.Run(t, testdata, unboundedqueue.Analyzer, "unboundedqueue/slicefifo", "unboundedqueue/listfifo", "unboundedqueue/persend", "unboundedqueue/peritem", "unboundedqueue/loopvar", "unboundedqueue/multifile", "unboundedqueue/crosscheck", "unboundedqueue/dominance", "unboundedqueue/swapfifo", "unboundedqueue/urgent", "unboundedqueue/twice", "unboundedqueue/crosspkg", "unboundedqueue/testhook")
}

// TestNoFix covers hazards reported without a fix.
func TestNoFix(t *testing.T) {
	fixtest.Run(t, testdata, unboundedqueue.Analyzer, "unboundedqueue/nofix")
}

// TestPump covers the "infinite channel" pump.
func TestPump(t *testing.T) {
	fixtest.Run(t, testdata, unboundedqueue.Analyzer, "unboundedqueue/pump")
}

// TestLimits covers how the goroutineperitem fix bounds a loop.
func TestLimits(t *testing.T) {
	fixtest.Run(t, testdata, unboundedqueue.Analyzer, "unboundedqueue/limits", "unboundedqueue/counter", "unboundedqueue/nearmiss", "unboundedqueue/recipients", "unboundedqueue/putback", "unboundedqueue/indexfifo", "unboundedqueue/fanout", "unboundedqueue/fanoutalone", "unboundedqueue/fanoutlocal", "unboundedqueue/fanoutdata", "unboundedqueue/spawncall/caller", "unboundedqueue/fanoutnested", "unboundedqueue/detached", "unboundedqueue/perkey", "unboundedqueue/pullread", "unboundedqueue/pullread/mocks", "unboundedqueue/pullread/mockless")
}

// TestFixText covers the text of fixes: statements rewritten around a
// string literal that spans lines, and new names whose first choice a
// parameter or a package variable would shadow or clash with.
func TestFixText(t *testing.T) {
	fixtest.Run(t, testdata, unboundedqueue.Analyzer, "unboundedqueue/rawstring", "unboundedqueue/shadowed")
}

func TestDirectives(t *testing.T) {
	fixtest.Run(t, testdata, unboundedqueue.Analyzer, "unboundedqueue/directives")
}

func TestFlags(t *testing.T) {
	// Either spelling of the method names it.
	for _, acquire := range []string{"(*unboundedqueue/flags.admission).Enter", "unboundedqueue/flags.admission.Enter"} {
		t.Run(acquire, func(t *testing.T) {
			fixtest.RunWithFlags(t, testdata, unboundedqueue.Analyzer, map[string]string{
				"acquire":  acquire,
				"bound":    "256",
				"inflight": "16",
			}, "unboundedqueue/flags")
		})
	}
}

// TestRealCode runs the check on code reduced from real services: each
// package holds a false alarm of an earlier version (no finding wanted),
// and some the near misses beside it that are still reported.
func TestRealCode(t *testing.T) {
	fixtest.Run(t, testdata, unboundedqueue.Analyzer, "unboundedqueue/realcode/...")
}

// TestWhy asks -unboundedqueue.why about one line of a real-code case, by
// a path suffix: the silence there is said, and only there.
func TestWhy(t *testing.T) {
	fixtest.RunWhy(t, testdata, unboundedqueue.Analyzer, "fillthendrain/fillthendrain.go:24", "unboundedqueue/realcode/fillthendrain")
}

// TestWhyAll runs with -unboundedqueue.why=all: each rule named by a
// "// why:" comment is said at its line; whyrules holds a case of each rule
// that no other package reaches.
func TestWhyAll(t *testing.T) {
	fixtest.RunWhy(t, testdata, unboundedqueue.Analyzer, "all",
		"unboundedqueue/listfifo", "unboundedqueue/slicefifo", "unboundedqueue/realcode/localvalue",
		"unboundedqueue/whyrules", "unboundedqueue/queuefacts/producer", "unboundedqueue/realcode/eventcursor", "unboundedqueue/realcode/phasetimer", "unboundedqueue/fanout", "unboundedqueue/pullread", "unboundedqueue/indexfifo", "unboundedqueue/detached", "unboundedqueue/perkey", "unboundedqueue/spawncall/caller", "unboundedqueue/testhook")
}

// TestWhyWholePackage asks -unboundedqueue.why about package clauses, where the
// rules that skip a whole package or file are said (-why all does not).
func TestWhyWholePackage(t *testing.T) {
	for _, c := range []struct{ at, pkg string }{
		{"frame/frame.go:3", "unboundedqueue/swapfifo/frame"},
		{"pullread/mockserver.go:1", "unboundedqueue/pullread"},
		{"nospawn/nospawn.go:4", "unboundedqueue/whyrules/nospawn"},
	} {
		t.Run(c.at, func(t *testing.T) {
			fixtest.RunWhy(t, testdata, unboundedqueue.Analyzer, c.at, c.pkg)
		})
	}
}

// TestQueueFacts covers producers of a queue type declared in another
// package, seen through the type's push facts.
func TestQueueFacts(t *testing.T) {
	fixtest.Run(t, testdata, unboundedqueue.Analyzer, "unboundedqueue/queuefacts/producer")
}
