package imports

import (
	"log"
	"time"
)

// Two loops hold every use of time: applied together, the fixes delete the
// import, and the delay declared only for the first loop.
func a(ch chan int, v int) {
	delay := 10 * time.Millisecond
	for { // want `loop retries a non-blocking send on ch until it succeeds, sleeping between attempts`
		select {
		case ch <- v:
			return
		default:
			time.Sleep(delay)
		}
	}
}

func b(ch chan int, v int) {
	for { // want `loop retries a non-blocking send on ch until it succeeds, sleeping 1ms between attempts`
		select {
		case ch <- v:
			log.Print("sent")
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}
