// Package helperbuild has a file that this build leaves out (a build tag,
// as for another platform) and that calls its try-send helper: the fix of
// the retry loop leaves the helper in place, or that build would stop
// compiling.
package helperbuild

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
