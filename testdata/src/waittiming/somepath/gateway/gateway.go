// Package gateway reads through a bounded number of slots shared by every
// caller. Some of its calls take a slot only on some paths, or further
// down: a figure of such a call holds the queueing on those paths.
package gateway

import (
	"context"
	"errors"
	"log"
	"os"

	"golang.org/x/sync/semaphore"
)

// Gateway reads files, a bounded number at once.
type Gateway struct {
	slots *semaphore.Weighted
	max   int
}

// A Request is what Relay is asked to read.
type Request interface{ Name() string }

// Bulk is a request of the lower tiers, which take a slot.
type Bulk struct{ File string }

func (b Bulk) Name() string { return b.File }

// Relay takes a slot for bulk requests only, in a case of a type switch,
// and then reads.
func (g *Gateway) Relay(ctx context.Context, req Request) ([]byte, error) {
	switch req.(type) {
	case Bulk:
		if err := g.slots.Acquire(ctx, 1); err != nil {
			return nil, err
		}
		defer g.slots.Release(1)
	}
	return os.ReadFile(req.Name())
}

// Publish logs, and relays what arrives before the context ends: the
// slot is in a select's case, a call down.
func (g *Gateway) Publish(ctx context.Context, in <-chan Request) error {
	log.Printf("publish")
	select {
	case <-ctx.Done():
		return ctx.Err()
	case req := <-in:
		_, err := g.Relay(ctx, req)
		return err
	}
}

// ReadEach takes a slot per name of a bulk request: a wait per item of the batch, not a
// queue before it.
func (g *Gateway) ReadEach(ctx context.Context, names []string, req Request) error {
	switch req.(type) {
	case Bulk:
		for _, n := range names {
			if err := g.slots.Acquire(ctx, 1); err != nil {
				return err
			}
			_, err := os.ReadFile(n)
			g.slots.Release(1)
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// FanOut bounds its own goroutines with a semaphore it makes: no other
// caller holds its slots.
func FanOut(ctx context.Context, names []string, req Request) error {
	switch req.(type) {
	case Bulk:
		own := semaphore.NewWeighted(4)
		if err := own.Acquire(ctx, 1); err != nil {
			return err
		}
		defer own.Release(1)
	}
	_, err := os.ReadFile(names[0])
	return err
}

var errShed = errors.New("shed")

// Shed takes a slot for a batch too large and gives up, leaving at once:
// on that path nothing works after the wait.
func (g *Gateway) Shed(ctx context.Context, names []string, req Request) error {
	switch req.(type) {
	case Bulk:
		if len(names) > g.max {
			_ = g.slots.Acquire(ctx, 1)
			return errShed
		}
	}
	_, err := os.ReadFile(names[0])
	return err
}

// Retry takes a slot only when the first read failed.
func (g *Gateway) Retry(ctx context.Context, name string) ([]byte, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		if err := g.slots.Acquire(ctx, 1); err != nil {
			return nil, err
		}
		defer g.slots.Release(1)
		return os.ReadFile(name)
	}
	return b, nil
}
