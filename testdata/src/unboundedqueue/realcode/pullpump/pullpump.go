// Package pullpump is traefik's UDP session (pkg/udp/conn.go Conn.readLoop):
// a goroutine per session receives datagrams from the listener's read loop,
// appends them to a slice field, and hands the head out when a Read asks
// for it (a request channel that carries the reader's buffer, answered with
// the size on another channel). The pump always accepts, so the listener's
// send never waits and the queue grows with a slow reader.
package pullpump

import (
	"sync"
	"time"
)

type Conn struct {
	receiveCh chan []byte // datagrams from the listener's read loop
	readCh    chan []byte // Read hands in its buffer
	sizeCh    chan int    // readLoop answers with the size copied
	msgs      [][]byte    // queued datagrams

	mu           sync.RWMutex
	lastActivity time.Time
	timeout      time.Duration
	doneCh       chan struct{}
}

func (c *Conn) Read(p []byte) (int, error) {
	select {
	case c.readCh <- p:
		return <-c.sizeCh, nil
	case <-c.doneCh:
		return 0, nil
	}
}

func (c *Conn) readLoop() {
	ticker := time.NewTicker(c.timeout / 10)
	defer ticker.Stop()

	for {
		if len(c.msgs) == 0 {
			select {
			case msg := <-c.receiveCh:
				c.msgs = append(c.msgs, msg)
			case <-ticker.C:
				if c.idle() {
					return
				}
				continue
			}
		}

		select {
		case cBuf := <-c.readCh:
			msg := c.msgs[0]
			c.msgs = c.msgs[1:]
			n := copy(cBuf, msg)
			c.sizeCh <- n
		case msg := <-c.receiveCh:
			c.msgs = append(c.msgs, msg) // want `pump buffer c.msgs grows without bound: the select keeps receiving from c.receiveCh while it hands the buffer's head to each request from c.readCh`
		case <-ticker.C:
			if c.idle() {
				return
			}
		}
	}
}

func (c *Conn) idle() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return time.Now().After(c.lastActivity.Add(c.timeout))
}
