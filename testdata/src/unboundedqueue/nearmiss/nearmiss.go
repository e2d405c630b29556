// Package nearmiss holds hazards that resemble the shapes the check leaves
// alone since its corpus run (package realcode): each misses the one piece of
// evidence that made those bounded.
package nearmiss

import (
	"container/list"
	"io"
	"sync"
)

type packet struct{ payload []byte }

func send(p *packet) {}

// A function literal in a local variable that does not loop: a task per
// packet, not a reader per connection.
func forward(in <-chan *packet) {
	deliver := func(p *packet) {
		send(p)
	}
	for p := range in {
		go deliver(p) // want `goroutine per item received from in`
	}
}

// Items that hold a body to close are requests, not connections.
type request struct {
	Body io.ReadCloser
}

func serve(in <-chan request) {
	for r := range in {
		go func() { // want `goroutine per item received from in`
			_, _ = io.ReadAll(r.Body)
		}()
	}
}

// The goroutine reports on another channel than the loop reads: not a
// restart of the loop's own worker.
type pool struct {
	tasks   chan int
	results chan int
}

func (p *pool) run(n int) { p.results <- n * 2 }

func (p *pool) loop() {
	for n := range p.tasks {
		go p.run(n) // want `goroutine per item received from p.tasks`
	}
}

// Exported methods of an exported type: code outside the package may fill
// the queue, whatever the package's own callers do.
type WorkList struct {
	mu    sync.Mutex
	items []string
}

func (w *WorkList) Push(s string) {
	w.mu.Lock()
	w.items = append(w.items, s) // want `slice queue w.items grows without bound`
	w.mu.Unlock()
}

func (w *WorkList) Pop() (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.items) == 0 {
		return "", false
	}
	s := w.items[0]
	w.items = w.items[1:]
	return s, true
}

func process(w *WorkList, names []string) {
	for _, n := range names {
		w.Push(n)
	}
	for {
		if _, ok := w.Pop(); !ok {
			return
		}
	}
}

// A caller fills the list, another function drains it: producer and
// consumer, even though neither is exported.
type jobs struct {
	mu    sync.Mutex
	queue []string
}

func (j *jobs) push(s string) {
	j.mu.Lock()
	j.queue = append(j.queue, s) // want `slice queue j.queue grows without bound`
	j.mu.Unlock()
}

func (j *jobs) pop() (string, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.queue) == 0 {
		return "", false
	}
	s := j.queue[0]
	j.queue = j.queue[1:]
	return s, true
}

func (j *jobs) submit(s string) { j.push(s) }

func (j *jobs) worker() {
	for {
		if s, ok := j.pop(); ok {
			_ = s
		}
	}
}

// The consumer holds the lock while it takes items, but releases it to
// work: producers keep appending while it works.
type events struct {
	cond  *sync.Cond
	stack []string
}

func (e *events) record(s string) {
	e.cond.L.Lock()
	e.stack = append(e.stack, s) // want `slice queue e.stack grows without bound`
	e.cond.Broadcast()
	e.cond.L.Unlock()
}

func (e *events) deliver(write func(string)) {
	e.cond.L.Lock()
	defer e.cond.L.Unlock()
	for {
		for len(e.stack) > 0 {
			s := e.stack[0]
			e.stack = e.stack[1:]
			e.cond.L.Unlock()
			write(s)
			e.cond.L.Lock()
		}
		e.cond.Wait()
	}
}

// The caller compares the length of another list, through a method: not a
// bound on this one.
type runQueue struct {
	mu       sync.Mutex
	deferred *list.List
	other    *list.List
}

func (r *runQueue) add(t int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.deferred.PushBack(t) // want `list queue r.deferred grows without bound`
}

func (r *runQueue) otherCount() int { return r.other.Len() }

func (r *runQueue) next() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.deferred.Front()
	r.deferred.Remove(e)
	return e.Value.(int)
}

func (r *runQueue) worker(run func(int)) {
	for {
		run(r.next())
	}
}

func (r *runQueue) schedule(t int) {
	if r.otherCount() < 10 {
		r.add(t)
	}
}

// A count compared after the append bounds the workers it starts, not the
// items (temporal's execution queue scheduler): the queue of one key grows
// while its one worker runs.
type keyQueue struct {
	tasks   []func()
	workers int
}

type scheduler struct {
	mu     sync.Mutex
	queues map[string]*keyQueue
}

func (s *scheduler) submit(key string, task func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.queues[key]
	q.tasks = append(q.tasks, task) // want `slice queue q.tasks grows without bound: this append has no length check while \(\*scheduler\).run dequeues from its front`
	if q.workers < 1 {
		q.workers++
		go s.run(q)
	}
}

func (s *scheduler) run(q *keyQueue) {
	for {
		s.mu.Lock()
		if len(q.tasks) == 0 {
			q.workers--
			s.mu.Unlock()
			return
		}
		task := q.tasks[0]
		q.tasks = q.tasks[1:]
		s.mu.Unlock()
		task()
	}
}
