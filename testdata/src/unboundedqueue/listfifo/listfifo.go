package listfifo

import (
	"container/list"
	"sync"
)

type msg struct{ body string }

// Positive: PushBack in Enqueue, Remove(Front()) in the consumer goroutine.
type broker struct {
	mu    sync.Mutex
	queue *list.List
}

func (b *broker) Enqueue(m msg) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.queue.PushBack(m) // want `list queue b.queue grows without bound: this PushBack has no Len check while \(\*broker\).loop removes from its other end, so overload piles up in memory; reject or drop items beyond a limit`
}

func (b *broker) loop() {
	for {
		b.mu.Lock()
		e := b.queue.Front()
		if e != nil {
			b.queue.Remove(e)
		}
		b.mu.Unlock()
	}
}

// Positive: a package-level list value, an error-returning producer.
var (
	outboxMu sync.Mutex
	outbox   list.List
)

func Post(m msg) error {
	outboxMu.Lock()
	defer outboxMu.Unlock()
	outbox.PushFront(m) // want `list queue outbox grows without bound: this PushFront has no Len check`
	return nil
}

func flush() {
	outboxMu.Lock()
	defer outboxMu.Unlock()
	outbox.Remove(outbox.Back())
}

// Negatives.

// An LRU cache evicts in the adding function.
type lru struct {
	mu  sync.Mutex
	ll  *list.List
	max int
}

func (c *lru) add(m msg) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ll.PushFront(m)
	if c.ll.Len() > c.max {
		c.ll.Remove(c.ll.Back())
	}
}

func (c *lru) oldest() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ll.Remove(c.ll.Back())
}

// A Len check before PushBack.
type capped struct {
	mu sync.Mutex
	l  *list.List
}

func (c *capped) put(m msg) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.l.Len() >= 100 {
		return false
	}
	c.l.PushBack(m)
	return true
}

func (c *capped) take() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.l.Remove(c.l.Front())
}

// The element is kept in an index: dropping the oldest would leave it stale.
type indexed struct {
	mu    sync.Mutex
	l     *list.List
	index map[string]*list.Element
}

func (x *indexed) put(m msg) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.index[m.body] = x.l.PushBack(m) // why: keeps-element
}

func (x *indexed) take() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.l.Remove(x.l.Front())
}

// Removal of arbitrary elements (a timer list) is not a FIFO.
type timers struct {
	mu sync.Mutex
	l  *list.List
}

func (t *timers) add(m msg) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.l.PushBack(m) // why: not-a-fifo
}

func (t *timers) cancel(e *list.Element) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.l.Remove(e)
}

// A local list.
func local(ms []msg) {
	l := list.New()
	for _, m := range ms {
		l.PushBack(m)
	}
	for l.Len() > 0 {
		l.Remove(l.Front())
	}
}
