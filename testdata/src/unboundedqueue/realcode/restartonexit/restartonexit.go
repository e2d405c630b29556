// Package restartonexit is a false goroutineperitem finding from the corpus
// run: github.com/cloudflare/cloudflared, supervisor/supervisor.go,
// (*Supervisor).Run.
//
// The channel carries the exits of the supervisor's own workers: each
// worker sends its error as its last act, and the loop restarts that slot.
// The goroutine started per item replaces the one that just ended, so the
// number of workers stays the configured count; nothing outside feeds the
// channel. No finding is wanted.
package restartonexit

import "context"

type exit struct {
	slot int
	err  error
}

type supervisor struct {
	exits chan exit
	slots int
}

func (s *supervisor) serve(ctx context.Context, slot int) {
	var err error // a tunnel's lifetime
	s.exits <- exit{slot, err}
}

func (s *supervisor) Run(ctx context.Context) {
	for i := range s.slots {
		go s.serve(ctx, i)
	}
	active := s.slots
	for {
		select {
		case <-ctx.Done():
			for ; active > 0; active-- {
				<-s.exits
			}
			return
		case e := <-s.exits:
			active--
			if e.err != nil {
				go s.serve(ctx, e.slot) // no finding wanted: replaces the worker that exited
				active++
			}
		}
	}
}
