// Package scoped times work behind admission waits with the stopwatches of
// a metrics scope it holds as an interface (waittiming/scoped/scope): the
// interface method's fact, from the implementations its package declares,
// says StartTimer starts a timer.
package scoped

import (
	"context"

	"golang.org/x/sync/semaphore"

	"waittiming/scoped/scope"
)

type processor struct {
	sem   *semaphore.Weighted
	scope scope.Scope
	lapse scope.Lapse
}

func work(ctx context.Context) error { return ctx.Err() }

// process times the wait for a slot with the work.
func (p *processor) process(ctx context.Context) error {
	sw := p.scope.StartTimer("process")
	defer sw.Stop() // want `the timer sw started by p.scope.StartTimer spans the wait in \(\*semaphore.Weighted\).Acquire and the work after it`
	if err := p.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer p.sem.Release(1)
	return work(ctx)
}

// afterSlot starts the stopwatch once the slot is taken.
func (p *processor) afterSlot(ctx context.Context) error {
	if err := p.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer p.sem.Release(1)
	sw := p.scope.StartTimer("run")
	defer sw.Stop()
	return work(ctx)
}

// lapsed stops a stopwatch that an implementation may have started long
// before: no start the check can place.
func (p *processor) lapsed(ctx context.Context) error {
	sw := p.lapse.StartTimer("lap")
	defer sw.Stop() // why: start-elsewhere
	if err := p.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer p.sem.Release(1)
	return work(ctx)
}

// global times the wait with the default scope's stopwatch.
func (p *processor) global(ctx context.Context) error {
	sw := scope.StartTimer("global")
	defer sw.Stop() // want `the timer sw started by scope.StartTimer spans the wait in \(\*semaphore.Weighted\).Acquire and the work after it`
	if err := p.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer p.sem.Release(1)
	return work(ctx)
}

// picked stops a stopwatch that may have been kept from before.
func (p *processor) picked(ctx context.Context, kept scope.Stopwatch) error {
	sw := scope.Pick(false, kept)
	defer sw.Stop()
	if err := p.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer p.sem.Release(1)
	return work(ctx)
}
