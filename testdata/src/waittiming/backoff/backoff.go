// Package backoff has backoff waits: a timer of a backoff, a backoff
// type's Wait, and a clock kept in a func field.
package backoff

import (
	"context"
	"log"
	"time"
)

type Backoff struct{ n int }

func (b *Backoff) Duration() time.Duration { b.n++; return time.Duration(b.n) * time.Millisecond }

// Wait sleeps for the next backoff.
func (b *Backoff) Wait(ctx context.Context) error { time.Sleep(b.Duration()); return nil }

type Client struct {
	now func() time.Time
	b   Backoff
}

func (c *Client) call(ctx context.Context) error { return nil }

// Timer waits for a backoff timer before each attempt.
func (c *Client) Timer(ctx context.Context) error { // want Timer:"retries between a timer"
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var start = c.now()
		if attempt > 0 {
			select {
			case <-time.After(c.b.Duration()):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		err = c.call(ctx)
		log.Printf("attempt %d: %v", attempt, c.now().Sub(start)) // want `the duration since start spans the wait in a backoff timer`
		if err == nil {
			break
		}
	}
	return err
}

// Type waits through a backoff type before each attempt.
func (c *Client) Type(ctx context.Context) error { // want Type:"retries between \\(\\*backoff\\.Backoff\\)\\.Wait"
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		start := time.Now()
		if attempt > 0 {
			if werr := c.b.Wait(ctx); werr != nil {
				return werr
			}
		}
		err = c.call(ctx)
		log.Printf("attempt %d: %v", attempt, time.Since(start)) // want `spans the wait in \(\*backoff\.Backoff\)\.Wait`
		if err == nil {
			break
		}
	}
	return err
}

// Total times all attempts with their backoffs: under failure the figure
// is mostly sleeping, and "call took" says it is the call's.
func (c *Client) Total(ctx context.Context) error { // want Total:"retries between time\\.Sleep"
	start := time.Now()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.call(ctx); err == nil {
			break
		}
		time.Sleep(c.b.Duration())
	}
	log.Printf("call took %v", time.Since(start)) // want `the duration since start spans the retries at line \d+, whose attempts are separated by time\.Sleep`
	return err
}
