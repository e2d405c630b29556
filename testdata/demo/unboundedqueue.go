package demo

import (
	"container/list"
	"context"
	"sync"
)

// unboundedqueueJob is one unit of work for the thumbnailer.
type unboundedqueueJob struct {
	ID    uint64
	Image []byte
}

// unboundedqueueThumbnailer accepts uploads faster than it can render them.
type unboundedqueueThumbnailer struct {
	mu      sync.Mutex
	pending []unboundedqueueJob // slicefifo: Submit appends, render dequeues
	retries *list.List          // listfifo: Retry pushes, render removes the front
	done    chan uint64
	uploads chan unboundedqueueJob
}

// Submit queues an upload; nothing bounds how many wait.
func (t *unboundedqueueThumbnailer) Submit(j unboundedqueueJob) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pending = append(t.pending, j)
}

// Retry queues a failed job for another attempt.
func (t *unboundedqueueThumbnailer) Retry(j unboundedqueueJob) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.retries.PushBack(j)
}

// render is the one consumer of both queues.
func (t *unboundedqueueThumbnailer) render() {
	for {
		t.mu.Lock()
		var j unboundedqueueJob
		switch {
		case len(t.pending) > 0:
			j, t.pending = t.pending[0], t.pending[1:]
		case t.retries.Len() > 0:
			e := t.retries.Front()
			t.retries.Remove(e)
			j = e.Value.(unboundedqueueJob)
		default:
			t.mu.Unlock()
			return
		}
		t.mu.Unlock()
		t.finished(j.ID)
	}
}

// finished reports a rendered job without making the renderer wait: each
// call parks a goroutine while the notifier is behind (goroutinepersend).
func (t *unboundedqueueThumbnailer) finished(id uint64) {
	go func() { t.done <- id }()
}

// notify drains the completions.
func (t *unboundedqueueThumbnailer) notify() {
	for id := range t.done {
		_ = id
	}
}

// ingest starts a goroutine per upload: the uploads channel never fills, so
// it never slows the uploader down (goroutineperitem).
func (t *unboundedqueueThumbnailer) ingest(ctx context.Context) {
	for {
		select {
		case j := <-t.uploads:
			go t.Submit(j)
		case <-ctx.Done():
			return
		}
	}
}

// Start runs the pipeline.
func (t *unboundedqueueThumbnailer) Start(ctx context.Context) {
	go t.ingest(ctx)
	go t.render()
	go t.notify()
}
