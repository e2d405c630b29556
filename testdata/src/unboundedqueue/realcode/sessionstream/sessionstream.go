// Package sessionstream is gmqtt's federation EventStream
// (plugin/federation/federation.go), census row gmqtt-35: each call of the
// streaming RPC starts a goroutine parked on the session's close channel.
// When the stream ends by a Recv or Send error the method returns and the
// goroutine stays; a peer that reconnects every few seconds leaves one
// more each time, and a session replaced by a clean start is never closed.
// The twin selects on the stream's context beside the session's channel.
package sessionstream

import (
	"context"
	"errors"
	"sync"
)

type Event struct{ ID uint64 }

type Ack struct{ EventID uint64 }

type ServerStream interface {
	Context() context.Context
	SendMsg(m any) error
	RecvMsg(m any) error
}

type Federation_EventStreamServer interface {
	Send(*Ack) error
	Recv() (*Event, error)
	ServerStream
}

type session struct {
	id    string
	close chan struct{}
}

type sessionMgr struct {
	sync.Mutex
	sessions map[string]*session
}

func (s *sessionMgr) get(node string) *session {
	s.Lock()
	defer s.Unlock()
	return s.sessions[node]
}

type Federation struct {
	sessionMgr *sessionMgr
}

var errSessionClosed = errors.New("EventStream: the session has been closed")

func (f *Federation) EventStream(stream Federation_EventStreamServer) (err error) {
	sess := f.sessionMgr.get("node")
	if sess == nil {
		return errors.New("EventStream: node does not exist")
	}
	errCh := make(chan error, 1)
	done := make(chan struct{})
	go func() { // want `goroutine started per Federation_EventStreamServer stream by \(\*Federation\).EventStream outlives it: it waits on sess.close`
		<-sess.close
		errCh <- errSessionClosed
		close(done)
	}()
	go func() {
		for {
			select {
			case <-done:
			default:
				in, err := stream.Recv()
				if err != nil {
					errCh <- err
					return
				}
				if err := stream.Send(&Ack{EventID: in.ID}); err != nil {
					errCh <- err
					return
				}
			}
		}
	}()
	return <-errCh
}

// The twin: the goroutine also leaves when the stream's context ends.
func (f *Federation) EventStreamCancelled(stream Federation_EventStreamServer) (err error) {
	sess := f.sessionMgr.get("node")
	if sess == nil {
		return errors.New("EventStream: node does not exist")
	}
	errCh := make(chan error, 1)
	go func() {
		select {
		case <-sess.close:
			errCh <- errSessionClosed
		case <-stream.Context().Done():
		}
	}()
	go func() {
		for {
			in, err := stream.Recv()
			if err != nil {
				errCh <- err
				return
			}
			if err := stream.Send(&Ack{EventID: in.ID}); err != nil {
				errCh <- err
				return
			}
		}
	}()
	return <-errCh
}
