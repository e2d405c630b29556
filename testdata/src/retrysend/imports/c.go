package imports

import (
	"fmt"

	"runtime"

	"strings"
)

func d(ch chan string, s string) {
	for { // want `loop retries a non-blocking send on ch until it succeeds, spinning`
		select {
		case ch <- s:
			fmt.Println(strings.ToUpper(s))
			return
		default:
			runtime.Gosched()
		}
	}
}

func e(ch chan string, s string) {
	var tries int
	for { // want `loop retries a non-blocking send on ch until it succeeds, spinning`
		select {
		case ch <- s:
			fmt.Println(strings.Repeat(s, 2))
			return
		default:
			tries++
			runtime.Gosched()
		}
	}
}
