// Package whyrules holds a case for each rule of the queue kinds that no
// other package of the testdata reaches: -unboundedqueue.why says the rule
// at the line of its "// why:" comment.
package whyrules

import "sync"

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
