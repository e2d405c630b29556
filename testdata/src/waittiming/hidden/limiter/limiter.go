// Package limiter wraps golang.org/x/time/rate the way services do: an
// exported type whose Wait is the limiter's. Its callers in other packages
// know it is a wait through the admission facts.
package limiter

import (
	"context"
	"fmt"

	"golang.org/x/time/rate"
)

// Limiter paces calls to a backend.
type Limiter struct {
	r    *rate.Limiter
	name string
}

func New(perSecond float64, name string) *Limiter {
	return &Limiter{r: rate.NewLimiter(rate.Limit(perSecond), 1), name: name}
}

// Wait blocks until the backend may be called.
func (l *Limiter) Wait(ctx context.Context) error {
	if err := l.r.Wait(ctx); err != nil {
		return fmt.Errorf("%s: %w", l.name, err)
	}
	return nil
}

// Allow reports whether a call may go now: it does not wait.
func (l *Limiter) Allow() bool { return l.r.Allow() }

// Do waits and calls f: the work runs inside, so a caller cannot split it.
func (l *Limiter) Do(ctx context.Context, f func() error) error {
	if err := l.r.Wait(ctx); err != nil {
		return err
	}
	return f()
}
