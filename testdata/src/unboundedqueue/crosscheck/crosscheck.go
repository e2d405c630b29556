// Package crosscheck has a full channel that retrysend fixes and a slice FIFO
// that unboundedqueue fixes, both named jobs: their sentinels must not clash
// when every fix is applied at once (TestFixSweep).
package crosscheck

import "sync"

type item struct{ n int }

type router struct{ jobs chan item }

func (r *router) Put(v item) error {
	select {
	case r.jobs <- v:
	default:
		go func() { r.jobs <- v }()
	}
	return nil
}

type backlog struct {
	mu   sync.Mutex
	jobs []item
}

func (b *backlog) Add(v item) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.jobs = append(b.jobs, v) // want `slice queue b.jobs grows without bound`
	return nil
}

func (b *backlog) take() item {
	b.mu.Lock()
	defer b.mu.Unlock()
	v := b.jobs[0]
	b.jobs = b.jobs[1:]
	return v
}
