// Package helpertest has a test that calls its try-send helper: the fix of
// the retry loop leaves the helper in place, or the test would stop
// compiling.
package helpertest

type box struct{ in chan int }

func (b *box) tryPut(v int) bool {
	select {
	case b.in <- v:
		return true
	default:
		return false
	}
}

func (b *box) put(v int) {
	for !b.tryPut(v) { // want `loop retries a non-blocking send on b.in through tryPut until it succeeds, spinning`
	}
}
