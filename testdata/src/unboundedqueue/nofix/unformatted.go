package nofix

import "sync"

// Code that gofmt has not seen: statements that share a line cannot take a
// guard or an acquire on a line of their own.
type server struct {
	mu   sync.Mutex
	jobs []job
}

func (s *server) Submit(j job) {
	s.mu.Lock(); s.jobs = append(s.jobs, j) // want `slice queue s.jobs grows without bound`
	s.mu.Unlock()
}

func (s *server) worker() {
	for {
		s.mu.Lock()
		if len(s.jobs) > 0 {
			j := s.jobs[0]
			s.jobs = s.jobs[1:]
			handle(j)
		}
		s.mu.Unlock()
	}
}

func consume(jobs <-chan job) {
	for j := range jobs { go handle(j) } // want `goroutine per item received from jobs`
}
