package pullread

import (
	"context"
	"net"
	"sync/atomic"
)

// Negative: an accept loop starts a goroutine per connection, not per
// message.
func serveTCP(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() { c.Close() }() // why: not-per-item
	}
}

// Negative: a semaphore before each goroutine.
func consumeBounded(ctx context.Context, r *Reader) error {
	sem := make(chan struct{}, 16)
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			process(ctx, m)
		}()
	}
}

// Negative: a count of work in flight guards the spawn, and the loop
// answers inline at the limit (dnscrypt-proxy's UDP listener).
func serveCounted(conn *net.UDPConn, inflight *atomic.Int64) {
	for {
		buf := make([]byte, 1500)
		n, addr, err := conn.ReadFromUDP(buf)
		if err != nil {
			return
		}
		if inflight.Load() >= 100 {
			conn.WriteToUDP(buf[:n], addr)
			continue
		}
		inflight.Add(1)
		go func() {
			defer inflight.Add(-1)
			conn.WriteToUDP(buf[:n], addr)
		}()
	}
}

// Subscriptions hands out a stream per subscription: an entity.
type Subscriptions struct{}

type Sub struct{}

func (*Sub) Recv() (Message, error) { return Message{}, nil }
func (*Sub) Close() error           { return nil }

func (*Subscriptions) NextMessage() (*Sub, error) { return nil, nil }

func serveSubs(s *Subscriptions) {
	for {
		sub, err := s.NextMessage()
		if err != nil {
			return
		}
		go func() {
			defer sub.Close()
			sub.Recv()
		}()
	}
}

// Negative: a read from a byte stream is not an item.
func pumpConn(c net.Conn) {
	for {
		buf := make([]byte, 1024)
		n, err := c.Read(buf)
		if err != nil {
			return
		}
		go func() { c.Write(buf[:n]) }()
	}
}

// Negative: the read is in a loop that waits for each goroutine.
func consumeOneAtATime(ctx context.Context, r *Reader) error {
	for {
		m, err := r.ReadMessage(ctx)
		if err != nil {
			return err
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			process(ctx, m)
		}()
		<-done
	}
}
