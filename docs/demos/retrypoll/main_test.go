package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"
)

// TestMain fails the package if run left goroutines behind.
func TestMain(m *testing.M) {
	before := runtime.NumGoroutine()
	code := m.Run()
	if code == 0 && !goroutinesSettle(before, 2*time.Second) {
		buf := make([]byte, 1<<20)
		fmt.Fprintf(os.Stderr, "goroutines left behind by run:\n%s\n", buf[:runtime.Stack(buf, true)])
		code = 1
	}
	os.Exit(code)
}

// goroutinesSettle waits for the goroutine count to drop back to n; an
// exiting goroutine is still counted for a moment after it signalled.
func goroutinesSettle(n int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

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
