// Package runtime is a stub of azcore's runtime package.
package runtime

import "context"

// A Poller follows a long-running operation until it is done.
type Poller[T any] struct{}

func (p *Poller[T]) PollUntilDone(ctx context.Context, opts *PollUntilDoneOptions) (T, error) {
	var zero T
	return zero, nil
}

type PollUntilDoneOptions struct{}
