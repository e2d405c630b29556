// Package producer fills the queues of package queue.
package producer

import (
	"context"

	"golang.org/x/sync/semaphore"

	"unboundedqueue/queuefacts/queue"
)

type server struct {
	q      *queue.Queue
	ev     *queue.Events
	batch  *queue.Batch
	bq     *queue.Bounded
	win    *queue.Window
	st     *queue.Stack
	locked *queue.Locked
	sem    *semaphore.Weighted
	maxLen int
}

// Producers with no bound in force.
func (s *server) onMessage(m string) {
	s.q.Push(m) // want `\(\*queue.Queue\).Push never refuses`
}

func (s *server) onEvent(v int) {
	s.ev.Add(v) // want `\(\*queue.Events\).Add never refuses`
}

func (s *server) onSample(v int) {
	s.batch.Put(v) // want `\(\*queue.Batch\).Put never refuses`
}

// Safe twins.

// The producer checks the length through the type's own method first.
func (s *server) onMessageChecked(m string) bool {
	if s.q.Len() >= s.maxLen {
		return false
	}
	s.q.Push(m) // why: producer-length-check
	return true
}

// A push that refuses when full, a store bounded by its own helper, a
// store that is no queue, a type that locks for itself (reported in its
// own package): no fact, nothing to report.
func (s *server) others(m string) error {
	s.win.Push(m)
	s.st.Push(m)
	s.locked.Push(m)
	return s.bq.Push(m)
}

// A limit on the producer: it holds a semaphore slot while it pushes.
func (s *server) onMessageLimited(ctx context.Context, m string) error {
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	s.q.Push(m) // why: producer-limit
	return nil
}

// A batch copied from its input: the queue grows with the input, not with
// a producer's rate.
func (s *server) load(ms []string) {
	for _, m := range ms {
		s.q.Push(m) // why: batch-fill
	}
}

// The caller waits after the push: each queued item has a caller parked
// with it.
func (s *server) call(m string, done <-chan struct{}) {
	s.q.Push(m) // why: caller-waits
	<-done
}

// A near miss: an emptiness test through the type's method bounds nothing.
func (s *server) onMessageWake(m string, wake func()) {
	if s.q.Len() == 0 {
		wake()
	}
	s.q.Push(m) // want `\(\*queue.Queue\).Push never refuses`
}

// A comparison of what a func value returns is no length check of the
// queue (and a call with no callee must not stop the check).
func (s *server) onMessageCounted(m string, pending func() int) {
	if pending() > 100 {
		return
	}
	s.q.Push(m) // want `\(\*queue.Queue\).Push never refuses`
}
