// Package drainunderlock is a false slicefifo finding from the corpus run:
// github.com/tidwall/tile38, internal/server/aof.go, (*Server).writeAOF
// (the append to s.lstack), drained by internal/server/live.go,
// (*Server).processLives.
//
// The consumer holds the producers' lock (the sync.Cond's L) for the whole
// drain and releases it only in Wait, and the work it does per item is an
// in-memory hand-off. A producer can append only while the consumer waits,
// so the queue never holds more than what arrived during one wake-up: the
// lock already makes the producer keep the consumer's pace: the check
// stays silent. (The hazard in that code is downstream, in the per-client
// buffers the consumer fills; the corpus records it as a miss.)
package drainunderlock

import "sync"

type event struct{ key string }

type server struct {
	cond  *sync.Cond
	stack []event
	subs  map[string]func(event)
}

// record runs for every write command.
func (s *server) record(e event) {
	s.cond.L.Lock()
	if len(s.subs) > 0 {
		s.stack = append(s.stack, e) // no finding wanted
		s.cond.Broadcast()
	}
	s.cond.L.Unlock()
}

// deliver is the one consumer goroutine.
func (s *server) deliver() {
	s.cond.L.Lock()
	defer s.cond.L.Unlock()
	for {
		for len(s.stack) > 0 {
			e := s.stack[0]
			s.stack = s.stack[1:]
			if fn := s.subs[e.key]; fn != nil {
				fn(e) // an in-memory hand-off, under the lock
			}
		}
		s.cond.Wait()
	}
}
