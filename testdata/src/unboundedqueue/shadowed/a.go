// Package shadowed declares a queue in one file and fills it in another,
// in a function with a parameter called maxJobs. The fix declares the
// queue's limit beside the queue, here, and compares against it there: a
// limit called maxJobs would mean the parameter at the comparison.
package shadowed

import "sync"

type job struct{ id int }

type worker struct {
	mu   sync.Mutex
	jobs []job
}

func (w *worker) next() (j job, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if ok = len(w.jobs) > 0; ok {
		j, w.jobs = w.jobs[0], w.jobs[1:]
	}
	return j, ok
}
