// Package counter covers spawn loops bounded by a counter: the loop leaves
// once a counter it increments reaches a bound, before each spawn, whatever
// the comparison and whatever the bound.
package counter

import (
	"log"
	"sync/atomic"
)

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

// A counter that counts down to zero bounds the spawns the same way.
func countDown(bufs <-chan []byte, readers []*reader) {
	left := len(readers)
	for b := range bufs {
		if left == 0 {
			return
		}
		left--
		go readers[left].read(b)
	}
}

// A count of work in flight checked first: at the limit the item runs
// inline and the loop goes on to the next, so the spawns stay bounded.
func inflightFirst(bufs <-chan []byte, r *reader) {
	var inflight atomic.Int32
	for b := range bufs {
		if inflight.Load() >= maxReaders {
			r.read(b)
			continue
		}
		inflight.Add(1)
		go func() {
			defer inflight.Add(-1)
			r.read(b)
		}()
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

// A test of the item that skips some items bounds nothing.
type job struct{ priority int }

func (j job) run() {}

func skipsLow(jobs <-chan job) {
	for j := range jobs {
		if j.priority < 5 {
			continue
		}
		go j.run() // want `goroutine per item received from jobs`
	}
}
