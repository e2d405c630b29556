package pollingsend

import (
	"errors"
	"time"
)

var errBusy = errors.New("busy")

type event struct{ name string }

type bus struct {
	events  chan event
	retries int
}

const retryDelay = 10 * time.Millisecond

// Three attempts, 10ms apart, then a rejection.
func (b *bus) Publish(e event) error {
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on b.events 3 times, 10ms apart \(30ms in all\), before giving up: it adds latency and burns CPU where one send could wait on a timer for the same budget; use a timed send instead`
		select {
		case b.events <- e:
			return nil
		default:
			time.Sleep(retryDelay)
		}
	}
	return errBusy
}

// A range over an integer, with the sleep after the select.
func publishRange(ch chan event, e event) bool {
	for range 5 { // want `bounded retry polls a non-blocking send on ch 5 times, 200ms apart \(1s in all\), before giving up`
		select {
		case ch <- e:
			return true
		default:
		}
		time.Sleep(200 * time.Millisecond)
	}
	return false
}

// A count from configuration and a variable delay.
func (b *bus) publishConfigured(e event, delay time.Duration) error {
	for attempt := 0; attempt < b.retries; attempt++ { // want `bounded retry polls a non-blocking send on b.events a fixed number of times before giving up`
		select {
		case b.events <- e:
			return nil
		default:
			time.Sleep(delay)
		}
	}
	return errBusy
}

// A constant count and a delay from the caller.
func publishDelay(ch chan event, e event, delay time.Duration) error {
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(delay)
		}
	}
	return errBusy
}

// Inclusive bounds count too, and the timer's name does not clash.
func publishInclusive(ch chan event, e event) error {
	timer := "in use"
	_ = timer
	for n := 1; n <= 4; n++ { // want `bounded retry polls a non-blocking send on ch 4 times, 250ms apart \(1s in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(250 * time.Millisecond)
		}
	}
	return errBusy
}

// Until a deadline.
func publishDeadline(ch chan event, e event, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) { // want `bounded retry polls a non-blocking send on ch until a deadline before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Millisecond)
		}
	}
	return errBusy
}

// Until a budget measured from a start.
func publishSince(ch chan event, e event) error {
	start := time.Now()
	for time.Since(start) < 50*time.Millisecond { // want `bounded retry polls a non-blocking send on ch until a deadline before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Millisecond)
		}
	}
	return errBusy
}

// Two polling loops in one function get timers of their own.
func publishTwice(ch chan event, a, b event) error {
	for i := 0; i < 2; i++ { // want `bounded retry polls a non-blocking send on ch 2 times, 1ms apart \(2ms in all\), before giving up`
		select {
		case ch <- a:
			return nil
		default:
			time.Sleep(time.Millisecond)
		}
	}
	for i := 0; i < 2; i++ { // want `bounded retry polls a non-blocking send on ch 2 times, 1ms apart \(2ms in all\), before giving up`
		select {
		case ch <- b:
			return nil
		default:
			time.Sleep(time.Millisecond)
		}
	}
	return errBusy
}

// A labeled loop in a switch case.
func publishLabeled(ch chan event, e event, urgent bool) error {
	switch {
	case urgent:
	attempts:
		for i := 0; i < 2; i++ { // want `bounded retry polls a non-blocking send on ch 2 times, 5ms apart \(10ms in all\), before giving up`
			select {
			case ch <- e:
				return nil
			default:
				time.Sleep(5 * time.Millisecond)
				continue attempts
			}
		}
		return errBusy
	}
	ch <- e
	return nil
}

// Generics.
type pipe[T any] struct{ ch chan T }

func (p *pipe[T]) Offer(v T) (T, error) {
	for range 4 { // want `bounded retry polls a non-blocking send on p.ch 4 times, 25ms apart \(100ms in all\), before giving up`
		select {
		case p.ch <- v:
			return v, nil
		default:
			time.Sleep(25 * time.Millisecond)
		}
	}
	var zero T
	return zero, errBusy
}

// Negative: a bounded spin has no budget a timer could take.
func spin(ch chan event, e event) bool {
	for i := 0; i < 100; i++ {
		select {
		case ch <- e:
			return true
		default:
		}
	}
	return false
}

// Negative: success breaks out of the loop into the rejection's path, which
// a timed send cannot tell apart.
func flagged(ch chan event, e event) error {
	sent := false
	for i := 0; i < 3 && !sent; i++ {
		select {
		case ch <- e:
			sent = true
		default:
			time.Sleep(time.Millisecond)
		}
	}
	if !sent {
		return errBusy
	}
	return nil
}

// Negative: each attempt sends another item.
func sendEach(ch chan event, es []event) int {
	for i := 0; i < len(es); i++ {
		select {
		case ch <- es[i]:
			return i
		default:
			time.Sleep(time.Millisecond)
		}
	}
	return -1
}
