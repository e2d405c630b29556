package retryloop

import "log"

// The send case holds a multi-line string: moved out of the loop, its
// continuation lines stay as they are.
func multiline(ch chan int, v int) {
	for { // want `loop retries a non-blocking send on ch until it succeeds, spinning`
		select {
		case ch <- v:
			log.Print(`sent;
	see the log`)
			return
		default:
		}
	}
}
