// Package rate is a test stub with the API of golang.org/x/time/rate.
package rate

import (
	"context"
	"time"
)

type Limit float64

const Inf = Limit(1e308)

func Every(interval time.Duration) Limit { return Limit(1 / interval.Seconds()) }

type Limiter struct {
	limit Limit
	burst int
}

func NewLimiter(r Limit, b int) *Limiter { return &Limiter{r, b} }

func (l *Limiter) Wait(ctx context.Context) error         { return ctx.Err() }
func (l *Limiter) WaitN(ctx context.Context, n int) error { return ctx.Err() }
func (l *Limiter) Allow() bool                            { return true }
func (l *Limiter) AllowN(t time.Time, n int) bool         { return true }
func (l *Limiter) Reserve() *Reservation                  { return &Reservation{} }
func (l *Limiter) Limit() Limit                           { return l.limit }
func (l *Limiter) Burst() int                             { return l.burst }
func (l *Limiter) SetLimit(newLimit Limit)                { l.limit = newLimit }

type Reservation struct{}

func (r *Reservation) OK() bool             { return true }
func (r *Reservation) Delay() time.Duration { return 0 }
func (r *Reservation) Cancel()              {}
