// Package heappipe is a false slicefifo finding from the census (rclone,
// fs/sync/pipe.go): the pipe is a FIFO without an order and a heap with
// one. Its Push is a heap's (container/heap, here, or a fork orders the
// slice by Less), not a FIFO's enqueue, and the FIFO's own append is
// followed by the token Put waits to send (caller-waits). No finding.
package heappipe

import (
	"container/heap"
	"context"
	"sync"
)

type item struct{ size int64 }

type pipe struct {
	mu      sync.Mutex
	c       chan struct{}
	queue   []item
	ordered bool
}

func (p *pipe) Len() int           { return len(p.queue) }
func (p *pipe) Less(i, j int) bool { return p.queue[i].size < p.queue[j].size }
func (p *pipe) Swap(i, j int)      { p.queue[i], p.queue[j] = p.queue[j], p.queue[i] }

func (p *pipe) Push(x any) {
	p.queue = append(p.queue, x.(item)) // no finding wanted: a heap's push
}

func (p *pipe) Pop() any {
	old := p.queue
	n := len(old)
	it := old[n-1]
	p.queue = old[:n-1]
	return it
}

func (p *pipe) Put(ctx context.Context, it item) bool {
	p.mu.Lock()
	if p.ordered {
		heap.Push(p, it)
	} else {
		p.queue = append(p.queue, it) // no finding wanted: the caller waits for a token after
	}
	p.mu.Unlock()
	select {
	case <-ctx.Done():
		return false
	case p.c <- struct{}{}:
	}
	return true
}

func (p *pipe) Get(ctx context.Context) (item, bool) {
	select {
	case <-ctx.Done():
		return item{}, false
	case <-p.c:
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ordered {
		it := p.queue[0]
		p.queue = p.queue[1:]
		return it, true
	}
	return heap.Pop(p).(item), true
}
