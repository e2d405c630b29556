// Package pump covers the "infinite channel": a loop that receives from one
// channel into a slice and sends the slice's head on another, in one select.
package pump

import (
	"context"
	"time"
)

type event struct{ rev int }

func (e *event) Err() error { return nil }

// Positive: the shape of a watch stream's substream (etcd client): the send
// case is disabled by a nil channel while the buffer is empty, and the
// buffer is a field.
type watcherStream struct {
	recvc chan *event
	outc  chan event
	buf   []*event
}

func serveSubstream(ctx context.Context, ws *watcherStream) {
	empty := &event{}
	for {
		cur := empty
		outc := ws.outc
		if len(ws.buf) > 0 {
			cur = ws.buf[0]
		} else {
			outc = nil
		}
		select {
		case outc <- *cur:
			if ws.buf[0].Err() != nil {
				return
			}
			ws.buf[0] = nil
			ws.buf = ws.buf[1:]
		case wr, ok := <-ws.recvc:
			if !ok {
				return
			}
			// TODO pause channel if buffer gets too large
			ws.buf = append(ws.buf, wr) // want `pump buffer ws.buf grows without bound: the select keeps receiving from ws.recvc while it sends the buffer's head on outc`
		case <-ctx.Done():
			return
		}
	}
}

// Positive: the textbook infinite channel with a local buffer, its send case
// enabled only while the buffer holds something.
func infinite(in <-chan int, out chan<- int) {
	var queue []int
	for {
		if len(queue) == 0 {
			v, ok := <-in
			if !ok {
				close(out)
				return
			}
			queue = append(queue, v)
			continue
		}
		select {
		case v, ok := <-in:
			if !ok {
				in = nil
				continue
			}
			queue = append(queue, v*2) // want `pump buffer queue grows without bound`
		case out <- queue[0]:
			queue = queue[1:]
		}
	}
}

// Positive: a pump that takes the head into a variable first.
type proxy struct {
	in  chan []byte
	out chan []byte
}

func (p *proxy) run(done <-chan struct{}) {
	var pending [][]byte
	for {
		var head []byte
		out := p.out
		if len(pending) == 0 {
			out = nil
		} else {
			head = pending[0]
		}
		select {
		case m := <-p.in:
			pending = append(pending, m) // want `pump buffer pending grows without bound`
		case out <- head:
			pending = pending[1:]
		case <-done:
			return
		}
	}
}

// Negatives.

// The receive case is disabled while the buffer is full.
func paused(in <-chan int, out chan<- int, done <-chan struct{}) {
	const maxQueued = 100
	var queue []int
	for {
		recv := in
		if len(queue) >= maxQueued {
			recv = nil
		}
		var send chan<- int
		var head int
		if len(queue) > 0 {
			send, head = out, queue[0]
		}
		select {
		case v := <-recv:
			queue = append(queue, v)
		case send <- head:
			queue = queue[1:]
		case <-done:
			return
		}
	}
}

// The oldest is dropped when the buffer is full.
func dropping(in <-chan int, out chan<- int) {
	var queue []int
	for {
		var send chan<- int
		var head int
		if len(queue) > 0 {
			send, head = out, queue[0]
		}
		select {
		case v := <-in:
			if len(queue) == 64 {
				queue = queue[1:]
			}
			queue = append(queue, v)
		case send <- head:
			queue = queue[1:]
		}
	}
}

// A batching loop flushes the whole batch when it is full or on a tick:
// nothing sends the head and re-slices.
func batcher(in <-chan int, out chan<- []int, tick <-chan time.Time) {
	var batch []int
	for {
		select {
		case v := <-in:
			batch = append(batch, v)
			if len(batch) >= 100 {
				out <- batch
				batch = nil
			}
		case <-tick:
			if len(batch) > 0 {
				out <- batch
				batch = nil
			}
		}
	}
}

// A merge of two channels never buffers.
func merge(a, b <-chan int, out chan<- int) {
	for {
		select {
		case v := <-a:
			out <- v
		case v := <-b:
			out <- v
		}
	}
}

// The send case sends something else than the buffer's head: a count, with
// the buffer trimmed from the front for another reason.
func notHead(in <-chan int, counts chan<- int) {
	var window []int
	for {
		select {
		case v := <-in:
			window = append(window, v)
		case counts <- len(window):
			if len(window) > 0 {
				window = window[1:]
			}
		}
	}
}

// The received value is not what the buffer takes: a tick appends a
// marker.
func notReceived(tick <-chan time.Time, out chan<- int) {
	var marks []int
	n := 0
	for {
		var send chan<- int
		var head int
		if len(marks) > 0 {
			send, head = out, marks[0]
		}
		select {
		case <-tick:
			n++
			marks = append(marks, n)
		case send <- head:
			marks = marks[1:]
		}
	}
}

// A pump fed by two channels: both receives stop while the buffer is full,
// or the second would keep it growing.
func fanIn(a, b <-chan int, out chan<- int) {
	var buf []int
	for {
		var send chan<- int
		var head int
		if len(buf) > 0 {
			send, head = out, buf[0]
		}
		select {
		case v := <-a:
			buf = append(buf, v) // want `pump buffer buf grows without bound: the select keeps receiving from a and b while it sends the buffer's head on send`
		case v := <-b:
			buf = append(buf, v)
		case send <- head:
			buf = buf[1:]
		}
	}
}
