// Package putback covers batches taken from a queue and put back in front
// of it when their delivery fails.
package putback

import (
	"errors"
	"log"
	"sync"
	"time"
)

type span struct {
	at   time.Time
	name string
}

type exporter struct {
	mu      sync.Mutex
	pending []span
	send    func([]span) error
}

// The producer.
func (e *exporter) Record(s span) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.pending) < 10000 {
		e.pending = append(e.pending, s)
	}
}

// Positive: the batch goes back whole while the downstream is down.
func (e *exporter) flush() {
	e.mu.Lock()
	batch := e.pending
	e.pending = nil
	e.mu.Unlock()
	if err := e.send(batch); err != nil {
		e.mu.Lock()
		e.pending = append(batch, e.pending...) // want `put-back grows e.pending without bound: the batch goes back in front of the queue each time delivery fails`
		e.mu.Unlock()
	}
}

// Positive: what was not delivered goes back, in one swap statement.
type shipper struct {
	mu    sync.Mutex
	lines []string
	ship  func([]string) (int, error)
}

func (s *shipper) Add(l string) {
	s.mu.Lock()
	s.lines = append(s.lines, l) // want `slice queue s.lines grows without bound: .* \(\*shipper\).loop takes all its items at once`
	s.mu.Unlock()
}

func (s *shipper) loop(tick <-chan struct{}) {
	for range tick {
		s.mu.Lock()
		var batch []string
		batch, s.lines = s.lines, nil
		s.mu.Unlock()
		n, err := s.ship(batch)
		if err != nil {
			log.Print(err)
			s.mu.Lock()
			s.lines = append(batch[n:], s.lines...) // want `put-back grows s.lines without bound`
			s.mu.Unlock()
		}
	}
}

// Negatives.

// The put-back is guarded by the queue's length.
func (e *exporter) flushCapped() {
	e.mu.Lock()
	batch := e.pending
	e.pending = nil
	e.mu.Unlock()
	if err := e.send(batch); err != nil {
		e.mu.Lock()
		if len(e.pending)+len(batch) <= 10000 {
			e.pending = append(batch, e.pending...)
		}
		e.mu.Unlock()
	}
}

// Items older than a limit are dropped before the put-back.
func (e *exporter) flushAged(maxAge time.Duration) {
	e.mu.Lock()
	batch := e.pending
	e.pending = nil
	e.mu.Unlock()
	if err := e.send(batch); err != nil {
		kept := batch[:0]
		for _, s := range batch {
			if time.Since(s.at) < maxAge {
				kept = append(kept, s)
			}
		}
		e.mu.Lock()
		e.pending = append(kept, e.pending...)
		e.mu.Unlock()
	}
}

// A retry that drops the batch after a number of attempts.
type retrier struct {
	mu       sync.Mutex
	queue    []string
	attempts int
	send     func([]string) error
}

func (r *retrier) Push(s string) {
	r.mu.Lock()
	r.queue = append(r.queue, s)
	r.mu.Unlock()
}

func (r *retrier) flush() error {
	r.mu.Lock()
	batch := r.queue
	r.queue = nil
	r.mu.Unlock()
	err := r.send(batch)
	if err == nil {
		r.attempts = 0
		return nil
	}
	r.attempts++
	if r.attempts >= 5 {
		r.attempts = 0
		return errors.New("dropped a batch")
	}
	r.mu.Lock()
	r.queue = append(batch, r.queue...)
	r.mu.Unlock()
	return err
}

// Nothing else fills the queue: putting back does not grow it.
type replay struct {
	mu    sync.Mutex
	items []string
	send  func([]string) error
}

func (r *replay) retry() {
	r.mu.Lock()
	batch := r.items
	r.items = nil
	r.mu.Unlock()
	if r.send(batch) != nil {
		r.mu.Lock()
		r.items = append(batch, r.items...)
		r.mu.Unlock()
	}
}

// A merge of two local lists is not a put-back into a shared queue.
func merge(a, b []string) []string {
	a = append(b, a...)
	return a
}
