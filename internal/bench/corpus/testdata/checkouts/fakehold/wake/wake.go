// Package wake signals a writer without blocking.
package wake

// signal is a wake-up channel: its elements take no memory.
var signal = make(chan struct{}, 1)

// Notify wakes the writer, or finds it already woken: the select's
// default drops a signal the channel already holds.
func Notify() {
	select {
	case signal <- struct{}{}:
	default:
	}
}
