// Package perconnchan is a false goroutineperitem finding from the corpus
// run: github.com/MetaCubeX/mihomo, tunnel/tunnel.go, TCPIn.
//
// The channel carries accepted connections from the listeners, and the
// goroutine started per item is that connection's handler for its
// lifetime: the channel form of for { c := l.Accept(); go handle(c) }, one
// goroutine per connection (a per-entity goroutine), not per message. No
// finding is wanted; an item type that is, holds or returns a net.Conn is
// the evidence.
package perconnchan

import "net"

type ConnContext interface {
	ID() string
	Conn() net.Conn
}

var tcpQueue = make(chan ConnContext, 64)

func handle(c ConnContext) {
	defer c.Conn().Close()
	// relay the connection until either side closes it
}

// TCPIn returns the fan-in queue the listeners send accepted connections to.
func TCPIn() chan<- ConnContext {
	go func() {
		for c := range tcpQueue {
			go handle(c) // no finding wanted: one handler per connection
		}
	}()
	return tcpQueue
}
