package flags

import "time"

type backoff struct{ next time.Duration }

// Wait sleeps for the next delay.
func (b *backoff) Wait() {
	time.Sleep(b.next)
	b.next *= 2
}

// With -retrysend.waits naming (*backoff).Wait, the backoff counts as a wait
// between attempts.
func put(ch chan int, v int) {
	b := &backoff{next: time.Millisecond}
	for { // want `loop retries a non-blocking send on ch until it succeeds, waiting between attempts`
		select {
		case ch <- v:
			return
		default:
			b.Wait()
		}
	}
}
