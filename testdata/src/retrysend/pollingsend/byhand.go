package pollingsend

import (
	"context"
	"time"
)

// Sleeps that take none of the closed forms: each finding says what to do
// by hand and has no fix.

// A growth by a ratio that is not a whole number.
func publishHalfAgain(ch chan event, e event) error {
	delay := 10 * time.Millisecond
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, with a sleep that changes per attempt, before giving up: .*the check cannot add up its waits, so by hand: use one send that waits on a timer for the longest total wait the caller accepts`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(delay)
			delay = delay * 3 / 2
		}
	}
	return errBusy
}

// A wait that also ends on cancellation: no sleep of a known length.
func publishCancellable(ctx context.Context, ch chan event, e event) error {
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times before giving up: .*so by hand`
		select {
		case ch <- e:
			return nil
		default:
			select {
			case <-time.After(time.Millisecond):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return errBusy
}

// Two sleeps per attempt, one of which grows.
func publishTwoSleeps(ch chan event, e event) error {
	delay := time.Millisecond
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, with a sleep that changes per attempt, before giving up: .*so by hand`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Millisecond)
			time.Sleep(delay)
			delay *= 2
		}
	}
	return errBusy
}

// A delay the loop resets and grows in two places.
func publishReset(ch chan event, e event, n int) error {
	delay := time.Millisecond
	for i := 0; i < 4; i++ { // want `bounded retry polls a non-blocking send on ch 4 times, with a sleep that changes per attempt, before giving up: .*so by hand`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(delay)
			delay *= 2
			if n > 2 {
				delay = time.Millisecond
			}
		}
	}
	return errBusy
}

// A budget the check adds up, with no fix: success breaks onto the
// rejection's path.
func publishBreakOut(ch chan event, e event) error {
	ok := false
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, 2ms apart \(6ms in all\), before giving up: .*so by hand: make success return \(or set the flag inside the timed select\), then use a timed send`
		select {
		case ch <- e:
			ok = true
		default:
			time.Sleep(2 * time.Millisecond)
			continue
		}
		break
	}
	if !ok {
		return errBusy
	}
	return nil
}

// A budget the check adds up, with no fix: the send case names the
// loop's counter.
func publishCounted(ch chan event, e event, sent func(int)) error {
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, 2ms apart \(6ms in all\), before giving up: .*no fix is safe here .*so by hand: use a timed send for the same budget`
		select {
		case ch <- e:
			sent(i)
			return nil
		default:
			time.Sleep(2 * time.Millisecond)
		}
	}
	return errBusy
}
