// Package queue declares try-send helpers that package app retries: app's
// findings need the admission facts queuecheck exports for them.
package queue

import "time"

// Queue has a try and a blocking send.
type Queue struct{ ch chan string }

// New returns a queue of n slots.
func New(n int) *Queue { return &Queue{ch: make(chan string, n)} }

// TryPush queues v if there is room.
func (q *Queue) TryPush(v string) bool {
	select {
	case q.ch <- v:
		return true
	default:
		return false
	}
}

// Push waits for room.
func (q *Queue) Push(v string) { q.ch <- v }

// Ring only tries.
type Ring struct{ ch chan int }

// NewRing returns a ring of n slots.
func NewRing(n int) *Ring { return &Ring{ch: make(chan int, n)} }

// TryPut queues v if there is room.
func (r *Ring) TryPut(v int) bool {
	select {
	case r.ch <- v:
		return true
	default:
		return false
	}
}

// Pause waits before the next attempt.
func Pause() { time.Sleep(5 * time.Millisecond) }
