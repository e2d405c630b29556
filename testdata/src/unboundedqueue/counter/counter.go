// Package counter covers spawn loops bounded by a counter: the loop leaves
// once a counter it increments reaches a bound, before each spawn, whatever
// the comparison and whatever the bound.
package counter

import "log"

type reader struct{ id int }

func (r *reader) read(b []byte) {}

const maxReaders = 8

// Negatives: the loop leaves when the counter reaches the bound.

func equalLen(bufs <-chan []byte, readers []*reader) {
	readerIndex := 0
	for b := range bufs {
		if readerIndex == len(readers) {
			break
		}
		go readers[readerIndex].read(b)
		readerIndex++
	}
}

func greaterEqual(bufs <-chan []byte) {
	n := 0
	for b := range bufs {
		if n >= maxReaders {
			return
		}
		r := &reader{id: n}
		go r.read(b)
		n += 1
	}
}

func lessNot(bufs <-chan []byte, limit int) {
	started := 0
	for b := range bufs {
		if !(started < limit) {
			break
		}
		started = started + 1
		go (&reader{}).read(b)
	}
}

func reversed(bufs <-chan []byte, readers []*reader) {
	i := 0
	for b := range bufs {
		if len(readers) <= i {
			break
		}
		go readers[i].read(b)
		i++
	}
}

func inSelect(bufs <-chan []byte, stop <-chan struct{}, readers []*reader) {
	i := 0
loop:
	for {
		select {
		case b := <-bufs:
			if i != len(readers) {
				go readers[i].read(b)
				i++
				continue
			}
			break loop
		case <-stop:
			return
		}
	}
}

func inSelectLabeled(bufs <-chan []byte, readers []*reader) {
	i := 0
loop:
	for {
		select {
		case b := <-bufs:
			if i > len(readers)-1 {
				break loop
			}
			go readers[i].read(b)
			i++
		}
	}
}

// Positives: a comparison that does not leave the loop, a counter the loop
// does not increment, and a break that leaves only the select.

func logsOnly(bufs <-chan []byte) {
	n := 0
	for b := range bufs {
		if n >= maxReaders {
			log.Print("many readers")
		}
		go (&reader{id: n}).read(b) // want `goroutine per item received from bufs`
		n++
	}
}

func notCounted(bufs <-chan []byte, limit int) {
	n := 0
	for b := range bufs {
		if n >= limit {
			break
		}
		go (&reader{}).read(b) // want `goroutine per item received from bufs`
	}
}

func breaksSelect(bufs <-chan []byte, readers []*reader) {
	i := 0
	for {
		select {
		case b := <-bufs:
			if i == len(readers) {
				break // leaves the select only
			}
			go (&reader{}).read(b) // want `goroutine per item received from bufs`
			i++
		}
	}
}
