package main

import (
	"fmt"
	"github.com/queuecheck/queuecheck/docs/demos/internal/leakcheck"
	"testing"
)

// TestMain fails the package if run left goroutines behind.
func TestMain(m *testing.M) { leakcheck.Main(m) }

// TestDirections checks that the lookup behind the jobs waits for them,
// and that the same lookup on its own pool does not.
func TestDirections(t *testing.T) {
	t.Parallel()
	cfg := shortConfig()
	res := run(cfg)
	if res.cold.err != nil {
		t.Fatalf("looking up %q: %v", host, res.cold.err)
	}
	byName := map[string]placement{}
	for _, p := range res.placements {
		if err := p.firstErr(); err != nil {
			t.Fatalf("%s: looking up %q: %v", p.name, host, err)
		}
		byName[p.name] = p
	}
	behind := byName[fmt.Sprintf("behind %d jobs", cfg.fillers)]
	own := byName["own pool (shared one busy)"]
	idle := byName["idle pool"]
	if len(behind.timings) == 0 || len(own.timings) == 0 || len(idle.timings) == 0 {
		t.Fatalf("missing placements in %+v", res.placements)
	}
	queued := behind.median().total()
	// Half the expected wait: the lookup cannot start before the last
	// batch of fillers does, however the timers behave.
	if queued < cfg.expectedWait()/2 {
		t.Errorf("lookup behind the jobs took %v, want at least %v", queued, cfg.expectedWait()/2)
	}
	for _, p := range []placement{own, idle} {
		if m := p.median().total(); queued < 10*m {
			t.Errorf("lookup behind the jobs took %v, on %s %v: want it at least ten times longer", queued, p.name, m)
		}
	}
}
