// False goroutineperitem findings from the corpus run:
// github.com/ginuerzh/gost, ssh.go, (*sshForwardHandler).handleForward
// (three: the per-request and the two per-channel goroutines) and
// (*sshTunnelListener).serveConn.
//
// An SSH connection multiplexes streams: golang.org/x/crypto/ssh hands the
// server each stream the client opens as an ssh.NewChannel on a channel,
// and each "tcpip-forward" global request as an *ssh.Request. The loops
// start one goroutine per stream (its handler and the discarder of its
// requests, both living as long as the stream) and one per forwarded port
// (its listener): the channel form of an accept loop, per-entity
// goroutines, not per message. The item is a stream waiting to be accepted,
// whose Accept returns a ReadWriteCloser, not a net.Conn. No finding is
// wanted.
package unboundedqueue

import (
	"fmt"
	"io"
	"net"
)

// Types with the shape of golang.org/x/crypto/ssh's.
type (
	Request struct {
		Type      string
		WantReply bool
	}
	Channel interface {
		io.ReadWriteCloser
		CloseWrite() error
	}
	NewChannel interface {
		Accept() (Channel, <-chan *Request, error)
		ChannelType() string
		Reject(reason uint32, message string) error
		ExtraData() []byte
	}
)

type directForward struct {
	Host string
	Port uint32
}

func unmarshal(data []byte, out any) error { return nil }

func (r *Request) Reply(ok bool, payload []byte) error { return nil }

func discardRequests(in <-chan *Request) {
	for req := range in {
		if req.WantReply {
			req.Reply(false, nil)
		}
	}
}

func forwardPort(req *Request, quit <-chan struct{}) {
	// listen on the requested port and relay each connection until quit
	<-quit
}

func relayChannel(ch Channel, addr string) {
	defer ch.Close()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return
	}
	defer conn.Close()
	go io.Copy(conn, ch)
	io.Copy(ch, conn)
}

func handleForward(chans <-chan NewChannel, reqs <-chan *Request, quit <-chan struct{}) {
	go func() {
		for req := range reqs {
			switch req.Type {
			case "tcpip-forward":
				go forwardPort(req, quit) // no finding wanted: one listener per forwarded port
			default:
				if req.WantReply {
					req.Reply(false, nil)
				}
			}
		}
	}()
	go func() {
		for newChannel := range chans {
			if newChannel.ChannelType() != "direct-tcpip" {
				newChannel.Reject(1, "unknown channel type")
				continue
			}
			channel, requests, err := newChannel.Accept()
			if err != nil {
				continue
			}
			var p directForward
			unmarshal(newChannel.ExtraData(), &p)
			go discardRequests(requests)                                   // no finding wanted: lives as long as the stream
			go relayChannel(channel, fmt.Sprintf("%s:%d", p.Host, p.Port)) // no finding wanted: one handler per stream
		}
	}()
}
