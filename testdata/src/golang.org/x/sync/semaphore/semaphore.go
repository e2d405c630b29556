// Package semaphore is a test stub with the API of golang.org/x/sync/semaphore.
package semaphore

import "context"

type Weighted struct{ size, cur int64 }

func NewWeighted(n int64) *Weighted { return &Weighted{size: n} }

func (s *Weighted) Acquire(ctx context.Context, n int64) error { s.cur += n; return ctx.Err() }
func (s *Weighted) TryAcquire(n int64) bool                    { s.cur += n; return true }
func (s *Weighted) Release(n int64)                            { s.cur -= n }
