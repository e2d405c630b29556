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

type sample struct{ v float64 }

// A window overwrites its oldest sample when full: a ring of a fixed size.
type window struct {
	mu      sync.Mutex
	buf     []sample
	head, n int
}

func (w *window) add(s sample) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf[(w.head+w.n)%len(w.buf)] = s // why: fixed-ring
	if w.n < len(w.buf) {
		w.n++
	} else {
		w.head = (w.head + 1) % len(w.buf)
	}
}

func (w *window) take() (sample, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n == 0 {
		return sample{}, false
	}
	s := w.buf[w.head]
	w.buf[w.head] = sample{} // why: clears-slot
	w.head = (w.head + 1) % len(w.buf)
	w.n--
	return s, true
}

// A trace grows its slice when full, but only the function that stores
// reads it back: no consumer takes from its head.
type trace struct {
	mu    sync.Mutex
	spans []sample
	next  int
}

func (t *trace) record(s sample) float64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.next == len(t.spans) {
		t.spans = append(t.spans, make([]sample, len(t.spans)+1)...)
	}
	t.spans[t.next] = s // why: no-ring-reader
	t.next++
	return t.spans[0].v
}

// A reader consumes the bytes at the front of its buffer.
type reader struct {
	mu  sync.Mutex
	buf []byte
}

func (r *reader) skip(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = r.buf[n:] // why: byte-buffer
}

// urgent puts one event in front of the history: a prepend, not a batch
// the function took from the queue and puts back.
func (h *history) urgent(e event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append([]event{e}, h.events...) // why: not-a-put-back
}

// A byteRing keeps the last bytes written: a buffer of bytes, not a queue
// of items.
type byteRing struct {
	mu  sync.Mutex
	buf []byte
	w   int
}

func (r *byteRing) put(b byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf[r.w] = b // why: byte-buffer
	r.w = (r.w + 1) % len(r.buf)
}
