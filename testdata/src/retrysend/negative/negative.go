// Package negative holds the shapes retrysend must leave alone.
package negative

import (
	"context"
	"errors"
	"log"
	"os"
	"sync/atomic"
	"time"
)

type item struct{ n int }

var errFull = errors.New("full")

type server struct {
	queue   chan item
	subs    map[int]chan item
	dropped atomic.Int64
	pool    chan []byte
	wake    chan struct{}
	ready   chan bool
	spool   *os.File
}

// The default returns an error.
func (s *server) offer(it item) error {
	select {
	case s.queue <- it:
		return nil
	default:
		return errFull
	}
}

// The default counts and logs the drop.
func (s *server) offerCounted(it item) {
	select {
	case s.queue <- it:
	default:
		s.dropped.Add(1)
		log.Printf("queue full, dropping %d", it.n)
	}
}

// The default panics on a broken invariant.
func (s *server) mustOffer(it item) {
	select {
	case s.queue <- it:
	default:
		panic("queue sized for every item cannot be full")
	}
}

// The default does the work inline.
func (s *server) offerInline(it item) {
	select {
	case s.queue <- it:
	default:
		s.process(it)
	}
}

func (s *server) process(item) {}

// The default evicts the slow consumer.
func (s *server) broadcast(it item) {
	for id, ch := range s.subs {
		select {
		case ch <- it:
		default:
			close(ch)
			delete(s.subs, id)
		}
	}
}

// The default persists the item.
func (s *server) offerPersist(it item) error {
	select {
	case s.queue <- it:
		return nil
	default:
		_, err := s.spool.Write([]byte{byte(it.n)})
		return err
	}
}

// The default leaves the loop.
func (s *server) offerLoop(items []item) int {
	n := 0
	for _, it := range items {
		select {
		case s.queue <- it:
			n++
			continue
		default:
		}
		break
	}
	return n
}

// A loop whose default leaves it while the send stays.
func (s *server) fill(it item) {
	for {
		select {
		case s.queue <- it:
		default:
			return
		}
	}
}

// Coalescing wake-ups, even retried.
func (s *server) notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
	for {
		select {
		case s.ready <- true:
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// A free-list put: return the buffer to the pool, else let it go.
func (s *server) putBuffer(b []byte) {
	select {
	case s.pool <- b[:0]:
	default:
	}
}

// Try, then block: an empty default followed by a blocking send.
func (s *server) offerThenBlock(it item) {
	select {
	case s.queue <- it:
		return
	default:
	}
	log.Print("queue full, waiting")
	s.queue <- it
}

// The same in a loop.
func (s *server) offerThenBlockLoop(it item) {
	for {
		select {
		case s.queue <- it:
			return
		default:
		}
		log.Print("queue full, waiting")
		s.queue <- it
		return
	}
}

// A select with ctx.Done() and no default.
func (s *server) submit(ctx context.Context, it item) error {
	for {
		select {
		case s.queue <- it:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// A receive with a default drains.
func (s *server) drain() int {
	n := 0
	for {
		select {
		case <-s.queue:
			n++
		default:
			return n
		}
	}
}

// A poll interval for other work: the loop reports progress between jobs.
func (s *server) report(progress chan int) {
	n := 0
	for {
		n = s.work(n)
		select {
		case progress <- n:
		default:
		}
		time.Sleep(time.Second)
	}
}

func (s *server) work(n int) int { return n + 1 }

// A send case that does not leave the loop: a producer that sends a new
// item per iteration.
func (s *server) produce(src <-chan item) {
	for it := range src {
		select {
		case s.queue <- it:
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// Each attempt computes a new value: not a retry of the same item.
func (s *server) sample(read func() item) {
	for {
		select {
		case s.queue <- read():
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// A loop condition the send does not control: the retry stops when asked.
func (s *server) untilStopped(stopped *atomic.Bool, it item) {
	for !stopped.Load() {
		select {
		case s.queue <- it:
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// A default that does more than wait: it re-reads the item.
func (s *server) refresh(it item, next func() item) {
	for {
		select {
		case s.queue <- it:
			return
		default:
			it = next()
		}
	}
}

// A select with another case besides the send.
func (s *server) offerOrQuit(quit chan struct{}, it item) {
	for {
		select {
		case s.queue <- it:
			return
		case <-quit:
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// A channel typed by a type parameter: its element is unknown, so the check
// stays silent rather than guess.
func putGeneric[C ~chan int](c C, v int) {
	for {
		select {
		case c <- v:
			return
		default:
		}
	}
}

// Each attempt tries the next worker: load balancing, not a retry of one
// bound.
func (s *server) roundRobin(workers []chan item, it item) {
	for i := 0; ; i++ {
		select {
		case workers[i%len(workers)] <- it:
			return
		default:
		}
	}
}
