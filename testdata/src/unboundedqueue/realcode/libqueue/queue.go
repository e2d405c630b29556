// Package libqueue is mihomo's common/queue (a false alarm of an earlier
// version): a generic queue type whose Put takes items variadically and
// that only other packages call, each bounding it where it calls (Put,
// then Pop while Len() > N). The package itself never feeds it: the bound,
// if any, is out of sight.
package libqueue

import "sync"

type Queue[T any] struct {
	items []T
	lock  sync.RWMutex
}

func (q *Queue[T]) Put(items ...T) {
	if len(items) == 0 {
		return
	}
	q.lock.Lock()
	q.items = append(q.items, items...)
	q.lock.Unlock()
}

func (q *Queue[T]) Pop() T {
	var zero T
	q.lock.Lock()
	defer q.lock.Unlock()
	if len(q.items) == 0 {
		return zero
	}
	head := q.items[0]
	q.items = q.items[1:]
	return head
}

func (q *Queue[T]) Len() int64 {
	q.lock.RLock()
	defer q.lock.RUnlock()
	return int64(len(q.items))
}
