// Package jobpool holds a process-wide worker pool that callers hand jobs
// to and then wait for: to them, a call that queues behind everybody
// else's jobs and then works (the shape of tempodb's pool.RunJobs). The
// admission facts say so to the packages that call it.
package jobpool

import (
	"context"
	"errors"
	"sync"
)

type job struct {
	ctx     context.Context
	fn      func(context.Context, any) (any, error)
	payload any
	wg      *sync.WaitGroup
	results chan result
}

type result struct {
	data any
	err  error
}

// Pool runs jobs on a fixed set of workers that drain one queue.
type Pool struct {
	queue chan *job
}

func New(workers, depth int) *Pool { // want New:"work"
	p := &Pool{queue: make(chan *job, depth)}
	for range workers {
		go p.worker()
	}
	return p
}

func (p *Pool) worker() {
	for j := range p.queue {
		data, err := j.fn(j.ctx, j.payload)
		j.results <- result{data, err}
		j.wg.Done()
	}
}

// RunJobs queues one job per payload, refusing the call when the queue is
// full, and waits for them all.
func (p *Pool) RunJobs(ctx context.Context, payloads []any, fn func(context.Context, any) (any, error)) ([]any, error) { // want RunJobs:`waits JobQueue the jobs sent on p.queue and the wait for their results at jobpool.go:\d+$`
	results := make(chan result, len(payloads))
	wg := &sync.WaitGroup{}
	for _, payload := range payloads {
		wg.Add(1)
		j := &job{ctx: ctx, fn: fn, payload: payload, wg: wg, results: results}
		select {
		case p.queue <- j:
		default:
			wg.Done()
			return nil, errors.New("queue full")
		}
	}
	wg.Wait()
	close(results)
	var out []any
	for r := range results {
		if r.err == nil {
			out = append(out, r.data)
		}
	}
	return out, nil
}

// Do hands one closure to the workers' queue and waits for it to close
// done.
func (p *Pool) Do(ctx context.Context, f func()) error { // want Do:`waits JobQueue the jobs sent on p.queue and the wait for their results`
	done := make(chan struct{})
	p.queue <- &job{ctx: ctx, fn: func(context.Context, any) (any, error) { f(); close(done); return nil, nil }, wg: new(sync.WaitGroup), results: make(chan result, 1)}
	<-done
	return nil
}

// Find does its own work first and then scans on the pool: to its callers
// it waits and works all the same.
func (p *Pool) Find(ctx context.Context, ids []any) ([]any, error) { // want Find:`waits JobQueue the jobs sent on p.queue and the wait for their results at jobpool.go:\d+$`
	if len(ids) == 0 {
		return nil, nil
	}
	return p.RunJobs(ctx, ids, func(ctx context.Context, id any) (any, error) { return id, ctx.Err() })
}

// Submit hands the jobs over and returns: it does not wait, and is no
// wait to its callers.
func (p *Pool) Submit(ctx context.Context, payloads []any, fn func(context.Context, any) (any, error)) {
	for _, payload := range payloads {
		p.queue <- &job{ctx: ctx, fn: fn, payload: payload, wg: new(sync.WaitGroup), results: make(chan result, 1)}
	}
}

// Local waits on a WaitGroup its jobs do not carry: the wait is for
// something else.
func (p *Pool) Local(ctx context.Context, payloads []any, fn func(context.Context, any) (any, error)) {
	var other sync.WaitGroup
	for _, payload := range payloads {
		p.queue <- &job{ctx: ctx, fn: fn, payload: payload, wg: new(sync.WaitGroup), results: make(chan result, 1)}
	}
	other.Wait()
}

// Scanner is the interface callers hold; *Pool is its one implementation
// here, and its Scan waits on the pool and then works: so does the
// interface method, to every caller.
type Scanner interface {
	Scan(ctx context.Context, ids []any) ([]any, error) // want Scan:`waits JobQueue the jobs sent on p.queue and the wait for their results at jobpool.go:\d+$`
}

func (p *Pool) Scan(ctx context.Context, ids []any) ([]any, error) { // want Scan:`waits JobQueue`
	out, err := p.RunJobs(ctx, ids, func(ctx context.Context, id any) (any, error) { return id, nil })
	return out, err
}

// Lister has two implementations, one of which only returns what it is
// handed: no caller's time goes there, so the method waits as the other
// does, and its fact names that one.
type Lister interface {
	List(ctx context.Context, ids []any) ([]any, error) // want List:`waits JobQueue the jobs sent on p.queue and the wait for their results at jobpool.go:\d+ in \(\*jobpool.Pool\).List$`
}

type direct struct{}

func (direct) List(ctx context.Context, ids []any) ([]any, error) { return ids, nil }

func (p *Pool) List(ctx context.Context, ids []any) ([]any, error) { // want List:`waits JobQueue`
	return p.RunJobs(ctx, ids, func(ctx context.Context, id any) (any, error) { return id, nil })
}

// Runner has an implementation that works at once, running what it is
// handed, beside one that queues the work: not every implementation that
// works waits first, so the method has no fact.
type Runner interface {
	Run(ctx context.Context, ids []any, fn func(context.Context, any) (any, error)) ([]any, error)
}

type inline struct{}

func (inline) Run(ctx context.Context, ids []any, fn func(context.Context, any) (any, error)) ([]any, error) { // want Run:`^work$`
	var out []any
	for _, id := range ids {
		v, err := fn(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (p *Pool) Run(ctx context.Context, ids []any, fn func(context.Context, any) (any, error)) ([]any, error) { // want Run:`waits JobQueue`
	return p.RunJobs(ctx, ids, fn)
}

// Finder's implementations are the pool and a decorator that counts the
// calls it passes on to another Finder: the decorator's wait is its
// delegate's, so the method waits as the pool does.
type Finder interface {
	FindAll(ctx context.Context, ids []any) ([]any, error) // want FindAll:`waits JobQueue .* in \(\*jobpool.Pool\).FindAll$`
}

type counted struct {
	next  Finder
	calls int
}

func (c *counted) FindAll(ctx context.Context, ids []any) ([]any, error) { // want FindAll:`waits JobQueue`
	c.calls++
	return c.next.FindAll(ctx, ids)
}

func (p *Pool) FindAll(ctx context.Context, ids []any) ([]any, error) { // want FindAll:`waits JobQueue`
	return p.RunJobs(ctx, ids, func(ctx context.Context, id any) (any, error) { return id, nil })
}
