// Two queues filled by the same function share one declaration edit, and a
// queue filled in two files gets its limit declared once.
package multifile

import "sync"

type task struct{ id int }

type scheduler struct {
	mu     sync.Mutex
	high   []task
	low    []task
	events chan task
}

func (s *scheduler) Add(t task, urgent bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if urgent {
		s.high = append(s.high, t) // want `slice queue s.high grows without bound`
		return nil
	}
	s.low = append(s.low, t) // want `slice queue s.low grows without bound`
	return nil
}

// Items arriving on a channel are queued by a goroutine per item.
func (s *scheduler) feed() {
	for t := range s.events {
		go func() { // want `goroutine per item received from s.events`
			s.high = append(s.high, t) // want `slice queue s.high grows without bound`
		}()
	}
}
