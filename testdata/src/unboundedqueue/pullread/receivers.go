package pullread

import (
	"context"
	"log"
)

// Receiver and Responder have the shapes of CloudEvents' protocol.Receiver
// and protocol.Responder.
type Receiver interface {
	Receive(ctx context.Context) (Message, error)
}

type ResponseFn func(ctx context.Context, m Message, err error) error

type Responder interface {
	Respond(ctx context.Context) (Message, ResponseFn, error)
}

type Client struct {
	receiver  Receiver
	responder Responder
	invoke    func(ctx context.Context, m Message, fn ResponseFn) error
	blocking  bool
}

func noResp(context.Context, Message, error) error { return nil }

// CloudEvents' StartReceiver: the read in the branches of an if, the spawn
// unless the callback is set to block.
func (c *Client) StartReceiver(ctx context.Context) {
	for {
		var msg Message
		var respFn ResponseFn
		var err error
		if c.responder != nil {
			msg, respFn, err = c.responder.Respond(ctx)
		} else {
			msg, err = c.receiver.Receive(ctx)
			respFn = noResp
		}
		if err != nil {
			log.Printf("receive: %v", err)
			return
		}
		if c.blocking {
			_ = c.invoke(ctx, msg, respFn)
		} else {
			go func() { // want `goroutine per item read from c.responder with nothing bounding how many run at once`
				_ = c.invoke(ctx, msg, respFn)
			}()
		}
	}
}

// Socket reads into the message it is given, as go-micro's transport does.
type Socket interface {
	Recv(*Message) error
	Send(*Message) error
}

func serveConn(sock Socket, serve func(Message) *Message, out chan<- *Message) {
	for {
		var msg Message
		if err := sock.Recv(&msg); err != nil {
			return
		}
		go func() { // want `goroutine per item read from sock with nothing bounding how many run at once`
			out <- serve(msg)
		}()
	}
}

// Negative: a callback-style Receive runs the handler itself.
type Subscription interface {
	Receive(ctx context.Context, f func(context.Context, Message)) error
}

func pull(ctx context.Context, sub Subscription) {
	for {
		if err := sub.Receive(ctx, func(context.Context, Message) {}); err != nil {
			return
		}
		go log.Print("batch done")
	}
}

// PacketReader is sing's N.PacketReader: it fills the buffer it is given
// and returns the source.
type Addr struct{ Port uint16 }

type PacketReader interface {
	ReadPacket(buf []byte) (Addr, error)
	WritePacket(buf []byte, to Addr) error
}

func hijackPackets(conn PacketReader, exchange func([]byte) []byte) {
	for {
		buf := make([]byte, 512)
		from, err := conn.ReadPacket(buf)
		if err != nil {
			return
		}
		go func() { // want `goroutine per item read from conn with nothing bounding how many run at once`
			_ = conn.WritePacket(exchange(buf), from)
		}()
	}
}
