package pollingsend

import "time"

// The counter also moves in the body: the loop makes 3 attempts, not 6, and
// the header alone does not say how many. Left alone: the evidence for a
// count is incomplete.
func publishSkipping(ch chan event, e event) error {
	for i := 0; i < 6; i++ {
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Duration(i) * time.Millisecond)
			i++
		}
	}
	return errBusy
}

// The same with the counter's address taken.
func publishByAddress(ch chan event, e event, bump func(*int)) error {
	for i := 0; i < 6; i++ {
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Millisecond)
			bump(&i)
		}
	}
	return errBusy
}

// The deadline moves in the body: the time left at the start is not the
// loop's budget.
func publishExtending(ch chan event, e event, deadline time.Time) error {
	for time.Now().Before(deadline) {
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Millisecond)
			deadline = deadline.Add(time.Millisecond / 2)
		}
	}
	return errBusy
}

func publishRestarting(ch chan event, e event, budget time.Duration) error {
	start := time.Now()
	for time.Since(start) < budget {
		select {
		case ch <- e:
			return nil
		default:
			time.Sleep(time.Millisecond)
			start = time.Now()
		}
	}
	return errBusy
}
