// The rule test-hook skips ResetForTest alone: this production file imports
// package testing for that one hook, and its other functions are reported.
package why

import "testing"

var hookCh = make(chan int, 1)

// ResetForTest drains the channel for a test.
func ResetForTest(_ testing.TB) { // want `not reported: test-hook: `
	for {
		select {
		case <-hookCh:
		default:
			return
		}
	}
}

func hookSend(v int) { hookCh <- v }

func hookLen() int { return len(hookCh) }
