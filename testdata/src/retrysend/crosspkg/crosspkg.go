// Package crosspkg retries the try-send helper of package admission/helpers:
// the admission facts say TryPush is a non-blocking send and Push its
// blocking sibling.
package crosspkg

import (
	"context"
	"log"
	"time"

	"admission/helpers"
	"retrysend/trylib"
)

func publish(q *helpers.Queue, v string) {
	for !q.TryPush(v) { // want `loop retries a non-blocking send on q.ch through \(\*helpers.Queue\).TryPush until it succeeds, sleeping 1ms between attempts`
		time.Sleep(time.Millisecond)
	}
}

type relay struct{ out *helpers.Queue }

func (r *relay) forward(v string) {
	for !r.out.TryPush(v) { // want `loop retries a non-blocking send on r.out.ch through \(\*helpers.Queue\).TryPush until it succeeds, spinning`
	}
}

// A try that gives up is not a retry loop.
func offer(q *helpers.Queue, v string) bool {
	return q.TryPush(v)
}

// A pause helper of another package is the wait between attempts.
func publishPaced(q *helpers.Queue, v string) {
	for !q.TryPush(v) { // want `loop retries a non-blocking send on q.ch through \(\*helpers.Queue\).TryPush until it succeeds, waiting between attempts`
		helpers.Backoff(1)
	}
}

// No blocking variant to call: reported without a fix.
func publishRing(r *trylib.Ring, v string) {
	for !r.TryPut(v) { // want `loop retries a non-blocking send on r.ch through \(\*trylib.Ring\).TryPut until it succeeds, sleeping 5ms between attempts: it adds latency, ignores cancellation and lets work pile up upstream instead of pushing back; block on the channel instead: the helper has no blocking variant to call`
		time.Sleep(5 * time.Millisecond)
	}
}

// A package-level helper: no blocking variant either.
func publishEvent(n int) {
	for !trylib.TryPublish(n) { // want `loop retries a non-blocking send on events through trylib.TryPublish until it succeeds, spinning`
	}
}

// The wait ends on ctx.Done(): Deliver would not, so there is no fix.
func deliverCtx(ctx context.Context, m *trylib.Mailbox, b []byte) error {
	for !m.TryDeliver(b) { // want `loop retries a non-blocking send on m.in through \(\*trylib.Mailbox\).TryDeliver until it succeeds, waiting between attempts: it adds latency and lets work pile up upstream instead of pushing back; block on the send, with ctx.Done\(\), instead: Deliver would not end on cancellation`
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
	return nil
}

// The if spelling, with a capped backoff: the fix calls Deliver, then what
// the success path did.
func deliverBackoff(m *trylib.Mailbox, b []byte) int {
	delay := time.Millisecond
	for { // want `loop retries a non-blocking send on m.in through \(\*trylib.Mailbox\).TryDeliver until it succeeds, sleeping between attempts`
		if m.TryDeliver(b) {
			log.Printf("delivered %d bytes", len(b))
			return len(b)
		}
		time.Sleep(delay)
		if delay < time.Second {
			delay *= 2
		}
	}
}

// Negative: the if's body does not leave the loop.
func deliverAll(m *trylib.Mailbox, bs [][]byte) {
	i := 0
	for {
		if m.TryDeliver(bs[i]) {
			i++
		}
		time.Sleep(time.Millisecond)
	}
}

// Negative: work between attempts (a poll interval).
func deliverPolling(m *trylib.Mailbox, b []byte, flush func()) {
	for !m.TryDeliver(b) {
		flush()
	}
}

// Negative: the if has an else: it counts both outcomes per attempt.
func deliverCounted(m *trylib.Mailbox, b []byte) (sent, full int) {
	for {
		if m.TryDeliver(b) {
			sent++
		} else {
			full++
		}
		time.Sleep(time.Millisecond)
	}
}

// Negative: a failed attempt refreshes the item before the next try.
func deliverFresh(m *trylib.Mailbox, b []byte, refresh func([]byte) []byte) {
	for {
		if m.TryDeliver(b) {
			return
		}
		b = refresh(b)
	}
}

// A stop check before the if, and a capped exponential backoff (the shape
// of a remote-write enqueue loop): Deliver would not end on quit, so there
// is no fix.
func deliverUntilQuit(m *trylib.Mailbox, b []byte, quit chan struct{}) bool {
	backoff := 5 * time.Millisecond
	for { // want `loop retries a non-blocking send on m.in through \(\*trylib.Mailbox\).TryDeliver until it succeeds, sleeping between attempts: it adds latency and lets work pile up upstream instead of pushing back; block on the send, in a select that keeps the loop's stop case, instead: Deliver would not end on it`
		select {
		case <-quit:
			return false
		default:
		}
		if m.TryDeliver(b) {
			return true
		}
		time.Sleep(backoff)
		backoff *= 2
		if backoff > time.Second {
			backoff = time.Second
		}
	}
}

// An error-reporting try of another package, with its blocking sibling.
func post(i *trylib.Inbox, b []byte) {
	for { // want `loop retries a non-blocking send on i.in through \(\*trylib.Inbox\).TryPost until it succeeds, sleeping 2ms between attempts`
		if err := i.TryPost(b); err == nil {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}
