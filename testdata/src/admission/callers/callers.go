// Package callers calls the helpers of package helpers from another package:
// the admission analyzer's facts make each call what the helper is.
package callers

import (
	"context"

	"admission/helpers"
)

func use(ctx context.Context, p *helpers.Pool, t *helpers.Throttle, g *helpers.Gate) {
	release, err := p.Acquire(ctx) // want `Semaphore sem blocking via \(\*helpers.Pool\).Acquire`
	if err != nil {
		return
	}
	defer release()
	_ = p.Enter(ctx) // want `Semaphore sem blocking via \(\*helpers.Pool\).Enter`
	defer p.Leave()
	_ = t.Wait(ctx) // want `RateLimiter lim blocking via \(\*helpers.Throttle\).Wait`
	g.Enter()       // want `SemaphoreChan slots blocking via \(\*helpers.Gate\).Enter`
	defer g.Exit()
	_ = p.Run(ctx, func() {})

	// A closure held in a local variable is classified through its
	// function.
	acquire := func() { g.Enter() } // want `SemaphoreChan slots blocking via \(\*helpers.Gate\).Enter`
	acquire() // want `SemaphoreChan - blocking via acquire`
}

// A throttle whose Do loops over a select takes its slot like Enter; the
// loops that only try, or send for ever, are no waits.
func useThrottle2(t *helpers.Throttle2) error {
	if err := t.Do(); err != nil { // want `SemaphoreChan slots blocking via \(\*helpers.Throttle2\).Do`
		return err
	}
	defer t.Done(nil)
	if !t.Offer() {
		return nil
	}
	t.Pump()
	return nil
}
