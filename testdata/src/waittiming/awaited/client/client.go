// Package client makes its calls cancellable: each runs in a goroutine the
// method waits for, with the caller's context beside it.
package client

import (
	"context"
	"errors"
	"os"
	"time"

	"golang.org/x/sync/semaphore"
)

// Client reads files, a bounded number at once.
type Client struct{ slots *semaphore.Weighted }

// Get waits for a slot and reads, in a goroutine it waits for: the caller
// queues for the slot.
func (c *Client) Get(ctx context.Context, name string) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		if err := c.slots.Acquire(ctx, 1); err != nil {
			done <- result{err: err}
			return
		}
		defer c.slots.Release(1)
		data, err := os.ReadFile(name)
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Lookup retries a stat with pauses, in a goroutine it waits for.
func (c *Client) Lookup(ctx context.Context, name string) error {
	errc := make(chan error, 1)
	go func() {
		var err error
		for attempt := 0; attempt < 5; attempt++ {
			if _, err = os.Stat(name); err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		errc <- err
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Warm reads in the background and returns at once: its caller waits for
// nothing.
func (c *Client) Warm(ctx context.Context, name string) error {
	if name == "" {
		return errors.New("no name")
	}
	go func() {
		if err := c.slots.Acquire(ctx, 1); err != nil {
			return
		}
		defer c.slots.Release(1)
		_, _ = os.ReadFile(name)
	}()
	return nil
}
