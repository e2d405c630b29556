// Package gate limits concurrent work, in the style of Prometheus's gate.
package gate

import "context"

type Gate struct{ ch chan struct{} }

func New(n int) *Gate { return &Gate{ch: make(chan struct{}, n)} }

// Start blocks until the gate has room or ctx is done.
func (g *Gate) Start(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case g.ch <- struct{}{}:
		return nil
	}
}

// Done releases the slot Start took.
func (g *Gate) Done() { <-g.ch }
