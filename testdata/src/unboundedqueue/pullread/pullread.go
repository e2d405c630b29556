// Package pullread holds loops that pull items from a stream with a call
// (a datagram from a packet connection, a message from a client) and start
// a goroutine per item.
package pullread

import (
	"context"
	"net"
	"sync"
)

type Message struct {
	Key, Value []byte
}

// Reader is a pull consumer, as kafka-go's is.
type Reader struct{}

func (r *Reader) ReadMessage(ctx context.Context) (Message, error)  { return Message{}, nil }
func (r *Reader) FetchMessage(ctx context.Context) (Message, error) { return Message{}, nil }

func process(ctx context.Context, m Message) {}

func consume(ctx context.Context, r *Reader) error {
	for {
		m, err := r.ReadMessage(ctx)
		if err != nil {
			return err
		}
		go process(ctx, m) // want `goroutine per item read from r with nothing bounding how many run at once: the loop reads the next one at once, so nothing pushes back on the sender; acquire a semaphore before starting each one`
	}
}

// A goroutine per UDP datagram.
func serveUDP(conn *net.UDPConn) {
	for {
		buf := make([]byte, 1500)
		n, addr, err := conn.ReadFromUDP(buf)
		if err != nil {
			return
		}
		go func() { // want `goroutine per item read from conn with nothing bounding how many run at once`
			conn.WriteToUDP(buf[:n], addr)
		}()
	}
}

// The same through the net.PacketConn interface, with a WaitGroup.
func servePackets(pc net.PacketConn, wg *sync.WaitGroup) {
	for {
		buf := make([]byte, 512)
		n, addr, err := pc.ReadFrom(buf)
		if err != nil {
			return
		}
		wg.Add(1)
		go func() { // want `goroutine per item read from pc with nothing bounding how many run at once`
			defer wg.Done()
			pc.WriteTo(buf[:n], addr)
		}()
	}
}

// Stream is a gRPC-style stream of requests.
type Stream interface {
	Recv() (*Message, error)
	Send(*Message) error
}

// Xray's DNS hijack (proxy/dns): a goroutine per query of one kind, in a
// switch.
func hijack(ctx context.Context, s Stream) error {
	for {
		m, err := s.Recv()
		if err != nil {
			return err
		}
		switch len(m.Key) {
		case 0:
			continue
		default:
			go answer(ctx, s, m) // want `goroutine per item read from s with nothing bounding how many run at once`
		}
	}
}

func answer(ctx context.Context, s Stream, m *Message) { s.Send(m) }
