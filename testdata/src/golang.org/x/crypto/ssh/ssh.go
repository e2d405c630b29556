// Package ssh is a test stub with the part of the API of
// golang.org/x/crypto/ssh that a server uses to accept streams and global
// requests.
package ssh

import "io"

// A Request is a global or channel request.
type Request struct {
	Type      string
	WantReply bool
	Payload   []byte
}

func (r *Request) Reply(ok bool, payload []byte) error { return nil }

// A Channel is a multiplexed stream of an SSH connection.
type Channel interface {
	io.ReadWriteCloser
	CloseWrite() error
	SendRequest(name string, wantReply bool, payload []byte) (bool, error)
}

// A NewChannel is a stream the peer asks to open.
type NewChannel interface {
	Accept() (Channel, <-chan *Request, error)
	Reject(reason RejectionReason, message string) error
	ChannelType() string
	ExtraData() []byte
}

type RejectionReason uint32

const UnknownChannelType RejectionReason = 3

// A Conn is an SSH connection.
type Conn interface {
	Wait() error
	Close() error
	OpenChannel(name string, data []byte) (Channel, <-chan *Request, error)
}

// DiscardRequests answers every request of in with a refusal until in is
// closed.
func DiscardRequests(in <-chan *Request) {
	for req := range in {
		if req.WantReply {
			req.Reply(false, nil)
		}
	}
}

func Unmarshal(data []byte, out any) error { return nil }
