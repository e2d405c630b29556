package fuzz

import (
	"context"
	"sync"
	"time"
)

type Queue[T any] struct {
	mu    sync.Mutex
	items []T
	ch    chan T
}

func (q *Queue[T]) Push(v T) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	select {
	case q.ch <- v:
	default:
		q.items = append(q.items, v)
	}
}

func (q *Queue[T]) Pop() (T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var zero T
	if len(q.items) == 0 {
		return zero, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

func Drain[K comparable, V any](ctx context.Context, in <-chan map[K]V, f func(K, V)) {
	for m := range in {
		go func() {
			for k, v := range m {
				f(k, v)
			}
		}()
	}
	start := time.Now()
	sem := make(chan struct{}, 4)
	sem <- struct{}{}
	<-sem
	_ = time.Since(start)
}

func Retry[T any](ch chan<- T, v T) {
outer:
	for {
		select {
		case ch <- v:
			break outer
		default:
			time.Sleep(time.Millisecond)
		}
	}
}
