// Package trylib declares try-send helpers for package crosspkg, which sees
// them only through the admission facts: one with a blocking sibling, one
// without, and a package-level one.
package trylib

import "errors"

// Ring tries to queue values; it has no blocking send.
type Ring struct{ ch chan string }

// TryPut queues v if there is room.
func (r *Ring) TryPut(v string) bool {
	select {
	case r.ch <- v:
		return true
	default:
		return false
	}
}

var events = make(chan int, 16)

// TryPublish queues an event if there is room.
func TryPublish(n int) bool {
	select {
	case events <- n:
		return true
	default:
	}
	return false
}

// Mailbox has a try and a blocking send.
type Mailbox struct{ in chan []byte }

// TryDeliver queues b if there is room.
func (m *Mailbox) TryDeliver(b []byte) bool {
	select {
	case m.in <- b:
		return true
	default:
		return false
	}
}

// Deliver waits for room.
func (m *Mailbox) Deliver(b []byte) { m.in <- b }

// Inbox reports a full channel as an error.
type Inbox struct{ in chan []byte }

var ErrInboxFull = errors.New("inbox full")

// TryPost queues b if there is room.
func (i *Inbox) TryPost(b []byte) error {
	select {
	case i.in <- b:
		return nil
	default:
		return ErrInboxFull
	}
}

// Post waits for room.
func (i *Inbox) Post(b []byte) { i.in <- b }
