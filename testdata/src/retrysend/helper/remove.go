package helper

import "time"

type mailbox struct{ in chan item }

// tryDeliver hands v to the mailbox if it has room. Its only caller is the
// retry loop below: the fix sends in its place and deletes it.
func (m *mailbox) tryDeliver(v item) bool {
	select {
	case m.in <- v:
		return true
	default:
		return false
	}
}

func (m *mailbox) deliver(v item) {
	for !m.tryDeliver(v) { // want `loop retries a non-blocking send on m.in through tryDeliver until it succeeds, sleeping 1ms between attempts`
		time.Sleep(time.Millisecond)
	}
}

// tryPost has two callers: one fix leaves the other, and the helper stays.
func tryPost(ch chan item, v item) bool {
	select {
	case ch <- v:
		return true
	default:
		return false
	}
}

func post(ch chan item, v item) {
	for !tryPost(ch, v) { // want `loop retries a non-blocking send on ch through tryPost until it succeeds, spinning`
	}
}

func postOnce(ch chan item, v item) bool { return tryPost(ch, v) }

// An interface of the package names tryOffer: the method stays.
type offerer interface{ tryOffer(item) bool }

var _ offerer = (*mailbox)(nil)

func (m *mailbox) tryOffer(v item) bool {
	select {
	case m.in <- v:
		return true
	default:
		return false
	}
}

// The if spelling: success logs and breaks; the fix sends, then logs.
func (m *mailbox) offerLoop(v item) int {
	n := 0
	for { // want `loop retries a non-blocking send on m.in through tryOffer until it succeeds, sleeping 2ms between attempts`
		if m.tryOffer(v) {
			n++
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	return n
}

// The if's body continues an outer loop: the fix sends, then continues it.
func (m *mailbox) deliverAll(vs []item) int {
	n := 0
outer:
	for _, v := range vs {
		if v.n < 0 {
			continue
		}
		for { // want `loop retries a non-blocking send on m.in through tryOffer until it succeeds, sleeping 1ms between attempts`
			if m.tryOffer(v) {
				n++
				continue outer
			}
			time.Sleep(time.Millisecond)
		}
	}
	return n
}
