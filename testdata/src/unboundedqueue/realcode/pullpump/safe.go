package pullpump

import "time"

// maxQueued bounds SafeConn.msgs: readLoop stops receiving while it holds this many,
// so the listener's read loop blocks on receiveCh (and the kernel drops datagrams).
const maxQueued = 1024

type SafeConn struct {
	receiveCh chan []byte
	readCh    chan []byte
	sizeCh    chan int
	msgs      [][]byte
	doneCh    chan struct{}
}

func (c *SafeConn) readLoop() {
	for {
		recv := c.receiveCh
		if len(c.msgs) >= maxQueued {
			recv = nil
		}
		var reqs chan []byte
		if len(c.msgs) > 0 {
			reqs = c.readCh
		}
		select {
		case cBuf := <-reqs:
			msg := c.msgs[0]
			c.msgs = c.msgs[1:]
			c.sizeCh <- copy(cBuf, msg)
		case msg := <-recv:
			c.msgs = append(c.msgs, msg)
		case <-c.doneCh:
			return
		}
	}
}

// Negative: a tick drops the oldest without handing it out: the buffer is
// trimmed, not drained by a consumer (and is no pump).
type Trimmer struct {
	in   chan []byte
	buf  [][]byte
	tick chan struct{}
}

func (t *Trimmer) loop() {
	for {
		select {
		case m := <-t.in:
			t.buf = append(t.buf, m)
		case <-t.tick:
			if len(t.buf) > 0 {
				t.buf = t.buf[1:]
			}
		}
	}
}

// Negative: a tick evicts expired entries from the front: a TTL window, no
// consumer handed the head.
type entry struct {
	at  time.Time
	val []byte
}

type Recent struct {
	in      chan entry
	entries []entry
	tick    *time.Ticker
	stop    chan struct{}
}

func (r *Recent) loop() {
	for {
		select {
		case e := <-r.in:
			r.entries = append(r.entries, e)
		case <-r.tick.C:
			for len(r.entries) > 0 && time.Since(r.entries[0].at) > time.Minute {
				r.entries = r.entries[1:]
			}
		case <-r.stop:
			return
		}
	}
}
