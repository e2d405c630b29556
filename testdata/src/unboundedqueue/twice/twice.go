// Package twice appends two jobs to a queue in one call. Rejecting before the
// second append would leave the first queued while the caller is told both
// were refused, so even a function that returns an error drops the oldest.
package twice

import "sync"

type Job struct{ ID int }

type Server struct {
	mu sync.Mutex
	q  []Job
}

func (s *Server) Twice(a, b Job) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.q = append(s.q, a) // want `slice queue s.q grows without bound`
	s.q = append(s.q, b) // want `slice queue s.q grows without bound`
	return nil
}

func (s *Server) next() (Job, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.q) == 0 {
		return Job{}, false
	}
	j := s.q[0]
	s.q = s.q[1:]
	return j, true
}
