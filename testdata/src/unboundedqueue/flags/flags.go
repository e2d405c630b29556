// With -unboundedqueue.acquire naming (*unboundedqueue/flags.admission).Enter and
// -unboundedqueue.bound=256 and -unboundedqueue.inflight=16.
package flags

import "sync"

type job struct{ id int }

type admission struct{ n int }

func (a *admission) Enter() { a.n++ }

func handle(j job) {}

// A listed acquire bounds the spawns.
func admitted(a *admission, jobs <-chan job) {
	for j := range jobs {
		a.Enter()
		go handle(j)
	}
}

func plain(jobs <-chan job) {
	for j := range jobs {
		go handle(j) // want `goroutine per item received from jobs`
	}
}

type queue struct {
	mu    sync.Mutex
	items []job
}

func (q *queue) put(j job) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, j) // want `slice queue q.items grows without bound`
}

func (q *queue) get() job {
	q.mu.Lock()
	defer q.mu.Unlock()
	j := q.items[0]
	q.items = q.items[1:]
	return j
}
