package pollingsend

import . "time"

// The time package imported with a dot: the deadline's time left is
// Until(deadline), as this file spells it.
func publishDot(ch chan event, e event, deadline Time) error {
	for Now().Before(deadline) { // want `bounded retry polls a non-blocking send on ch until a deadline before giving up`
		select {
		case ch <- e:
			return nil
		default:
			Sleep(Millisecond)
		}
	}
	return errBusy
}
