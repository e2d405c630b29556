package pollingsend

import (
	"log"
	"math/rand"
	"time"
)

const backoffUnit = 10 * time.Millisecond

// A linear backoff: attempt n sleeps n units, so five attempts wait
// 1+2+3+4+5 units, not five, and the timer must not name the counter.
func publishLinear(ch chan event, e event) error {
	for attempt := 1; attempt <= 5; attempt++ { // want `bounded retry polls a non-blocking send on ch 5 times, 10ms to 50ms apart \(150ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Duration(attempt) * backoffUnit)
		}
	}
	return errBusy
}

// The same unit from the caller: the budget is a multiple of it.
func publishLinearParam(ch chan event, e event, unit time.Duration) error {
	for attempt := 0; attempt < 4; attempt++ { // want `bounded retry polls a non-blocking send on ch 4 times, with sleeps that add up to 10 \* unit, before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Duration(attempt+1) * unit)
		}
	}
	return errBusy
}

// An exponential backoff held in a variable that doubles per attempt.
func publishDoubling(ch chan event, e event) error {
	delay := 10 * time.Millisecond
	for i := 0; i < 4; i++ { // want `bounded retry polls a non-blocking send on ch 4 times, 10ms to 80ms apart \(150ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(delay)
			delay *= 2
		}
	}
	return errBusy
}

// Capped exponential backoff with min, and with an if that only updates
// the delay: bookkeeping, not other work.
func publishCapped(ch chan event, e event) error {
	delay := 10 * time.Millisecond
	for range 4 { // want `bounded retry polls a non-blocking send on ch 4 times, 10ms to 30ms apart \(90ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
		}
		time.Sleep(delay)
		delay = min(delay*2, 30*time.Millisecond)
	}
	return errBusy
}

const maxDelay = 50 * time.Millisecond

func publishCappedIf(ch chan event, e event) error {
	delay := 20 * time.Millisecond
	for i := 0; i < 4; i++ { // want `bounded retry polls a non-blocking send on ch 4 times, 20ms to 80ms apart \(220ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(delay)
			if delay < maxDelay {
				delay *= 2
			}
		}
	}
	return errBusy
}

// A shift of the counter, and a timer receive as the wait.
func publishShift(ch chan event, e event) error {
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, 1ms to 4ms apart \(7ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			<-time.After(time.Millisecond << i)
		}
	}
	return errBusy
}

// Jitter from rand: the budget is not known, so the finding has no fix and
// says the sleep changes.
func publishJitter(ch chan event, e event) error {
	delay := 10 * time.Millisecond
	for i := 0; i < 5; i++ { // want `bounded retry polls a non-blocking send on ch 5 times, with a sleep that changes per attempt, before giving up`
		select {
		case ch <- e:
			return nil
		default:
			jitter := time.Duration(rand.Int63n(int64(delay)))
			time.Sleep(delay + jitter)
			delay *= 2
		}
	}
	return errBusy
}

// A counter-dependent sleep over a count from the caller: no budget, no fix.
func publishLinearN(ch chan event, e event, n int) error {
	for attempt := 0; attempt < n; attempt++ { // want `bounded retry polls a non-blocking send on ch a fixed number of times, with a sleep that changes per attempt, before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Duration(attempt) * backoffUnit)
		}
	}
	return errBusy
}

// A delay whose start the check cannot work out: no fix.
func publishFromConfig(ch chan event, e event, start func() time.Duration) error {
	delay := start()
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, with a sleep that changes per attempt, before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(delay)
			delay *= 2
		}
	}
	return errBusy
}

// The send case logs the attempt that succeeded: moved out of the loop, it
// would name the loop's counter, so the finding has no fix.
func publishLogged(ch chan event, e event) error {
	for attempt := 0; attempt < 3; attempt++ { // want `bounded retry polls a non-blocking send on ch 3 times, 5ms apart \(15ms in all\), before giving up`
		select {
		case ch <- e:
			log.Printf("sent after %d attempts", attempt)
			return nil
		default:
			time.Sleep(5 * time.Millisecond)
		}
	}
	return errBusy
}

// Success breaks out of the loop onto the rejection's path: a timed send
// cannot tell the two apart, so the finding has no fix.
func publishBreak(ch chan event, e event) error {
	sent := false
attempts:
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, 2ms apart \(6ms in all\), before giving up`
		select {
		case ch <- e:
			sent = true
			break attempts
		default:
			time.Sleep(2 * time.Millisecond)
		}
	}
	if !sent {
		return errBusy
	}
	return nil
}
