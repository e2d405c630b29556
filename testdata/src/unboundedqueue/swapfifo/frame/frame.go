// Package frame has the shape of emitter's message package: a named slice
// type and the constructors the queue of a peer is reset with.
package frame // why: nothing-to-queue

type Message struct {
	Channel []byte
	Payload []byte
}

// A Frame is a batch of messages sent to a peer at once.
type Frame []Message

// NewFrame returns an empty frame with room for n messages.
func NewFrame(n int) Frame { return make(Frame, 0, n) }

// Preallocated returns a frame of n zero messages, to be filled by index.
func Preallocated(n int) Frame { return make(Frame, n) }
