// Package indexfifo covers queues that advance indexes: maps used as FIFOs
// and ring buffers that grow when full.
package indexfifo

import (
	"errors"
	"sync"
)

type msg struct{ body string }

// Positive: a map FIFO; the enqueue cannot reject, so it drops the oldest.
type mailbox struct {
	mu         sync.Mutex
	items      map[int]msg
	head, tail int
}

func (m *mailbox) put(x msg) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.items[m.tail] = x // want `map queue m.items grows without bound: this store has no length check while \(\*mailbox\).take deletes from its head`
	m.tail++
}

func (m *mailbox) take() (msg, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	x, ok := m.items[m.head]
	if !ok {
		return msg{}, false
	}
	delete(m.items, m.head)
	m.head++
	return x, true
}

// Positive: a map FIFO whose enqueue returns an error: it rejects.
type journal struct {
	mu          sync.Mutex
	entries     map[uint64]string
	first, next uint64
}

func (j *journal) Append(e string) (uint64, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries[j.next] = e // want `map queue j.entries grows without bound`
	j.next++
	return j.next - 1, nil
}

func (j *journal) trim() {
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.entries, j.first)
	j.first += 1
}

// Positive: a ring that doubles when full instead of rejecting.
type ring struct {
	mu      sync.Mutex
	buf     []msg
	head, n int
}

func (r *ring) Push(x msg) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == len(r.buf) {
		r.grow()
	}
	r.buf[(r.head+r.n)%len(r.buf)] = x // want `ring buffer r.buf grows without bound: when it is full this function makes it larger`
	r.n++
	return nil
}

func (r *ring) grow() {
	bigger := make([]msg, 2*len(r.buf)+1)
	for i := range r.n {
		bigger[i] = r.buf[(r.head+i)%len(r.buf)]
	}
	r.buf, r.head = bigger, 0
}

func (r *ring) Pop() (msg, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == 0 {
		return msg{}, false
	}
	x := r.buf[r.head]
	r.head = (r.head + 1) % len(r.buf)
	r.n--
	return x, true
}

// Positive: a ring that appends when full, and cannot reject: reported
// without a fix (dropping the oldest needs the ring's own bookkeeping).
type events struct {
	mu         sync.Mutex
	ring       []string
	rpos, wpos int
	full       bool
}

func (e *events) add(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.full {
		e.ring = append(e.ring[e.rpos:], e.ring[:e.rpos]...)
		e.ring = append(e.ring, make([]string, len(e.ring))...)
		e.rpos, e.wpos, e.full = 0, len(e.ring)/2, false
	}
	e.ring[e.wpos] = s // want `ring buffer e.ring grows without bound`
	e.wpos = (e.wpos + 1) % len(e.ring)
	e.full = e.wpos == e.rpos
}

func (e *events) next() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.ring[e.rpos]
	e.rpos = (e.rpos + 1) % len(e.ring)
	return s
}

// Negatives.

// A map FIFO bounded by its counters.
func (m *mailbox) tryPut(x msg) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tail-m.head >= 100 {
		return false
	}
	m.items[m.tail] = x
	m.tail++
	return true
}

// A map FIFO bounded by its length.
type outbox struct {
	mu         sync.Mutex
	items      map[int]msg
	head, tail int
}

func (o *outbox) put(x msg) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.items) >= 1000 {
		return errors.New("outbox full")
	}
	o.items[o.tail] = x
	o.tail++
	return nil
}

func (o *outbox) take() {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.items, o.head)
	o.head++
}

// A ring that overwrites the oldest when full: fixed size.
type history struct {
	mu   sync.Mutex
	buf  []msg
	next int
}

func (h *history) add(x msg) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.buf[h.next%len(h.buf)] = x
	h.next++
}

func (h *history) last() msg {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.buf[(h.next-1)%len(h.buf)]
}

// A ring that grows up to a limit and rejects beyond it.
type capped struct {
	mu      sync.Mutex
	buf     []msg
	head, n int
	max     int
}

func (c *capped) Push(x msg) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == len(c.buf) {
		if len(c.buf) >= c.max {
			return errors.New("full")
		}
		bigger := make([]msg, 2*len(c.buf))
		copy(bigger, c.buf[c.head:])
		copy(bigger[len(c.buf)-c.head:], c.buf[:c.head])
		c.buf, c.head = bigger, 0
	}
	c.buf[(c.head+c.n)%len(c.buf)] = x
	c.n++
	return nil
}

func (c *capped) Pop() msg {
	c.mu.Lock()
	defer c.mu.Unlock()
	x := c.buf[c.head]
	c.head = (c.head + 1) % len(c.buf)
	c.n--
	return x
}

// A growing ring that only one goroutine uses (a congestion controller's
// sample window): nothing shares it, no producer outpaces a consumer.
type window struct {
	ring             []int
	headPos, tailPos int
	full             bool
}

func (w *window) PushBack(v int) {
	if w.full || len(w.ring) == 0 {
		w.ring = append(w.ring, make([]int, len(w.ring)+1)...)
	}
	w.ring[w.tailPos] = v
	w.tailPos = (w.tailPos + 1) % len(w.ring)
	w.full = w.tailPos == w.headPos
}

func (w *window) PopFront() int {
	v := w.ring[w.headPos]
	w.headPos = (w.headPos + 1) % len(w.ring)
	w.full = false
	return v
}

// A lookup table by sequence number: entries are deleted by key, not by an
// advancing head.
type pending struct {
	mu    sync.Mutex
	calls map[uint64]chan string
	seq   uint64
}

func (p *pending) register() (uint64, chan string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	ch := make(chan string, 1)
	p.calls[p.seq] = ch // why: not-a-fifo
	return p.seq, ch
}

func (p *pending) done(id uint64, reply string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ch, ok := p.calls[id]; ok {
		ch <- reply
		delete(p.calls, id)
	}
}
