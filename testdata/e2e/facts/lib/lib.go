// Package lib declares helpers whose callers in package app the checks can
// only understand through queuecheck's admission facts: a pool whose acquire
// returns its release, a helper that only sends, a try-send with a blocking
// sibling, and one that pauses.
package lib

import (
	"context"
	"time"
)

// Pool bounds concurrent work.
type Pool struct{ slots chan struct{} }

// NewPool returns a pool of n slots.
func NewPool(n int) *Pool { return &Pool{slots: make(chan struct{}, n)} }

// Acquire waits for a slot and returns its release.
func (p *Pool) Acquire(ctx context.Context) (func(), error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return func() { <-p.slots }, nil
}

// Feed hands values to a consumer.
type Feed struct{ out chan string }

// NewFeed returns a feed whose consumer reads from out.
func NewFeed(out chan string) *Feed { return &Feed{out: out} }

// Put sends v to the consumer.
func (f *Feed) Put(v string) { f.out <- v }

// TryPut sends v if the consumer has room.
func (f *Feed) TryPut(v string) bool {
	select {
	case f.out <- v:
		return true
	default:
		return false
	}
}

// Pause waits a little before the next attempt.
func Pause() { time.Sleep(10 * time.Millisecond) }
