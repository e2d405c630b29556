// Package deque is a stand-in for github.com/gammazero/deque: a generic
// ring-buffer double-ended queue that grows as needed and has no capacity
// limit of its own.
package deque

type Deque[T any] struct {
	buf        []T
	head, tail int
	count      int
	minCap     int
}

func (q *Deque[T]) SetBaseCap(n int) { q.minCap = n }

func (q *Deque[T]) Len() int { return q.count }

func (q *Deque[T]) PushBack(v T) {
	q.grow()
	q.buf[q.tail] = v
	q.tail = (q.tail + 1) % len(q.buf)
	q.count++
}

func (q *Deque[T]) PushFront(v T) {
	q.grow()
	q.head = (q.head - 1 + len(q.buf)) % len(q.buf)
	q.buf[q.head] = v
	q.count++
}

func (q *Deque[T]) PopFront() T {
	if q.count == 0 {
		panic("deque: PopFront() called on empty queue")
	}
	var zero T
	v := q.buf[q.head]
	q.buf[q.head] = zero
	q.head = (q.head + 1) % len(q.buf)
	q.count--
	return v
}

func (q *Deque[T]) Front() T { return q.buf[q.head] }

func (q *Deque[T]) grow() {
	if q.count < len(q.buf) {
		return
	}
	n := len(q.buf) * 2
	if n == 0 {
		n = max(q.minCap, 16)
	}
	nb := make([]T, n)
	for i := 0; i < q.count; i++ {
		nb[i] = q.buf[(q.head+i)%len(q.buf)]
	}
	q.buf, q.head, q.tail = nb, 0, q.count
}
