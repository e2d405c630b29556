package detached

import (
	"context"
	"errors"
	"sync"
)

// The streaming RPCs of a federation service: each is given its stream,
// not a request struct (a type with the methods of grpc.ServerStream).

type ServerStream interface {
	Context() context.Context
	SendMsg(m any) error
	RecvMsg(m any) error
}

type Event struct{ ID uint64 }

type Ack struct{ ID uint64 }

type Fed_EventStreamServer interface {
	Send(*Ack) error
	Recv() (*Event, error)
	ServerStream
}

type session struct {
	close chan struct{}
}

type sessions struct {
	mu   sync.Mutex
	byID map[string]*session
}

func (s *sessions) get(id string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byID[id]
}

type Fed struct {
	sessions *sessions
	peer     Peer
}

var errClosed = errors.New("session closed")

// The goroutine parks on the session's close channel; when the stream
// fails first, the method returns and leaves it parked.
func (f *Fed) EventStream(stream Fed_EventStreamServer) error {
	sess := f.sessions.get("node")
	errCh := make(chan error, 1)
	go func() { // want `goroutine started per Fed_EventStreamServer stream by \(\*Fed\).EventStream outlives it: it waits on sess.close, a channel of shared state the function neither closes nor sends on`
		<-sess.close
		errCh <- errClosed
	}()
	go func() {
		for {
			ev, err := stream.Recv()
			if err != nil {
				errCh <- err
				return
			}
			if err := stream.Send(&Ack{ID: ev.ID}); err != nil {
				errCh <- err
				return
			}
		}
	}()
	return <-errCh
}

// Negative: the goroutine is the only one that reports, and the method
// waits for it: it ends before the method returns.
func (f *Fed) WatchClose(stream Fed_EventStreamServer) error {
	sess := f.sessions.get("node")
	errCh := make(chan error, 1)
	go func() { // why: waited-for
		<-sess.close
		errCh <- errClosed
	}()
	return <-errCh
}

// Negative: the method closes the session's channel when it returns, so
// the goroutine ends with the call.
func (f *Fed) OwnSession(stream Fed_EventStreamServer) error {
	sess := f.sessions.get("node")
	defer close(sess.close)
	errCh := make(chan error, 2)
	go func() { // why: no-blocking-work
		<-sess.close
		errCh <- errClosed
	}()
	go func() {
		_, err := stream.Recv()
		errCh <- err
	}()
	return <-errCh
}

// Negative: the session is the call's own.
func (f *Fed) LocalSession(stream Fed_EventStreamServer) error {
	sess := &session{close: make(chan struct{})}
	errCh := make(chan error, 2)
	go func() { // why: no-blocking-work
		<-sess.close
		errCh <- errClosed
	}()
	go func() {
		_, err := stream.Recv()
		errCh <- err
	}()
	return <-errCh
}

// Negative: a goroutine that sends on the stream ends when the stream
// does (its Send fails once the method returns).
func (f *Fed) Push(stream Fed_EventStreamServer) error {
	go func() { // why: request-context
		for i := range uint64(3) {
			if f.peer.Replicate(context.Background(), "k", nil) != nil || stream.Send(&Ack{ID: i}) != nil {
				return
			}
		}
	}()
	return nil
}
