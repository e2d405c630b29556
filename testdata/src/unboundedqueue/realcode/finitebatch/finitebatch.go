// Package finitebatch is hatchet's queuer (pkg/scheduling/v1, a false alarm
// of an earlier version): tryAssign makes a channel with a slot per action
// of one batch, writes one result per action from a goroutine each, and
// closes it; the queuer ranges over it and starts a goroutine per result.
// The stream is one batch the call produced, closed by its producer, not a
// service's input.
package finitebatch

import "sync"

type result struct{ action string }

type scheduler struct{}

func (s *scheduler) tryAssign(actions map[string][]int) <-chan *result {
	resultsCh := make(chan *result, len(actions))
	go func() {
		var wg sync.WaitGroup
		for a := range actions {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resultsCh <- &result{action: a}
			}()
		}
		wg.Wait()
		close(resultsCh)
	}()
	return resultsCh
}

type queuer struct {
	s       *scheduler
	results chan *result
}

func (q *queuer) flush(actions map[string][]int, save func(*result)) {
	assignCh := q.s.tryAssign(actions)
	for r := range assignCh {
		go save(r)
	}
}

// The same with the channel made and closed in the function itself.
func (q *queuer) flushLocal(actions []string, save func(*result)) {
	ch := make(chan *result, len(actions))
	go func() {
		defer close(ch)
		for _, a := range actions {
			ch <- &result{action: a}
		}
	}()
	for r := range ch {
		go save(r)
	}
}

// The near miss: a long-lived stream others feed.
func (q *queuer) run(save func(*result)) {
	for r := range q.results {
		go save(r) // want `goroutine per item received from q.results with nothing bounding how many run at once`
	}
}
