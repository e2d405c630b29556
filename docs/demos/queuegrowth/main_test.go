package main

import (
	"github.com/queuecheck/queuecheck/docs/demos/internal/leakcheck"
	"testing"
)

// TestMain fails the package if run left goroutines behind.
func TestMain(m *testing.M) { leakcheck.Main(m) }

// TestDirections checks which way the numbers go, not their size: on a
// loaded machine every rate can fall short, but the unbounded backlogs must
// still grow and the bounded one must not.
func TestDirections(t *testing.T) {
	t.Parallel()
	cfg := shortConfig()
	res := run(cfg)
	bound := cfg.bound()

	var bounded, unbounded []variantResult
	for _, v := range res.variants {
		if v.capacity > 0 {
			bounded = append(bounded, v)
		} else {
			unbounded = append(unbounded, v)
		}
	}
	if len(unbounded) != 4 || len(bounded) != 2 {
		t.Fatalf("want 4 unbounded variants and 2 bounded at %d, got %+v", bound, res.variants)
	}
	for _, b := range bounded {
		if b.capacity != bound || len(b.intervals) != cfg.intervals {
			t.Fatalf("%s: capacity %d and %d intervals, want %d and %d", b.name, b.capacity, len(b.intervals), bound, cfg.intervals)
		}
	}
	for _, b := range bounded {
		checkBounded(t, cfg, b, unbounded)
	}
}

// checkBounded checks one bounded variant, and that every unbounded one
// grew past it.
func checkBounded(t *testing.T, cfg config, bounded variantResult, unbounded []variantResult) {
	bound := cfg.bound()
	lastWaitBounded := bounded.intervals[len(bounded.intervals)-1].lastWait
	for _, v := range unbounded {
		first, last := v.intervals[0], v.intervals[len(v.intervals)-1]
		if last.queued <= first.queued {
			t.Errorf("%s: backlog did not grow: %d items after the first interval, %d after the last", v.name, first.queued, last.queued)
		}
		// 540 items/s of excess for 0.6 s is about 320; a third of
		// that still clears the bound by a wide margin.
		if last.queued < 3*int64(bound) {
			t.Errorf("%s: %d items queued at the end, want well above the bound %d", v.name, last.queued, bound)
		}
		if last.lastWait <= lastWaitBounded {
			t.Errorf("%s: last wait %v, want longer than %s's %v", v.name, last.lastWait, bounded.name, lastWaitBounded)
		}
	}

	for _, iv := range bounded.intervals {
		// produced − consumed can count one item the producer is
		// still handing over.
		if iv.queued > int64(bound)+1 {
			t.Errorf("%s: %d items queued at %v, bound is %d", bounded.name, iv.queued, iv.end, bound)
		}
	}
	// Once full (within the first interval), the bounded producer can only
	// send as fast as the consumer receives.
	var produced, consumed int64
	for _, iv := range bounded.intervals[2:] {
		produced += iv.produced
		consumed += iv.consumed
	}
	if limit := 0.8 * cfg.produceRate * (cfg.duration * 3 / 5).Seconds(); float64(produced) > limit {
		t.Errorf("%s: producer sent %d items in the last three intervals, want under %.0f (slowed to the consumer)", bounded.name, produced, limit)
	}
	if d := produced - consumed; d > consumed/5+3 || -d > consumed/5+3 {
		t.Errorf("%s: producer sent %d and consumer took %d in the last three intervals, want about equal", bounded.name, produced, consumed)
	}
}
