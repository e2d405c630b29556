package main

import (
	"github.com/queuecheck/queuecheck/docs/demos/internal/leakcheck"
	"testing"
)

// TestMain fails the package if run left goroutines behind.
func TestMain(m *testing.M) { leakcheck.Main(m) }

// TestDirections checks which way the numbers go: at the highest
// concurrency the wait dominates the whole call while the run time stays
// at the task time, and at the lowest there is no wait. Bounds are relative
// to the measured run time rather than to the task, because on a loaded
// machine every timer fires late and the run time grows with it.
func TestDirections(t *testing.T) {
	t.Parallel()
	cfg := shortConfig()
	res := run(cfg)
	if len(res.levels) != len(cfg.concurrency) {
		t.Fatalf("%d levels, want %d", len(res.levels), len(cfg.concurrency))
	}
	for _, l := range res.levels {
		if l.run.p50 < cfg.task {
			t.Errorf("%d concurrent: run p50 %v, shorter than the task's %v", l.concurrency, l.run.p50, cfg.task)
		}
	}
	low, high := res.levels[0], res.levels[len(res.levels)-1]
	if low.concurrency > cfg.slots {
		t.Fatalf("lowest level %d does not fit the %d slots", low.concurrency, cfg.slots)
	}
	if low.wait.p50 > low.run.p50/2 {
		t.Errorf("%d concurrent on %d slots: wait p50 %v against run p50 %v, want next to no wait",
			low.concurrency, cfg.slots, low.wait.p50, low.run.p50)
	}
	// 300 tasks on 28 slots: the median task starts in the sixth round,
	// after five runs' time; 2 leaves margin.
	if high.wait.p50 < 2*high.run.p50 {
		t.Errorf("%d concurrent: wait p50 %v against run p50 %v, want the wait to be several runs long",
			high.concurrency, high.wait.p50, high.run.p50)
	}
	if high.whole.p50 < 2*high.run.p50 {
		t.Errorf("%d concurrent: whole-call p50 %v against run p50 %v, want the whole call to be mostly wait",
			high.concurrency, high.whole.p50, high.run.p50)
	}
}
