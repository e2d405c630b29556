// Package urgent lets urgent items jump a container/list queue with
// PushFront. Dropping the oldest item when the queue is full would drop an
// urgent one, so a function that cannot reject gets a finding without a fix
// (the message says to reject by hand); one that returns an error rejects.
package urgent

import (
	"container/list"
	"sync"
)

type Broker struct {
	mu    sync.Mutex
	queue *list.List
}

func (b *Broker) Urgent(m string) {
	b.mu.Lock()
	b.queue.PushFront(m)
	b.mu.Unlock()
}

func (b *Broker) Add(m string) {
	b.mu.Lock()
	b.queue.PushBack(m) // want `list queue b.queue grows without bound: this PushBack has no Len check .*; reject items beyond a limit \(dropping the oldest would drop items pushed to jump the queue\)`
	b.mu.Unlock()
}

func (b *Broker) Submit(m string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.queue.PushBack(m) // want `list queue b.queue grows without bound`
	return nil
}

func (b *Broker) run() {
	for {
		b.mu.Lock()
		if e := b.queue.Front(); e != nil {
			b.queue.Remove(e)
		}
		b.mu.Unlock()
	}
}
