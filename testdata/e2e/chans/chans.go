// Package chans has oversized channel buffers for the end-to-end tests.
package chans

// Event is copied by value into the channel.
type Event struct {
	ID      uint64
	Payload [10240]byte
}

var events = make(chan Event, 100000)

// Publish queues e.
func Publish(e Event) { events <- e }
