// Package cancelled queues retries whose function literal uses a deadline
// the queuing function cancels when it returns: the retry runs after that.
package cancelled

import (
	"context"
	"errors"
	"time"
)

type store interface {
	Complete(ctx context.Context, id string) error
}

type request struct {
	fn  func() error
	msg string
}

type processor struct {
	store store
	sync  chan *request
}

// complete queues a retry of the write under ctx, which its deferred
// cancel ends before the syncer takes the retry.
func (p *processor) complete(deadline time.Time, id string) {
	ctx, cancel := context.WithDeadline(context.Background(), deadline) // want `the deadline from context.WithDeadline is cancelled when complete returns \(defer cancel\(\)\), but the job queued on p.sync runs a function literal that uses ctx: the job runs after the return, when a consumer takes it, so the queue eats the whole budget and the work starts with its context already done`
	defer cancel()
	if err := p.store.Complete(ctx, id); err != nil {
		p.sync <- &request{
			fn:  func() error { return p.store.Complete(ctx, id) },
			msg: err.Error(),
		}
	}
}

// The twin: the function waits for the queued job's reply.
func (p *processor) completeAndWait(id string, done chan error) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	p.sync <- &request{fn: func() error { return p.store.Complete(ctx, id) }}
	return <-done
}

// The twin: the queued literal makes its own context when it runs.
func (p *processor) completeLater(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := p.store.Complete(ctx, id); err != nil {
		p.sync <- &request{fn: func() error {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			return p.store.Complete(ctx, id)
		}}
	}
}

// The twin: a channel of this call, which it drains itself.
func (p *processor) completeLocal(id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	jobs := make(chan func() error, 1)
	jobs <- func() error { return p.store.Complete(ctx, id) }
	if f := <-jobs; f != nil {
		return f()
	}
	return errors.New("no job")
}
