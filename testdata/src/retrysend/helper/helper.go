package helper

import (
	"context"
	"errors"
	"log"
	"sync"
	"time"
)

type item struct{ n int }

type Queue struct {
	ch      chan item
	dropped int
}

// TryPut tries to queue v without waiting.
func (q *Queue) TryPut(v item) bool {
	select {
	case q.ch <- v:
		return true
	default:
		q.dropped++
		return false
	}
}

func trySend[T any](ch chan<- T, v T) bool {
	select {
	case ch <- v:
		return true
	default:
	}
	return false
}

// A retry loop around a method helper.
func put(q *Queue, v item) {
	for !q.TryPut(v) { // want `loop retries a non-blocking send on q.ch through TryPut until it succeeds, sleeping 1ms between attempts: it adds latency, ignores cancellation and lets work pile up upstream instead of pushing back; block on the send instead`
		time.Sleep(time.Millisecond)
	}
	log.Print("queued")
}

type server struct{ q *Queue }

// With a context and an error result.
func (s *server) put(ctx context.Context, v item) error {
	for !s.q.TryPut(v) { // want `loop retries a non-blocking send on s.q.ch through TryPut until it succeeds, spinning: it burns a CPU, ignores cancellation and lets work pile up upstream instead of pushing back; block on the send, with ctx.Done\(\), instead`
	}
	return nil
}

// A generic helper.
func forward(out chan int, x int) {
	for !trySend(out, x+1) { // want `loop retries a non-blocking send on out through trySend until it succeeds, spinning`
	}
}

// Negative: one try, then an error.
func offer(q *Queue, v item) error {
	if !q.TryPut(v) {
		return errors.New("full")
	}
	return nil
}

// Negative: each try sends another item.
func fill(q *Queue) {
	n := 0
	for !q.TryPut(item{n}) {
		n++
	}
}

// The helper's send uses a value the caller cannot spell: still a retry
// loop, reported without a fix.
func (q *Queue) tryNext() bool {
	select {
	case q.ch <- next():
		return true
	default:
		return false
	}
}

func next() item { return item{} }

func drainNext(q *Queue) {
	for !q.tryNext() { // want `loop retries a non-blocking send on q.ch through \(\*helper.Queue\).tryNext until it succeeds, sleeping 1ms between attempts: .*give tryNext a variant that waits for room on the channel, and call it once instead`
		time.Sleep(time.Millisecond)
	}
}

// Negative: a queue that grows its channel when full (seen in a sync queue
// library). The helper holds a lock around the select, and the loop resizes
// between attempts: neither is a retry of the same bound.
type syncQueue struct {
	resizeLock sync.RWMutex
	queue      chan item
}

func (q *syncQueue) Enqueue(v item) {
	for !q.tryEnqueue(v) {
		q.resize()
	}
}

func (q *syncQueue) tryEnqueue(v item) bool {
	q.resizeLock.RLock()
	defer q.resizeLock.RUnlock()
	select {
	case q.queue <- v:
		return true
	default:
		return false
	}
}

func (q *syncQueue) resize() {
	q.resizeLock.Lock()
	defer q.resizeLock.Unlock()
	bigger := make(chan item, 2*cap(q.queue))
	close(q.queue)
	for v := range q.queue {
		bigger <- v
	}
	q.queue = bigger
}
