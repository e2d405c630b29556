// Package ring is a fixed-capacity ring buffer: PushBack overwrites the
// oldest item when full.
package ring

type Ring[T any] struct {
	buf        []T
	head, size int
}

func New[T any](capacity int) *Ring[T] { return &Ring[T]{buf: make([]T, capacity)} }

func (r *Ring[T]) Len() int { return r.size }

func (r *Ring[T]) PushBack(v T) {
	r.buf[(r.head+r.size)%len(r.buf)] = v
	if r.size == len(r.buf) {
		r.head = (r.head + 1) % len(r.buf)
		return
	}
	r.size++
}

func (r *Ring[T]) PopFront() T {
	v := r.buf[r.head]
	var zero T
	r.buf[r.head] = zero
	r.head = (r.head + 1) % len(r.buf)
	r.size--
	return v
}
