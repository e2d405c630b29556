// Package limitedfield is river's AsyncCompleter (internal/jobcompleter): an
// errgroup limited in a local and then stored in a field, in the three
// constructor forms services use. Go waits while the group is full, so a
// figure from before Go to the end of the work spans the wait.
package limitedfield

import (
	"context"
	"time"

	"golang.org/x/sync/errgroup"
)

type Stats struct{ CompleteDuration, QueueWait time.Duration }

type Completer struct {
	errGroup *errgroup.Group
	out      chan *Stats
}

func NewCompleter(concurrency int) *Completer {
	errGroup := &errgroup.Group{}
	errGroup.SetLimit(concurrency)
	return &Completer{errGroup: errGroup, out: make(chan *Stats, 10)}
}

func setState(ctx context.Context, id int64) error { return nil }

func (c *Completer) Complete(ctx context.Context, stats *Stats, id int64) error {
	start := time.Now()

	c.errGroup.Go(func() error {
		if err := setState(ctx, id); err != nil {
			return err
		}
		stats.CompleteDuration = time.Now().Sub(start) // want `the duration since start spans the wait in \(\*errgroup.Group\).Go on a group with a limit and the work after it`
		c.out <- stats
		return nil
	})
	return nil
}

type Assigned struct{ g *errgroup.Group }

func NewAssigned(n int) *Assigned {
	g := new(errgroup.Group)
	g.SetLimit(n)
	a := &Assigned{}
	a.g = g
	return a
}

func (a *Assigned) Run(record func(time.Duration)) {
	start := time.Now()
	a.g.Go(func() error { work(); record(time.Since(start)); return nil }) // want `the duration since start spans the wait in \(\*errgroup.Group\).Go on a group with a limit`
}

type WithCtx struct{ g *errgroup.Group }

func NewWithCtx(ctx context.Context, n int) *WithCtx {
	g, _ := errgroup.WithContext(ctx)
	g.SetLimit(n)
	return &WithCtx{g: g}
}

func (w *WithCtx) Run(record func(time.Duration)) {
	start := time.Now()
	w.g.Go(func() error { work(); record(time.Since(start)); return nil }) // want `the duration since start spans the wait in \(\*errgroup.Group\).Go on a group with a limit`
}

func work() { _ = setState(context.Background(), 0) }

// Negative: the run is timed from a timestamp taken inside the goroutine,
// after the slot is held; the wait is recorded apart.
func (c *Completer) CompleteSplit(ctx context.Context, stats *Stats, id int64) error {
	queued := time.Now()
	c.errGroup.Go(func() error {
		started := time.Now()
		stats.QueueWait = started.Sub(queued)
		err := setState(ctx, id)
		stats.CompleteDuration = time.Since(started)
		return err
	})
	return nil
}

// Negative: the same constructor without SetLimit: Go never waits.
type Unlimited struct{ g *errgroup.Group }

func NewUnlimited() *Unlimited {
	g := &errgroup.Group{}
	return &Unlimited{g: g}
}

func (u *Unlimited) Run(record func(time.Duration)) {
	start := time.Now()
	u.g.Go(func() error { work(); record(time.Since(start)); return nil })
}
