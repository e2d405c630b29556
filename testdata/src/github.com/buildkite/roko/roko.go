// Package roko is a stub of github.com/buildkite/roko: a Retrier that
// retries a callback with the delays of its options.
package roko

import (
	"context"
	"time"
)

type Retrier struct{}

type Option func(*Retrier)

func WithMaxAttempts(n int) Option { return nil }

func WithStrategy(s Strategy) Option { return nil }

type Strategy func(*Retrier) time.Duration

func Exponential(base, adjustment time.Duration) Strategy { return nil }

func NewRetrier(opts ...Option) *Retrier { return &Retrier{} }

func (r *Retrier) Do(callback func(*Retrier) error) error { return callback(r) }

func (r *Retrier) DoWithContext(ctx context.Context, callback func(*Retrier) error) error {
	return callback(r)
}
