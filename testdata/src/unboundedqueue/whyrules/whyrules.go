// Package whyrules holds a case for each rule of the queue kinds that no
// other package of the testdata reaches: -unboundedqueue.why says the rule
// at the line of its "// why:" comment.
package whyrules

import (
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

type event struct{ name string }

// A history keeps the last events: its only re-slice keeps the last N.
type history struct {
	mu     sync.Mutex
	events []event
}

func (h *history) add(e event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, e) // why: keeps-last-n
	if len(h.events) > 100 {
		h.events = h.events[len(h.events)-100:]
	}
}

func (h *history) last() []event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]event(nil), h.events...)
}

func refresh() error { return nil }

// startRefresher starts one goroutine per call, in no loop and no
// request's handler: no spawn kind counts it.
func startRefresher() {
	go func() { // why: not-in-loop
		for range time.Tick(time.Minute) {
			_ = refresh()
		}
	}()
}

// retryAll polls a fixed number of times, a group's Go per round: the loop
// takes no item, so no spawn kind counts its goroutines.
func retryAll() error {
	var g errgroup.Group
	for i := 0; i < 3; i++ {
		g.Go(refresh) // why: not-per-item
	}
	return g.Wait()
}
