// Package sshchannels holds false goroutineperitem findings from the corpus
// run: github.com/ginuerzh/gost, ssh.go, (*sshForwardHandler).handleForward
// (the per-request and the two per-channel goroutines) and
// (*sshTunnelListener).serveConn.
//
// An SSH connection multiplexes streams: golang.org/x/crypto/ssh hands the
// server each stream the client opens as an ssh.NewChannel on a channel,
// and each "tcpip-forward" global request as an *ssh.Request. The loops
// start one goroutine per stream (its handler and the discarder of its
// requests, both living as long as the stream) and one per forwarded port
// (its listener, which serves until the connection quits): the channel
// form of an accept loop, per-entity goroutines, not per message. The item
// is a stream waiting to be accepted, whose Accept returns a
// ReadWriteCloser, not a net.Conn. No finding is expected.
package sshchannels

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"

	"golang.org/x/crypto/ssh"
)

type directForward struct {
	Host string
	Port uint32
}

type forwardHandler struct{}

// forwardPort listens on the port the client asked for and relays every
// connection to it, until the SSH connection quits.
func (h *forwardHandler) forwardPort(conn ssh.Conn, req *ssh.Request, quit <-chan struct{}) {
	ln, err := net.Listen("tcp", string(req.Payload))
	if err != nil {
		req.Reply(false, nil)
		return
	}
	defer ln.Close()
	req.Reply(true, nil)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				ch, reqs, err := conn.OpenChannel("forwarded-tcpip", nil)
				if err != nil {
					return
				}
				defer ch.Close()
				go ssh.DiscardRequests(reqs)
				relay(ch, c)
			}()
		}
	}()

	<-quit
}

func relay(a, b io.ReadWriter) {
	go io.Copy(a, b)
	io.Copy(b, a)
}

func (h *forwardHandler) relayChannel(ch ssh.Channel, addr string) {
	defer ch.Close()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return
	}
	defer conn.Close()
	relay(ch, conn)
}

func (h *forwardHandler) handleForward(conn ssh.Conn, chans <-chan ssh.NewChannel, reqs <-chan *ssh.Request) {
	quit := make(chan struct{})
	defer close(quit)

	go func() {
		for req := range reqs {
			switch req.Type {
			case "tcpip-forward":
				go h.forwardPort(conn, req, quit) // no finding: one listener per forwarded port, until quit
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
				newChannel.Reject(ssh.UnknownChannelType, "unknown channel type")
				continue
			}
			channel, requests, err := newChannel.Accept()
			if err != nil {
				continue
			}
			var p directForward
			ssh.Unmarshal(newChannel.ExtraData(), &p)
			go ssh.DiscardRequests(requests)                                   // no finding: lives as long as the stream
			go h.relayChannel(channel, fmt.Sprintf("%s:%d", p.Host, p.Port)) // no finding: one handler per stream
		}
	}()

	conn.Wait()
}

type sshConn struct {
	net.Conn
	channel ssh.Channel
}

type tunnelListener struct {
	connChan chan net.Conn
}

func (l *tunnelListener) serveConn(conn net.Conn, sc ssh.Conn, chans <-chan ssh.NewChannel, reqs <-chan *ssh.Request) {
	defer sc.Close()
	go ssh.DiscardRequests(reqs)
	go func() {
		for newChannel := range chans {
			channel, requests, err := newChannel.Accept()
			if err != nil {
				continue
			}
			go ssh.DiscardRequests(requests) // no finding: lives as long as the stream
			cc := &sshConn{Conn: conn, channel: channel}
			select {
			case l.connChan <- cc:
			default:
				cc.Close()
			}
		}
	}()
	sc.Wait()
}

// A watcher per topic asked for, registered until the server stops: it
// lives as long as the context the loop's function was given.
type registry struct {
	mu     sync.Mutex
	topics map[string]bool
}

func (r *registry) add(topic string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.topics[topic] = true
}

func (r *registry) remove(topic string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.topics, topic)
}

func watchTopics(ctx context.Context, r *registry, topics <-chan string) {
	for topic := range topics {
		go func() { // no finding: one per topic, until ctx is done
			r.add(topic)
			defer r.remove(topic)
			<-ctx.Done()
		}()
	}
}

// Near misses. A goroutine per channel request that answers it and ends:
// per message, and nothing bounds them.
func answer(req *ssh.Request) {
	req.Reply(req.Type == "keepalive@openssh.com", nil)
}

func serveRequests(reqs <-chan *ssh.Request) {
	for req := range reqs {
		go answer(req) // want `goroutine per item received from reqs with nothing bounding how many run at once`
	}
}

// A goroutine per request that waits for its own reply before it ends: the
// signal it waits on is the item's, not the connection's.
type call struct {
	req  *ssh.Request
	done chan struct{}
}

func serveCalls(calls <-chan *call) {
	for c := range calls {
		go func() { // want `goroutine per item received from calls with nothing bounding how many run at once`
			answer(c.req)
			<-c.done
		}()
	}
}

// Items whose Accept hands out no stream: a job lease, per message.
type lease interface {
	Accept() (ok bool, err error)
	Payload() []byte
}

func work([]byte) {}

func serveLeases(leases <-chan lease) {
	for l := range leases {
		if ok, _ := l.Accept(); ok {
			go work(l.Payload()) // want `goroutine per item received from leases with nothing bounding how many run at once`
		}
	}
}
