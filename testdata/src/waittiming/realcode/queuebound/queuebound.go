// Package queuebound is vmauth's request path (app/vmauth/main.go,
// processUserRequest): a deadline of -maxQueueDuration, derived before the
// concurrency limit's wait, bounds the wait by design, and then the first
// read of the request body with what is left, as its error messages say. An
// earlier version took that for design too and left it alone; the census's
// blind reviewers judged the reuse a hazard (vm-32: time queued for the
// limit shortens the body read, whose timeout is counted as a slow client)
// and debatable (vm-31), so it is reported, as a queue's budget that goes on
// to the work. A try-then-block acquire helper and a named release make the
// limit.
package queuebound

import (
	"context"
	"errors"
	"io"
	"time"
)

var (
	maxQueueDuration   = 10 * time.Second
	concurrencyLimitCh = make(chan struct{}, 16)
	maxQueryDuration   = 30 * time.Second
)

func beginConcurrencyLimit(ctx context.Context) error {
	select {
	case concurrencyLimitCh <- struct{}{}:
		return nil
	default:
		select {
		case concurrencyLimitCh <- struct{}{}:
			return nil
		case <-ctx.Done():
			return errors.New("cannot start executing the request during -maxQueueDuration")
		}
	}
}

func endConcurrencyLimit() {
	<-concurrencyLimitCh
}

func readBody(ctx context.Context, r io.Reader) ([]byte, error) {
	b := make([]byte, 512)
	n, err := r.Read(b)
	return b[:n], err
}

func processUserRequest(ctx context.Context, r io.Reader) error {
	ctx, cancel := context.WithTimeout(ctx, maxQueueDuration) // want `the timeout from context\.WithTimeout is named for the queue and bounds the wait in queuebound\.beginConcurrencyLimit, but its context goes on to the work after the wait`
	defer cancel()
	if err := beginConcurrencyLimit(ctx); err != nil {
		return err
	}
	defer endConcurrencyLimit()
	_, err := readBody(ctx, r)
	return err
}

// The near miss, VictoriaLogs' select handler before its fix: the query's
// own budget is derived before the same wait.
func selectHandler(ctx context.Context, r io.Reader) error {
	ctx, cancel := context.WithTimeout(ctx, maxQueryDuration) // want `the timeout from context.WithTimeout starts before the wait in queuebound.beginConcurrencyLimit, so time spent queueing comes out of the work's budget; create it after the wait`
	defer cancel()
	if err := beginConcurrencyLimit(ctx); err != nil {
		return err
	}
	defer endConcurrencyLimit()
	_, err := readBody(ctx, r)
	return err
}
