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
	agg    *queue.Records
	next   func() (string, bool)
}

// Producers with no bound in force.
func (s *server) onMessage(m string) {
	s.q.Push(m) // want `\(\*queue.Queue\).Push never refuses`
}

func (s *server) onEvent(v int) {
	s.ev.Add(v) // want `\(\*queue.Events\).Add never refuses`
}

// Batch's Take empties the store whole: a FIFO by whole batches here,
// because a consumer other than the producer runs it, in a goroutine.
func (s *server) onSample(v int) {
	s.batch.Put(v) // want `\(\*queue.Batch\).Put never refuses \(it appends to its slice .buf, which Take empties in a consumer of this package`
}

func (s *server) flusher(send func([]int)) {
	for {
		send(s.batch.Take())
	}
}

func (s *server) start(send func([]int)) {
	go s.flusher(send)
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

// Batch builders: a type whose pop empties its store whole, run by no
// consumer other than the producer. The cases below are cut down from a
// log database's query engine, where the first version of these facts
// reported each of them and none was a hazard.

// The producer builds a batch and takes it whole itself: its own Take is
// the flush, and s.batch's consumer (flusher) empties another value.
func (s *server) collect(vals <-chan int) []int {
	b := &queue.Batch{}
	for v := range vals {
		b.Put(v) // why: batch-builder
	}
	return b.Take()
}

// A batching pipeline's Read accumulates records until a row count is
// reached, then aggregates them: the same owner fills the aggregator and
// flushes it on each Read (the real code's Reset runs in the same
// pipeline), and no goroutine of the package empties it.
func (s *server) read() (string, error) {
	var count int64
	for {
		rec, ok := s.next()
		if !ok {
			break
		}
		s.agg.Append(rec) // why: batch-builder
		count++
		if count >= 1024 {
			break
		}
	}
	return s.agg.Aggregate()
}

// A phase timer lives for one call: its rows are the call's phases,
// emitted by the deferred Done.
func (s *server) send(emit func(string, int64), write func() error) error {
	t := &queue.Timer{}
	defer t.Done()
	t.Phase("serialize", 1) // why: batch-builder
	t.Phase("write", 2)     // why: batch-builder
	if err := write(); err != nil {
		return err
	}
	t.Phase("flush", 3) // why: batch-builder
	return nil
}

// A wrapper that holds a timer for one received frame, and a handler that
// is handed the request's timer: each is flushed by the owner of the
// request (receiveTimer.Done, the caller of handle).
type receiveTimer struct{ t *queue.Timer }

func (r receiveTimer) Observe(p string, d int64) { r.t.Observe(p, d) } // why: batch-builder

func (r receiveTimer) Done() { r.t.Done() }

func handle(phases *queue.Timer, d int64) {
	phases.Observe("source-write-wait", d) // why: batch-builder
}
