package imports

import "runtime"

func c(ch chan string, s string) {
	for { // want `loop retries a non-blocking send on ch until it succeeds, spinning`
		select {
		case ch <- s:
			return
		default:
			runtime.Gosched()
		}
	}
}
