// Package fillthendrain is a false slicefifo finding from the corpus run:
// github.com/syncthing/syncthing, lib/model/queue.go, (*jobQueue).Push, used
// by lib/model/folder_sendrecv.go, (*sendReceiveFolder).processNeeded.
//
// The queue is a work list of one pass: a single function first fills it
// from its input (the files the index says are needed) and then drains it,
// in the same goroutine, and resets it when the pass ends. Its length is
// bounded by the input, like a local BFS queue; the mutex is there only
// because other goroutines read the list (progress reports) and reorder it
// (BringToFront), not because producers and a consumer race. The check
// stays silent: nothing arrives while it drains, so there is no rate to
// outpace.
package fillthendrain

import "sync"

type jobQueue struct {
	mu     sync.Mutex
	queued []string
}

func (q *jobQueue) Push(name string) {
	q.mu.Lock()
	q.queued = append(q.queued, name) // why: drained-by-callers; no finding wanted
	q.mu.Unlock()
}

func (q *jobQueue) Pop() (string, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.queued) == 0 {
		return "", false
	}
	name := q.queued[0]
	q.queued = q.queued[1:]
	return name, true
}

// Jobs is what a status page reads while a pass runs.
func (q *jobQueue) Jobs() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]string(nil), q.queued...)
}

func (q *jobQueue) Reset() {
	q.mu.Lock()
	q.queued = nil
	q.mu.Unlock()
}

type folder struct{ queue jobQueue }

// pull is one pass: fill from the needed files, then drain.
func (f *folder) pull(needed []string, fetch func(string) error) error {
	defer f.queue.Reset()
	for _, name := range needed {
		f.queue.Push(name)
	}
	for {
		name, ok := f.queue.Pop()
		if !ok {
			return nil
		}
		if err := fetch(name); err != nil {
			return err
		}
	}
}
