// Package pause waits with jitter: a helper that only pauses, whose fact
// travels to the packages that call it.
package pause

import (
	"context"
	"math/rand/v2"
	"time"
)

// Jitter waits about base, or until ctx ends.
func Jitter(ctx context.Context, base time.Duration) {
	if base <= 0 {
		return
	}
	d := base*3/4 + time.Duration(rand.Int64N(int64(base)/2+1))
	select {
	case <-time.After(d):
	case <-ctx.Done():
	}
}
