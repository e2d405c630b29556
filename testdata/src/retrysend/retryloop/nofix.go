package retryloop

import (
	"log"
	"time"
)

// The shapes below are retry loops with no safe fix: each is reported, and
// its message says what to do by hand.

// The send case names the loop's counter: moved out of the loop, it would
// not compile.
func countedLog(ch chan int, v int) {
	for attempt := 1; ; attempt++ { // want `loop retries a non-blocking send on ch until it succeeds, sleeping 1ms between attempts: it adds latency, ignores cancellation and lets work pile up upstream instead of pushing back; block on the send instead`
		select {
		case ch <- v:
			log.Printf("sent after %d attempts", attempt)
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// The delay is declared with a count the function reads later: deleting the
// declaration would delete more, and keeping it leaves delay unused.
func stuckDecl(ch chan int, v int) int {
	delay, tries := time.Millisecond, 3
	for { // want `loop retries a non-blocking send on ch until it succeeds, sleeping between attempts`
		select {
		case ch <- v:
			return tries
		default:
			time.Sleep(delay)
		}
	}
}
