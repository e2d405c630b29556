// Negatives, the nearest safe variants: the producer compares Len() with a limit before
// PushBack and rejects, or drops the oldest with PopFront. Must stay silent.
package dequefifo

import (
	"errors"
	"sync"

	"github.com/example/ring"
	"github.com/gammazero/deque"
)

const maxSafeOps = 1024

var errSafeFull = errors.New("queue full")

type safeOp func()

type SafeOpsQueue struct {
	lock sync.Mutex
	ops  deque.Deque[safeOp]
	wake chan struct{}
}

func (q *SafeOpsQueue) Enqueue(fn safeOp) error {
	q.lock.Lock()
	defer q.lock.Unlock()
	if q.ops.Len() >= maxSafeOps {
		return errSafeFull
	}
	q.ops.PushBack(fn)
	if q.ops.Len() == 1 {
		select {
		case q.wake <- struct{}{}:
		default:
		}
	}
	return nil
}

func (q *SafeOpsQueue) process() {
	for range q.wake {
		for {
			q.lock.Lock()
			if q.ops.Len() == 0 {
				q.lock.Unlock()
				break
			}
			fn := q.ops.PopFront()
			q.lock.Unlock()
			fn()
		}
	}
}

type SafeExtPacket struct{ Raw []byte }

type SafeBuffer struct {
	sync.Mutex
	readCond   *sync.Cond
	extPackets deque.Deque[*SafeExtPacket]
	capacity   int
}

// Write drops the oldest packet once the buffer holds capacity packets.
func (b *SafeBuffer) Write(raw []byte) {
	b.Lock()
	defer b.Unlock()
	b.extPackets.PushBack(&SafeExtPacket{Raw: raw})
	if b.extPackets.Len() > b.capacity {
		b.extPackets.PopFront()
	}
	b.readCond.Broadcast()
}

func (b *SafeBuffer) ReadExtended() *SafeExtPacket {
	b.Lock()
	defer b.Unlock()
	for {
		if b.extPackets.Len() > 0 {
			return b.extPackets.PopFront()
		}
		b.readCond.Wait()
	}
}

func NewSafeOpsQueue() *SafeOpsQueue {
	q := &SafeOpsQueue{wake: make(chan struct{}, 1)}
	go q.process()
	return q
}

// Negative: a ring of fixed capacity has a deque's methods and overwrites
// the oldest item when full.
type Events struct {
	mu     sync.Mutex
	recent *ring.Ring[string]
}

func NewEvents() *Events { return &Events{recent: ring.New[string](100)} }

func (e *Events) Record(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.recent.PushBack(s)
}

func (e *Events) Next() (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.recent.Len() == 0 {
		return "", false
	}
	return e.recent.PopFront(), true
}
