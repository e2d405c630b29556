// Package testhook is a production file that imports package testing for
// one hook (kueue's scheduler takes WithClock(_ testing.TB, c) beside its
// scheduling loop): the file is production and reported, all but the hook.
package testhook

import (
	"sync"
	"testing"
)

type job struct{ id int }

type server struct {
	mu   sync.Mutex
	jobs []job
	seed []job
}

// Positive: the production queue of the file.
func (s *server) Submit(j job) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.jobs = append(s.jobs, j) // want `slice queue s.jobs grows without bound: this append has no length check while \(\*server\).worker dequeues from its front, so overload piles up in memory; reject or drop items beyond a limit`
}

func (s *server) worker() {
	for {
		s.mu.Lock()
		if len(s.jobs) == 0 {
			s.mu.Unlock()
			continue
		}
		j := s.jobs[0]
		s.jobs = s.jobs[1:]
		s.seed = s.seed[1:]
		s.mu.Unlock()
		_ = j
	}
}

// Negative: the hook runs under tests only, whatever it queues.
func SeedForTest(_ testing.TB, s *server, j job) { // why: test-hook
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seed = append(s.seed, j)
}

func (s *server) Len() int { return len(s.jobs) }

type mailbox struct {
	mu    sync.Mutex
	items []job
}

// Positive: a body that asks testing.Testing() runs in production too.
func (m *mailbox) Put(j job) {
	if testing.Testing() {
		j.id = -j.id
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.items = append(m.items, j) // want `slice queue m.items grows without bound`
}

func (m *mailbox) take() {
	for {
		m.mu.Lock()
		if len(m.items) == 0 {
			m.mu.Unlock()
			continue
		}
		m.items = m.items[1:]
		m.mu.Unlock()
	}
}
