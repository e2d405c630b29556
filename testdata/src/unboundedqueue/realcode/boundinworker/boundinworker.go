// Package boundinworker is a false listfifo finding from the corpus run:
// github.com/temporalio/temporal, service/worker/scanner/executor/runq.go,
// (*threadSafeList).add, called through (*runQueue).addAndDefer from
// executor.go, (*fixedPoolExecutor).worker.
//
// The list has no length check where it is pushed to, but its only caller's
// caller compares the length (through a method that returns list.Len())
// with a limit before it pushes, and drops the task otherwise. The bound is
// two calls up, read through a method: no finding is wanted.
package boundinworker

import (
	"container/list"
	"sync"
)

type Task interface{ Run() (deferred bool) }

type threadSafeList struct {
	sync.Mutex
	list *list.List
}

func (tl *threadSafeList) add(t Task) {
	tl.Lock()
	defer tl.Unlock()
	tl.list.PushBack(t) // no finding wanted
}

func (tl *threadSafeList) len() int {
	tl.Lock()
	defer tl.Unlock()
	return tl.list.Len()
}

func (tl *threadSafeList) remove() *list.Element {
	tl.Lock()
	defer tl.Unlock()
	e := tl.list.Front()
	if e != nil {
		tl.list.Remove(e)
	}
	return e
}

type runQueue struct {
	tasks    chan Task
	deferred *threadSafeList
}

func (rq *runQueue) addAndDefer(t Task) { rq.deferred.add(t) }

func (rq *runQueue) deferredCount() int { return rq.deferred.len() }

func (rq *runQueue) remove() Task {
	select {
	case t := <-rq.tasks:
		return t
	default:
		if e := rq.deferred.remove(); e != nil {
			return e.Value.(Task)
		}
	}
	return <-rq.tasks
}

type executor struct {
	runQ        *runQueue
	maxDeferred int
	dropped     int
}

func (e *executor) worker() {
	for {
		t := e.runQ.remove()
		if !t.Run() {
			continue
		}
		if e.runQ.deferredCount() < e.maxDeferred {
			e.runQ.addAndDefer(t)
		} else {
			e.dropped++
		}
	}
}
