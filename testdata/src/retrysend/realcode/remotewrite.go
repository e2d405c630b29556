// Package realcode holds cut-downs of retry loops found in real services.
package realcode

import (
	"sync"
	"time"
)

// Prometheus remote write (storage/remote/queue_manager.go): the loop
// retries shards.enqueue, which takes the shards' read lock and calls
// queue.Append, whose select sends the full batch or undoes the append and
// returns false.

type timeSeries struct {
	ref   uint64
	value float64
}

type queue struct {
	batchMtx   sync.Mutex
	batch      []timeSeries
	batchQueue chan []timeSeries
}

func (q *queue) Append(datum timeSeries) bool {
	q.batchMtx.Lock()
	defer q.batchMtx.Unlock()
	q.batch = append(q.batch, datum)
	if len(q.batch) == cap(q.batch) {
		select {
		case q.batchQueue <- q.batch:
			q.batch = make([]timeSeries, 0, cap(q.batch))
			return true
		default:
			// Remove the sample we just appended. It will get retried.
			q.batch = q.batch[:len(q.batch)-1]
			return false
		}
	}
	return true
}

type counter struct{ n int }

func (c *counter) Inc() { c.n++ }

type shards struct {
	mtx          sync.RWMutex
	queues       []*queue
	softShutdown chan struct{}
	enqueued     counter
}

func (s *shards) enqueue(ref uint64, data timeSeries) bool {
	s.mtx.RLock()
	defer s.mtx.RUnlock()
	shard := ref % uint64(len(s.queues))
	select {
	case <-s.softShutdown:
		return false
	default:
		appended := s.queues[shard].Append(data)
		if !appended {
			return false
		}
		s.enqueued.Inc()
		return true
	}
}

type config struct{ MaxBackoff time.Duration }

type QueueManager struct {
	shards  *shards
	quit    chan struct{}
	cfg     config
	retries counter
}

type sample struct {
	Ref uint64
	V   float64
}

func (t *QueueManager) Append(samples []sample) bool {
outer:
	for _, s := range samples {
		backoff := 5 * time.Millisecond
		for { // want `loop retries a non-blocking send on queue.batchQueue through \(\*realcode.shards\).enqueue until it succeeds, sleeping between attempts: it adds latency and lets work pile up upstream instead of pushing back; give enqueue a variant that waits for room on the channel, and call it once instead`
			select {
			case <-t.quit:
				return false
			default:
			}
			if t.shards.enqueue(s.Ref, timeSeries{ref: s.Ref, value: s.V}) {
				continue outer
			}

			t.retries.Inc()
			time.Sleep(backoff)
			backoff *= 2
			if backoff > t.cfg.MaxBackoff {
				backoff = t.cfg.MaxBackoff
			}
		}
	}
	return true
}

// The same loop around queue.Append directly.
func (t *QueueManager) appendOne(q *queue, s sample) {
	for !q.Append(timeSeries{ref: s.Ref, value: s.V}) { // want `loop retries a non-blocking send on q.batchQueue through \(\*realcode.queue\).Append until it succeeds, sleeping 10ms between attempts`
		time.Sleep(10 * time.Millisecond)
	}
}

// Negative: a pool that says no when it is closed, not when it is full:
// false does not come from a full channel.
type closablePool struct {
	mu     sync.Mutex
	closed bool
	items  chan timeSeries
}

func (p *closablePool) offer(x timeSeries) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	select {
	case p.items <- x:
		return true
	default:
		return false
	}
}

// offer says no when closed too: retrying it would spin forever after a
// close, and the loop is not a plain bypass. Its fact is not a try-send.
func (t *QueueManager) retryClosable(p *closablePool, x timeSeries) {
	for !p.offer(x) {
		time.Sleep(time.Millisecond)
	}
}

// Negative: the helper blocks on its own send when the batch is full; the
// false result means a validation failure, not a full channel.
type blockingQueue struct {
	batch []timeSeries
	out   chan []timeSeries
}

func (q *blockingQueue) add(x timeSeries) bool {
	if x.ref == 0 {
		return false
	}
	q.batch = append(q.batch, x)
	if len(q.batch) == cap(q.batch) {
		q.out <- q.batch
		q.batch = nil
	}
	return true
}

func (t *QueueManager) retryBlocking(q *blockingQueue, x timeSeries) {
	for !q.add(x) {
		time.Sleep(time.Millisecond)
	}
}

// Negative: a wake-up channel: a full one already holds the news.
type notifier struct {
	pending []timeSeries
	wake    chan struct{}
}

func (n *notifier) push(x timeSeries) bool {
	n.pending = append(n.pending, x)
	select {
	case n.wake <- struct{}{}:
		return true
	default:
		return false
	}
}

func (t *QueueManager) retryWake(n *notifier, x timeSeries) {
	for !n.push(x) {
		time.Sleep(time.Millisecond)
	}
}
