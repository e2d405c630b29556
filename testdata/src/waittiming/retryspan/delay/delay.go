// Package delay pauses with jitter: a helper that only pauses, whatever
// its guard for a zero delay, carries the fact across packages.
package delay

import (
	"context"
	"math/rand/v2"
	"time"
)

// WithJitter waits about base, or until ctx ends; its select falls off
// the function's end in both cases.
func WithJitter(ctx context.Context, base time.Duration) {
	if base <= 0 {
		return
	}
	d := base
	if r := int64(base) / 2; r > 0 {
		d = base*3/4 + time.Duration(rand.Int64N(r))
	}
	select {
	case <-time.After(d):
	case <-ctx.Done():
	}
}
