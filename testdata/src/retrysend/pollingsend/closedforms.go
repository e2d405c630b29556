package pollingsend

import "time"

// The closed forms the budget of a counted loop is worked out in: each
// case names its shape, and the fix's timer gets the sum.

// Linear in the counter through an expression of it: 1+3+5+7 ms.
func publishAffine(ch chan event, e event) error {
	for i := 0; i < 4; i++ { // want `bounded retry polls a non-blocking send on ch 4 times, 1ms to 7ms apart \(16ms in all\), before giving up: .*use a timed send instead`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Duration(2*i+1) * time.Millisecond)
		}
	}
	return errBusy
}

// A delay the loop adds a constant step to: 5+10+15 ms.
func publishStepped(ch chan event, e event) error {
	delay := 5 * time.Millisecond
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, 5ms to 15ms apart \(30ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(delay)
			delay += 5 * time.Millisecond
		}
	}
	return errBusy
}

// Doubled before the sleep: the first attempt already sleeps 2ms, 2+4+8.
func publishDoubledFirst(ch chan event, e event) error {
	delay := time.Millisecond
	for range 3 { // want `bounded retry polls a non-blocking send on ch 3 times, 2ms to 8ms apart \(14ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
		}
		delay <<= 1
		time.Sleep(delay)
	}
	return errBusy
}

// Doubled by adding itself.
func publishSelfAdded(ch chan event, e event) error {
	delay := time.Millisecond
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, 1ms to 4ms apart \(7ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(delay)
			delay += delay
		}
	}
	return errBusy
}

// Doubled, then clamped by an if: 10+20+25+25 ms.
func publishClamped(ch chan event, e event) error {
	delay := 10 * time.Millisecond
	for i := 0; i < 4; i++ { // want `bounded retry polls a non-blocking send on ch 4 times, 10ms to 25ms apart \(80ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(delay)
			delay *= 2
			if delay > 25*time.Millisecond {
				delay = 25 * time.Millisecond
			}
		}
	}
	return errBusy
}

// A doubling delay that starts from a duration the caller passes: the
// total is a multiple of it, 1+2+4.
func publishDoublingBase(ch chan event, e event, base time.Duration) error {
	delay := base
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, with sleeps that add up to 7 \* base, before giving up`
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

// A shift by the counter from 1: 2+4+8 ms.
func publishShiftFromOne(ch chan event, e event) error {
	for i := 1; i <= 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, 2ms to 8ms apart \(14ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Millisecond << i)
		}
	}
	return errBusy
}

// Many attempts: the sum is a product, not a hundred thousand steps.
func publishMany(ch chan event, e event) error {
	for i := 0; i < 100000; i++ { // want `bounded retry polls a non-blocking send on ch 100000 times, 1µs apart \(100ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Microsecond)
		}
	}
	return errBusy
}

// The sleep held in a variable of the attempt first: 10+20+30 ms.
func publishHeld(ch chan event, e event) error {
	for i := 1; i <= 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, 10ms to 30ms apart \(60ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			d := time.Duration(i) * 10 * time.Millisecond
			time.Sleep(d)
		}
	}
	return errBusy
}

// Doubled, then clamped with min: 10+20+25 ms.
func publishMinClamped(ch chan event, e event) error {
	delay := 10 * time.Millisecond
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, 10ms to 25ms apart \(55ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(delay)
			delay *= 2
			delay = min(delay, 25*time.Millisecond)
		}
	}
	return errBusy
}

// A unit times a power of two of the counter: 1+2+4+8 ms.
func publishPowerOfTwo(ch chan event, e event) error {
	for i := 0; i < 4; i++ { // want `bounded retry polls a non-blocking send on ch 4 times, 1ms to 8ms apart \(15ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Millisecond * (1 << i))
		}
	}
	return errBusy
}

// A delay that grows by the caller's step: 1+2+3+4 steps.
func publishSteppedBase(ch chan event, e event, step time.Duration) error {
	delay := step
	for i := 0; i < 4; i++ { // want `bounded retry polls a non-blocking send on ch 4 times, with sleeps that add up to 10 \* step, before giving up`
		select {
		case ch <- e:
			return nil
		default:
		}
		time.Sleep(delay)
		delay += step
	}
	return errBusy
}
