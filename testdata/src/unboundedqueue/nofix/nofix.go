// Package nofix holds hazards the check reports without a fix: the evidence
// is complete, but no edit is safe, so the message says what to do by hand.
package nofix

import (
	"container/list"
	"context"
	"sync"
)

type job struct{ id int }

func handle(j job)                     {}
func handlePair(j job, n int)          {}
func split(j job) (job, int)           { return j, 0 }
func (j job) urgent() bool             { return j.id < 0 }
func (j job) follow() job              { return job{j.id + 1} }
func store(ctx context.Context, j job) {}

// Urgent items jump the queue, and the function that pushes twice cannot
// reject between its pushes: dropping the oldest would drop an urgent item.
type broker struct {
	mu    sync.Mutex
	queue *list.List
}

func (b *broker) Jump(j job) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.queue.PushFront(j)
}

func (b *broker) Pair(j job) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.queue.PushBack(j)          // want `list queue b.queue grows without bound: .*; reject items beyond a limit \(dropping the oldest would drop items pushed to jump the queue\)`
	b.queue.PushBack(j.follow()) // want `list queue b.queue grows without bound`
	return nil
}

func (b *broker) run() {
	for {
		b.mu.Lock()
		if e := b.queue.Front(); e != nil {
			b.queue.Remove(e)
		}
		b.mu.Unlock()
	}
}

// The loop watches ctx.Done() but does not leave on it: an acquire must
// watch it too, and there is no way out to copy.
func draining(ctx context.Context, jobs <-chan job) {
	stopping := false
	for {
		select {
		case j := <-jobs:
			if stopping {
				store(ctx, j)
				continue
			}
			go handle(j) // want `goroutine per item received from jobs .*; acquire a semaphore before starting each one, in a select that also waits on ctx.Done\(\)`
		case <-ctx.Done():
			stopping = true
		}
	}
}

// The goroutine's arguments are a call with two results: there is no
// variable to hold them for a wrapping literal.
func pairs(jobs <-chan job) {
	for j := range jobs {
		go handlePair(split(j)) // want `goroutine per item received from jobs`
	}
}

// A goto before the loop jumps past it: the semaphore the fix would declare
// before the loop would be jumped over, which does not compile.
func skipping(jobs <-chan job, skip bool) {
	if skip {
		goto done
	}
	for j := range jobs {
		go handle(j) // want `goroutine per item received from jobs`
	}
done:
}

// The same for the copy of the pump's channel, declared before the select.
func pumpSkipping(in <-chan job, out chan<- job, skip bool) {
	var buf []job
	for {
		if skip {
			goto next
		}
		select {
		case j := <-in:
			buf = append(buf, j) // want `pump buffer buf grows without bound`
		case out <- buf[0]:
			buf = buf[1:]
		}
	next:
	}
}

// A goto in the loop jumps past the spawn, whose argument does work: the
// variable the fix would evaluate it into would be jumped over.
func skippingSome(jobs <-chan job) {
	for j := range jobs {
		if j.id < 0 {
			goto next
		}
		go handle(j.follow()) // want `goroutine per item received from jobs`
	next:
	}
}
