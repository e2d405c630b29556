// Package dynamic times work behind waits reached through interfaces: the
// implementations the program declares (here, package gates) decide.
package dynamic

import (
	"context"
	"log"
	"time"

	"waittiming/dynamic/gates"
)

// Admitter is implemented by gates.TokenGate alone, whose Admit waits.
type Admitter interface {
	Admit(ctx context.Context) error
	Leave()
}

// Enterer is implemented by gates.Counter alone, whose Enter does not wait.
type Enterer interface {
	Enter(ctx context.Context) error
	Leave()
}

// Opener has no implementation the program declares.
type Opener interface {
	Open(ctx context.Context) error
}

func work() {}

// Through times the work from before the wait behind the interface.
func Through(ctx context.Context, a Admitter) error {
	start := time.Now()
	if err := a.Admit(ctx); err != nil {
		return err
	}
	defer a.Leave()
	work()
	log.Printf("work took %v", time.Since(start)) // want `the duration since start spans the wait in \(dynamic\.Admitter\)\.Admit via interface Admitter: every implementation the program declares waits and the work after it`
	return nil
}

// After starts the clock after the wait: the right timing.
func After(ctx context.Context, a Admitter) error {
	if err := a.Admit(ctx); err != nil {
		return err
	}
	defer a.Leave()
	start := time.Now()
	work()
	log.Printf("work took %v", time.Since(start))
	return nil
}

// Counted goes through an interface whose one implementation only counts.
func Counted(ctx context.Context, e Enterer) error {
	start := time.Now()
	if err := e.Enter(ctx); err != nil {
		return err
	}
	defer e.Leave()
	work()
	log.Printf("work took %v", time.Since(start)) // why: no-wait-in-span
	return nil
}

// Unknown goes through an interface with no known implementation.
func Unknown(ctx context.Context, o Opener) error {
	start := time.Now()
	if err := o.Open(ctx); err != nil {
		return err
	}
	work()
	log.Printf("work took %v", time.Since(start)) // why: no-wait-in-span
	return nil
}

// Local is the one implementation of Enterer here that waits; with
// gates.Counter beside it, not every implementation does.
type Local struct{ slots chan struct{} }

func (l *Local) Enter(ctx context.Context) error {
	select {
	case l.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *Local) Leave() { <-l.slots }

// server holds its admission as func fields, assigned below.
type server struct {
	admit func(ctx context.Context) error
	count func(ctx context.Context) error
}

func newServer(g *gates.TokenGate, c *gates.Counter) *server {
	return &server{admit: g.Admit, count: c.Enter}
}

// Field times the work from before the wait behind a func field.
func (s *server) Field(ctx context.Context) error {
	start := time.Now()
	if err := s.admit(ctx); err != nil {
		return err
	}
	work()
	log.Printf("work took %v", time.Since(start)) // want `the duration since start spans the wait in \(\*gates\.TokenGate\)\.Admit via func field admit and the work after it`
	return nil
}

// CountField goes through a func field assigned a function that does not
// wait.
func (s *server) CountField(ctx context.Context) error {
	start := time.Now()
	if err := s.count(ctx); err != nil {
		return err
	}
	work()
	log.Printf("work took %v", time.Since(start)) // why: no-wait-in-span
	return nil
}

// serve times the work from before the wait on the function its callers
// hand it. Every call of serve is in this package and hands it a token
// gate's Admit: the call waits.
func (s *server) serve(ctx context.Context, admit func(context.Context) error) error {
	start := time.Now()
	if err := admit(ctx); err != nil {
		return err
	}
	work()
	log.Printf("work took %v", time.Since(start)) // want `the duration since start spans the wait in \(\*gates\.TokenGate\)\.Admit via func parameter admit and the work after it`
	return nil
}

// serveEither is handed a token gate's Admit at one call and a counter's
// Enter, which does not wait, at another: no wait by every value.
func (s *server) serveEither(ctx context.Context, admit func(context.Context) error) error {
	start := time.Now()
	if err := admit(ctx); err != nil {
		return err
	}
	work()
	log.Printf("work took %v", time.Since(start)) // why: no-wait-in-span
	return nil
}

// Serve is exported: callers in other packages may hand it anything.
func (s *server) Serve(ctx context.Context, admit func(context.Context) error) error {
	start := time.Now()
	if err := admit(ctx); err != nil {
		return err
	}
	work()
	log.Printf("work took %v", time.Since(start)) // why: no-wait-in-span
	return nil
}

// serveLit is handed a function literal at one call: its body is not
// followed from here.
func (s *server) serveLit(ctx context.Context, admit func(context.Context) error) error {
	start := time.Now()
	if err := admit(ctx); err != nil {
		return err
	}
	work()
	log.Printf("work took %v", time.Since(start)) // why: no-wait-in-span
	return nil
}

// serveReset assigns its parameter before the call: the calls no longer
// say what it runs.
func (s *server) serveReset(ctx context.Context, admit func(context.Context) error) error {
	if admit == nil {
		admit = func(context.Context) error { return nil }
	}
	start := time.Now()
	if err := admit(ctx); err != nil {
		return err
	}
	work()
	log.Printf("work took %v", time.Since(start)) // why: no-wait-in-span
	return nil
}

// serveSpread is called once with another call's results spread over its
// parameters: what that call returns is out of view.
func (s *server) serveSpread(ctx context.Context, admit func(context.Context) error) error {
	start := time.Now()
	if err := admit(ctx); err != nil {
		return err
	}
	work()
	log.Printf("work took %v", time.Since(start)) // why: no-wait-in-span
	return nil
}

// serveNamed is a method an interface of the package names: it may be
// called through the interface, with anything.
func (s *server) serveNamed(ctx context.Context, admit func(context.Context) error) error {
	start := time.Now()
	if err := admit(ctx); err != nil {
		return err
	}
	work()
	log.Printf("work took %v", time.Since(start)) // why: no-wait-in-span
	return nil
}

type namedServer interface {
	serveNamed(ctx context.Context, admit func(context.Context) error) error
}

var _ namedServer = (*server)(nil)

func counted(ctx context.Context, c *gates.Counter) (context.Context, func(context.Context) error) {
	return ctx, c.Enter
}

func serveAll(ctx context.Context, s *server, g *gates.TokenGate, c *gates.Counter) {
	_ = s.serveSpread(ctx, g.Admit)
	_ = s.serveNamed(ctx, g.Admit)
	_ = s.serveSpread(counted(ctx, c))
	_ = s.serve(ctx, g.Admit)
	_ = s.serve(ctx, g.Admit)
	_ = s.serveEither(ctx, g.Admit)
	_ = s.serveEither(ctx, c.Enter)
	_ = s.Serve(ctx, g.Admit)
	_ = s.serveLit(ctx, func(ctx context.Context) error { return g.Admit(ctx) })
	_ = s.serveReset(ctx, g.Admit)
}
