package pollingsend

import "time"

// A goto jumps from before the loop to after it: the timer the fix would
// declare in the loop's place would be jumped over, so there is no fix.
func publishUnlessClosed(ch chan event, e event, closed bool) error {
	if closed {
		goto rejected
	}
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on ch 3 times, 1ms apart \(3ms in all\), before giving up`
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Millisecond)
		}
	}
rejected:
	return errBusy
}
