package retryloop

import (
	"context"
	"errors"
	"math/rand"
	"time"
)

const maxBackoff = time.Second

// Capped exponential backoff: the if only updates the delay, bookkeeping
// between attempts, not other work.
func (d *dispatcher) submitCapped(j job) {
	delay := 10 * time.Millisecond
	for { // want `loop retries a non-blocking send on d.jobs until it succeeds, sleeping between attempts: it adds latency, ignores cancellation and lets work pile up upstream instead of pushing back; block on the send instead`
		select {
		case d.jobs <- j:
			return
		default:
			time.Sleep(delay)
			if delay < maxBackoff {
				delay *= 2
			}
		}
	}
}

// The same capped in the other branch of an if, with jitter from rand.
func (d *dispatcher) submitJitter(ctx context.Context, j job) error {
	delay := 10 * time.Millisecond
	for { // want `loop retries a non-blocking send on d.jobs until it succeeds, sleeping between attempts`
		select {
		case d.jobs <- j:
			return nil
		default:
		}
		jitter := time.Duration(rand.Int63n(int64(delay)))
		time.Sleep(delay + jitter)
		if delay >= maxBackoff {
			delay = maxBackoff
		} else {
			delay *= 2
		}
	}
}

// A sent flag with a capped backoff.
func (d *dispatcher) submitFlag(j job) {
	sent := false
	delay := time.Millisecond
	for !sent { // want `loop retries a non-blocking send on d.jobs until it succeeds, sleeping between attempts`
		select {
		case d.jobs <- j:
			sent = true
		default:
			time.Sleep(delay)
			delay = min(delay*2, maxBackoff)
		}
	}
}

var errGaveUp = errors.New("gave up")

// Negative: the if gives up after a while: not bookkeeping, it leaves.
func (d *dispatcher) submitGiveUp(j job) error {
	delay := time.Millisecond
	for {
		select {
		case d.jobs <- j:
			return nil
		default:
			time.Sleep(delay)
			if delay > maxBackoff {
				return errGaveUp
			}
			delay *= 2
		}
	}
}

// Negative: the if does other work between attempts (a poll interval).
func (d *dispatcher) submitFlushing(j job, flush func()) {
	delay := time.Millisecond
	for {
		select {
		case d.jobs <- j:
			return
		default:
			time.Sleep(delay)
			if delay < maxBackoff {
				delay *= 2
			} else {
				flush()
			}
		}
	}
}

// Negative: the if's condition calls something.
func (d *dispatcher) submitChecked(j job, healthy func() bool) {
	delay := time.Millisecond
	for {
		select {
		case d.jobs <- j:
			return
		default:
			time.Sleep(delay)
			if healthy() {
				delay = time.Millisecond
			}
		}
	}
}

// Negative: jitter picks the next item, not a delay: a new item per attempt.
func (d *dispatcher) submitRandom(js []job) {
	for {
		j := js[rand.Intn(len(js))]
		select {
		case d.jobs <- j:
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// A backoff type's next interval is bookkeeping too.
type expBackoff struct{ cur time.Duration }

func (b *expBackoff) NextBackOff() time.Duration {
	b.cur = min(2*b.cur, maxBackoff)
	return b.cur
}

func (d *dispatcher) submitBackoffType(j job, b *expBackoff) {
	for { // want `loop retries a non-blocking send on d.jobs until it succeeds, sleeping between attempts`
		select {
		case d.jobs <- j:
			return
		default:
		}
		next := b.NextBackOff()
		time.Sleep(next)
	}
}

// Negative: a method of something else that returns a duration does work.
type prober struct{}

func (prober) Probe() time.Duration { return time.Millisecond }

func (d *dispatcher) submitProbing(j job, p prober) {
	for {
		select {
		case d.jobs <- j:
			return
		default:
		}
		rtt := p.Probe()
		time.Sleep(rtt)
	}
}
