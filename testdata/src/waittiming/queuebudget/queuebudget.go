// Package queuebudget bounds the wait for a slot of package
// admission/helpers' pool with a timeout named for the queue. That is a
// bound on the wait by design; the hazard is a context of that budget that
// goes on to the work after the wait, which then gets only what the queue
// left of it.
package queuebudget

import (
	"context"
	"io"
	"time"

	"admission/helpers"
)

var maxQueueDuration = 10 * time.Second

type proxy struct {
	pool *helpers.Pool
}

func (p *proxy) readBody(ctx context.Context, r io.Reader) ([]byte, error) { return io.ReadAll(r) }

func (p *proxy) forward(ctx context.Context, body []byte) error { return ctx.Err() }

// Serve reads the request body under what the queue left of its budget: a
// long wait for a slot ends as a body read that timed out.
func (p *proxy) Serve(parent context.Context, r io.Reader) error {
	ctx, cancel := context.WithTimeout(parent, maxQueueDuration) // want `the timeout from context\.WithTimeout is named for the queue and bounds the wait in \(\*helpers\.Pool\)\.Acquire, but its context goes on to the work after the wait`
	defer cancel()
	release, err := p.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	body, err := p.readBody(ctx, r)
	if err != nil {
		return err
	}
	return p.forward(parent, body)
}

// Bounded keeps the queue's budget for the wait: the work runs under the
// caller's context.
func (p *proxy) Bounded(parent context.Context, r io.Reader) error {
	ctx, cancel := context.WithTimeout(parent, maxQueueDuration)
	defer cancel()
	release, err := p.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	body, err := p.readBody(parent, r)
	if err != nil {
		return err
	}
	return p.forward(parent, body)
}

// Own gives the work a budget of its own after the wait.
func (p *proxy) Own(parent context.Context, r io.Reader) error {
	qctx, qcancel := context.WithTimeout(parent, maxQueueDuration)
	defer qcancel()
	release, err := p.pool.Acquire(qctx)
	if err != nil {
		return err
	}
	defer release()
	ctx, cancel := context.WithTimeout(parent, 30*time.Second)
	defer cancel()
	body, err := p.readBody(ctx, r)
	if err != nil {
		return err
	}
	return p.forward(ctx, body)
}
