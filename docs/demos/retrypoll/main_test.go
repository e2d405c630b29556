package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/queuecheck/queuecheck/docs/demos/internal/leakcheck"
	"testing"
)

// TestMain fails the package if run left goroutines behind.
func TestMain(m *testing.M) { leakcheck.Main(m) }

// TestDirections checks which way the numbers go. It does not call
// t.Parallel: CPU time is measured for the whole process, so nothing else
// in this package may run meanwhile.
func TestDirections(t *testing.T) {
	cfg := shortConfig()
	res := run(cfg)

	tp := map[string]throughput{}
	for _, x := range res.throughput {
		tp[x.name] = x
	}
	yield, sleep, blocking := tp["retry + Gosched"], tp[fmt.Sprintf("retry + sleep %v", cfg.pollSleep)], tp["blocking send"]
	if yield.name == "" || sleep.name == "" || blocking.name == "" {
		t.Fatalf("missing senders in %+v", res.throughput)
	}
	// The spinning loop gets whatever CPU the machine spares, the parked
	// send next to none; 3× leaves room for a heavily loaded machine.
	if yield.cpu <= 3*blocking.cpu {
		t.Errorf("retry + Gosched burned %v of CPU, blocking send %v: want the retry loop far above", yield.cpu, blocking.cpu)
	}
	// The sleeping loop's few percent of a core are not asserted: over a
	// 0.1 s run they are within the noise of the process's own CPU time.
	// A parked sender is woken by the receive itself; the sleeping loop
	// only notices at its next attempt. The mean, because the retry's
	// timer often fires together with the consumer's, making the
	// distribution bimodal and its median a coin toss.
	if sleep.latMean <= blocking.latMean {
		t.Errorf("added latency mean: retry + sleep %v, blocking send %v: want the retry loop slower", sleep.latMean, blocking.latMean)
	}

	for _, c := range res.cancel {
		switch c.name {
		case "blocking send":
			if c.returned {
				t.Errorf("blocking send returned %v after cancellation; it cannot see ctx", c.after)
			}
		default: // select with ctx.Done and the retry loops, which check ctx
			if !c.returned || !errors.Is(c.err, context.Canceled) {
				t.Errorf("%s: returned=%v err=%v after cancellation, want it to return context.Canceled", c.name, c.returned, c.err)
			}
		}
	}

	for _, s := range res.shed {
		held := s.accepted + s.waiting
		if s.name == "drop when full" {
			if s.rejected == 0 || held >= cfg.arrivals {
				t.Errorf("drop when full: %d rejected, %d held, want rejections and fewer than %d held", s.rejected, held, cfg.arrivals)
			}
			continue
		}
		// Nothing waiting ever gives up before ctx ends: every arrival
		// is held somewhere, whatever the channel's capacity.
		if s.rejected != 0 || held < cfg.arrivals {
			t.Errorf("%s: %d rejected, %d held, want none rejected and all %d held", s.name, s.rejected, held, cfg.arrivals)
		}
	}
}
