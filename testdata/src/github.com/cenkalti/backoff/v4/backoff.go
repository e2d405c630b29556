// Package backoff is a stub of github.com/cenkalti/backoff/v4: Retry runs
// the operation until it succeeds, waiting the policy's delays between
// attempts.
package backoff

import (
	"context"
	"time"
)

type Operation func() error

type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

type ExponentialBackOff struct{ MaxElapsedTime time.Duration }

func (b *ExponentialBackOff) NextBackOff() time.Duration { return time.Second }
func (b *ExponentialBackOff) Reset()                     {}

func NewExponentialBackOff() *ExponentialBackOff { return &ExponentialBackOff{} }

func WithContext(b BackOff, ctx context.Context) BackOff { return b }

func Retry(o Operation, b BackOff) error {
	for {
		if err := o(); err == nil {
			return nil
		}
		time.Sleep(b.NextBackOff())
	}
}
