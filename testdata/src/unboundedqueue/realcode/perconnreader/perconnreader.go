// Package perconnreader is a false goroutineperitem finding from the corpus
// run: github.com/fatedier/frp, pkg/proto/udp/udp.go, Forwarder.
//
// The loop receives packets and starts a goroutine only when a packet comes
// from a peer it has no connection for yet; the goroutine is a reader that
// loops over that connection until it idles out (one per connection, not
// per item). The reader is a function literal held in a local variable, so
// a check that looks for a loop inside the go statement's function literal
// does not see it. No finding is wanted here.
package perconnreader

import (
	"net"
	"sync"
	"time"
)

type packet struct {
	from    *net.UDPAddr
	payload []byte
}

func Forwarder(dst *net.UDPAddr, readCh <-chan *packet, sendCh chan<- *packet) {
	var mu sync.Mutex
	conns := make(map[string]*net.UDPConn)

	reader := func(raddr *net.UDPAddr, conn *net.UDPConn) {
		defer func() {
			mu.Lock()
			delete(conns, raddr.String())
			mu.Unlock()
			conn.Close()
		}()
		buf := make([]byte, 1500)
		for {
			_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
			n, _, err := conn.ReadFromUDP(buf)
			if err != nil {
				return
			}
			select {
			case sendCh <- &packet{from: raddr, payload: append([]byte(nil), buf[:n]...)}:
			default:
			}
		}
	}

	for p := range readCh {
		mu.Lock()
		conn, ok := conns[p.from.String()]
		if !ok {
			var err error
			conn, err = net.DialUDP("udp", nil, dst)
			if err != nil {
				mu.Unlock()
				continue
			}
			conns[p.from.String()] = conn
		}
		mu.Unlock()
		if _, err := conn.Write(p.payload); err != nil {
			conn.Close()
		}
		if !ok {
			go reader(p.from, conn) // no finding wanted: one reader per new connection
		}
	}
}
