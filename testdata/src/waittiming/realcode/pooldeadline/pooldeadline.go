// Package pooldeadline is loki's distributor (pkg/distributor, Push):
// the per-ingester push deadline (RemoteTimeout) is derived before the task is handed
// to a fixed pool of push workers over an unbuffered channel, and travels with the
// task; the worker does the network call with it. Time spent waiting for a free
// worker comes out of the push's budget.
package pooldeadline

import (
	"context"
	"net"
	"sync"
	"time"
)

type task struct {
	addr   string
	ctx    context.Context
	cancel context.CancelFunc
	done   *sync.WaitGroup
}

type Distributor struct {
	tasks         chan task
	remoteTimeout time.Duration
	workers       int
}

func New(workers int, timeout time.Duration) *Distributor {
	return &Distributor{tasks: make(chan task), remoteTimeout: timeout, workers: workers}
}

func (d *Distributor) Run(ctx context.Context) {
	for i := 0; i < d.workers; i++ {
		go d.worker(ctx)
	}
}

func (d *Distributor) worker(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case t := <-d.tasks:
			d.send(t)
		}
	}
}

func (d *Distributor) send(t task) {
	defer t.cancel()
	defer t.done.Done()
	var dialer net.Dialer
	c, err := dialer.DialContext(t.ctx, "tcp", t.addr)
	if err == nil {
		c.Close()
	}
}

func (d *Distributor) Push(ctx context.Context, addrs []string) {
	var wg sync.WaitGroup
	for _, addr := range addrs {
		wg.Add(1)
		func(addr string) {
			localCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), d.remoteTimeout) // want `the timeout from context.WithTimeout starts before the hand-off to the workers of tasks and travels with the job, so time spent waiting for a free worker comes out of the work's budget; send the budget with the job and derive the deadline in the worker when it takes the job`
			select {
			case <-ctx.Done():
				cancel()
				wg.Done()
				return
			case d.tasks <- task{addr: addr, ctx: localCtx, cancel: cancel, done: &wg}:
				return
			}
		}(addr)
	}
	wg.Wait()
}

// The same through a buffered queue: the job waits there, its deadline
// running.
type Queued struct {
	jobs    chan task
	timeout time.Duration
}

func NewQueued(n int) *Queued {
	q := &Queued{jobs: make(chan task, 1024)}
	for range n {
		go func() {
			for t := range q.jobs {
				var dialer net.Dialer
				if c, err := dialer.DialContext(t.ctx, "tcp", t.addr); err == nil {
					c.Close()
				}
				t.cancel()
			}
		}()
	}
	return q
}

func (q *Queued) Submit(ctx context.Context, addr string) {
	jobCtx, cancel := context.WithTimeout(ctx, q.timeout) // want `the timeout from context.WithTimeout starts before the queue of jobs and travels with the job`
	q.jobs <- task{addr: addr, ctx: jobCtx, cancel: cancel}
}
