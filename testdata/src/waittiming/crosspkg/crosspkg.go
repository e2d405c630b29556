// Package crosspkg measures work behind waits that helpers of package
// admission/helpers perform: the admission facts make each call a wait.
package crosspkg

import (
	"context"
	"log"
	"time"

	"admission/helpers"
)

type server struct {
	pool     *helpers.Pool
	throttle *helpers.Throttle
	gate     *helpers.Gate
}

func (s *server) work() {}

func (s *server) handle(ctx context.Context) error {
	start := time.Now()
	release, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	s.work()
	log.Printf("handled in %v", time.Since(start)) // want `the duration since start spans the wait in \(\*helpers.Pool\).Acquire and the work after it`
	return nil
}

func (s *server) throttled(ctx context.Context) {
	start := time.Now()
	if err := s.throttle.Wait(ctx); err != nil {
		return
	}
	s.work()
	log.Printf("throttled call took %v", time.Since(start)) // want `the duration since start spans the wait in \(\*helpers.Throttle\).Wait`
}

// Run waits and works inside one call: there is no place to split here,
// but the figure holds the wait (the InnerWait fact of Run crosses the
// package boundary). Reported without a fix.
func (s *server) run(ctx context.Context) {
	start := time.Now()
	_ = s.pool.Run(ctx, s.work)
	log.Printf("run took %v", time.Since(start)) // want `the duration since start spans \(\*helpers.Pool\).Run, which waits for admission \(\(\*semaphore.Weighted\).Acquire, helpers.go:47\) before its work`
}

// A wait through a helper of this package.
func (s *server) enter() { s.gate.Enter() }

func (s *server) gated() {
	start := time.Now()
	s.enter()
	defer s.gate.Exit()
	s.work()
	log.Printf("gated call took %v", time.Since(start)) // want `the duration since start spans the wait in \(\*crosspkg.server\).enter`
}

// AcquireBoth (package helpers) takes a key's slot and its parent's, and
// gives the first back when the second fails: its fact says it only waits,
// so a figure of it alone is the wait's own figure.
func (s *server) lockTimed(ctx context.Context, p *helpers.Pair) error {
	start := time.Now()
	err := p.AcquireBoth(ctx) // why: callee-elsewhere no-work-after
	log.Printf("locking took %v", time.Since(start))
	return err
}

func (s *server) lockedWork(ctx context.Context, p *helpers.Pair) {
	start := time.Now()
	if err := p.AcquireBoth(ctx); err != nil {
		return
	}
	s.work()
	log.Printf("locked work took %v", time.Since(start)) // want `the duration since start spans the wait in \(\*helpers.Pair\).AcquireBoth and the work after it`
}
