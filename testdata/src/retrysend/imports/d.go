package imports

import (
	"runtime"

	"strings"
)

func f(ch chan string, s string) {
	for { // want `loop retries a non-blocking send on ch until it succeeds, spinning`
		select {
		case ch <- s:
			return
		default:
			runtime.Gosched()
		}
	}
}

var _ = strings.ToUpper
