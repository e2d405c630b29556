package lib

import (
	"context"
	"log"
	"time"
)

// Gatekeeper admits callers one token at a time.
type Gatekeeper struct{ tokens chan struct{} }

// NewGatekeeper returns a gatekeeper of n tokens.
func NewGatekeeper(n int) *Gatekeeper {
	g := &Gatekeeper{tokens: make(chan struct{}, n)}
	for i := 0; i < n; i++ {
		g.tokens <- struct{}{}
	}
	return g
}

// Admit waits for a token, or gives up with the context.
func (g *Gatekeeper) Admit(ctx context.Context) error {
	select {
	case <-g.tokens:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Leave gives the token back.
func (g *Gatekeeper) Leave() { g.tokens <- struct{}{} }

// Stopwatch is a timer written by hand.
type Stopwatch struct {
	began time.Time
	name  string
}

// StartStopwatch starts one.
func StartStopwatch(name string) *Stopwatch { return &Stopwatch{began: time.Now(), name: name} }

// Stop logs the time since it started.
func (s *Stopwatch) Stop() { log.Printf("%s took %v", s.name, time.Since(s.began)) }
