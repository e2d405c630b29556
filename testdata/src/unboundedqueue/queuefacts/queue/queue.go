// Package queue holds queue types that other packages fill: the fact of
// each push says whether it refuses, and package producer is checked
// against it.
package queue

import (
	"container/list"
	"errors"
	"sync"
)

// Queue's push never refuses and Pop drains: unbounded unless its callers
// bound it. It leaves locking to its callers, so in this package it is no
// queue between goroutines (not-shared): only its callers show the bound
// that is missing.
type Queue struct {
	items []string
}

func (q *Queue) Push(s string) {
	q.items = append(q.items, s)
}

func (q *Queue) Pop() (string, bool) {
	if len(q.items) == 0 {
		return "", false
	}
	s := q.items[0]
	q.items = q.items[1:]
	return s, true
}

func (q *Queue) Len() int {
	return len(q.items)
}

// Events is a list queue whose push never refuses either.
type Events struct {
	l *list.List
}

func (e *Events) Add(v int) {
	e.l.PushBack(v)
}

func (e *Events) Next() (int, bool) {
	f := e.l.Front()
	if f == nil {
		return 0, false
	}
	e.l.Remove(f)
	return f.Value.(int), true
}

// Batch is taken whole and reset: a swap-and-drain pair.
type Batch struct {
	buf []int
}

func (b *Batch) Put(v int) {
	b.buf = append(b.buf, v)
}

func (b *Batch) Take() []int {
	out := b.buf
	b.buf = nil
	return out
}

var ErrFull = errors.New("queue full")

// Bounded's push refuses when full: no fact.
type Bounded struct {
	items []string
	max   int
}

func (q *Bounded) Push(s string) error {
	if len(q.items) >= q.max {
		return ErrFull
	}
	q.items = append(q.items, s)
	return nil
}

func (q *Bounded) Pop() string {
	s := q.items[0]
	q.items = q.items[1:]
	return s
}

// Window's store is bounded by a helper of its own that drops the oldest:
// no fact.
type Window struct {
	items []string
}

const windowSize = 100

func (w *Window) Push(s string) {
	w.items = append(w.items, s)
	w.trim()
}

func (w *Window) trim() {
	if len(w.items) > windowSize {
		w.items = w.items[len(w.items)-windowSize:]
	}
}

func (w *Window) Pop() string {
	s := w.items[0]
	w.items = w.items[1:]
	return s
}

// Stack has no pop that drains from the other end... it has none at all:
// a store that only grows is not a queue to these facts.
type Stack struct {
	items []string
}

func (s *Stack) Push(v string) { s.items = append(s.items, v) }

func (s *Stack) All() []string { return s.items }

// Locked locks for its callers: a queue between goroutines in this
// package, where the queue kinds report its append. It has no fact, so its
// callers are not reported a second time.
type Locked struct {
	mu    sync.Mutex
	items []string
}

func (q *Locked) Push(s string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, s) // want `slice queue q.items grows without bound`
}

func (q *Locked) Pop() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	s := q.items[0]
	q.items = q.items[1:]
	return s
}

// Records aggregates record batches into one (cut down from a log
// database's query engine, an arrow record aggregator): Append adds a
// batch, Aggregate combines them, Reset empties the store whole for the
// next batch. The fact says its pop empties it whole; at its callers it is
// a batch builder, filled and flushed by one owner.
type Records struct {
	records []string
	rows    int64
}

func (r *Records) Append(rec string) {
	r.records = append(r.records, rec)
	r.rows++
}

func (r *Records) Aggregate() (string, error) {
	if len(r.records) == 0 {
		return "", errors.New("no records to flush")
	}
	out := ""
	for _, rec := range r.records {
		out += rec
	}
	return out, nil
}

func (r *Records) Reset() {
	clear(r.records)
	r.records = r.records[:0]
	r.rows = 0
}

// Timer times one operation as named phases and flushes the rows when the
// operation ends (cut down from the same engine's phase timer): Phase,
// Observe and Region append a row, Done emits them all and empties the
// store. One Timer lives for one call or one request.
type Timer struct {
	emit    func(phase string, d int64)
	cur     string
	open    int64
	inPhase bool
	rows    []row
}

type row struct {
	phase string
	dur   int64
}

func (t *Timer) Phase(p string, now int64) {
	if t == nil || t.emit == nil {
		return
	}
	if t.inPhase {
		t.rows = append(t.rows, row{phase: t.cur, dur: now - t.open})
	}
	t.cur, t.open, t.inPhase = p, now, true
}

func (t *Timer) Observe(p string, d int64) {
	if t == nil || t.emit == nil || d < 0 {
		return
	}
	t.rows = append(t.rows, row{phase: p, dur: d})
}

func (t *Timer) Done() {
	if t == nil || t.emit == nil {
		return
	}
	for _, r := range t.rows {
		t.emit(r.phase, r.dur)
	}
	t.emit = nil
	t.rows = t.rows[:0]
}
