// Package gates declares admission gates: a token gate whose Admit waits
// for a token, and a counter whose Admit only counts.
package gates

import "context"

// TokenGate admits callers one token at a time.
type TokenGate struct{ tokens chan struct{} }

// NewTokenGate returns a gate of n tokens.
func NewTokenGate(n int) *TokenGate {
	g := &TokenGate{tokens: make(chan struct{}, n)}
	for i := 0; i < n; i++ {
		g.tokens <- struct{}{}
	}
	return g
}

// Admit waits for a token, or gives up with the context.
func (g *TokenGate) Admit(ctx context.Context) error {
	select {
	case <-g.tokens:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Leave gives the token back.
func (g *TokenGate) Leave() { g.tokens <- struct{}{} }

// Counter counts admissions and never waits.
type Counter struct{ n int }

// Enter counts.
func (c *Counter) Enter(ctx context.Context) error { c.n++; return nil }

// Leave does nothing.
func (c *Counter) Leave() {}
