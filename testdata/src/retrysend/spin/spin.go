// Package spin holds loops that try non-blocking sends and never block, and
// the loops around non-blocking sends that do block somewhere.
package spin

import (
	"context"
	"runtime"
	"time"
)

// hardThrottle is go-carbon's hard throttle: when no tick and no exit is
// ready, the default tries to hand out a token and goes round at once,
// whether the buffer took it or the second's budget is spent.
func hardThrottle(notThrottle chan bool, ratePerSec int) func(chan bool) {
	return func(exit chan bool) {
		defer close(notThrottle)
		sent := 0
		ticker := time.NewTicker(time.Second)
		defer ticker.Stop()
		for { // want `loop tries a non-blocking send on notThrottle and goes round at once when no case is ready: nothing in it blocks, so it spins a core`
			select {
			case <-ticker.C:
				sent = 0
			case <-exit:
				return
			default:
				if sent < ratePerSec {
					select {
					case notThrottle <- true:
						sent++
					default:
					}
				}
			}
		}
	}
}

// A generator that offers the latest value whenever it can, yielding in
// between: it still never waits.
func offerLatest(ctx context.Context, out chan<- int, latest *int) {
	for { // want `loop tries a non-blocking send on out and goes round at once`
		select {
		case <-ctx.Done():
			return
		default:
		}
		select {
		case out <- *latest:
		default:
			runtime.Gosched()
		}
	}
}

// A pump of stamps under a flag: the loop ends when the flag is cleared,
// and spins until then.
type stamper struct {
	running bool
	out     chan int64
}

func (s *stamper) run(now int64) {
	for s.running { // want `loop tries a non-blocking send on s.out and goes round at once`
		select {
		case s.out <- now:
			continue
		default:
		}
	}
}

// softThrottle hands out a chunk of tokens per tick with a blocking send:
// the loop waits for the tick, then for a taker.
func softThrottle(throttle chan bool, exit chan bool, chunk int) {
	ticker := time.NewTicker(time.Millisecond)
	defer ticker.Stop()
	for {
		select {
		case <-ticker.C:
			for i := 0; i < chunk; i++ {
				select {
				case throttle <- true:
				case <-exit:
					return
				}
			}
		case <-exit:
			return
		}
	}
}

// A default that sleeps polls on an interval: it does not spin.
func pollOffer(out chan<- int, v int, exit chan bool) {
	for {
		select {
		case <-exit:
			return
		default:
			select {
			case out <- v:
			default:
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// The try-send sits in a case that runs only when a tick is ready; the
// select waits for one.
func onTick(ticks <-chan time.Time, out chan<- time.Time) {
	for {
		select {
		case t := <-ticks:
			select {
			case out <- t:
			default:
			}
		}
	}
}

// A blocking receive before the try-send: the loop waits for each item,
// and a full output drops it.
func forward(in <-chan int, out chan<- int, dropped *int) {
	for {
		v := <-in
		select {
		case out <- v:
		default:
			*dropped++
		}
	}
}

// The default does work, which may well block: the check cannot tell.
func flushOrOffer(out chan<- int, v int, flush func()) {
	for {
		select {
		case out <- v:
		default:
			flush()
		}
	}
}

// A range over a channel waits for every item.
func fanIn(in <-chan int, out chan<- int) {
	for v := range in {
		select {
		case out <- v:
		default:
		}
	}
}

// A counted loop ends: a bounded burst, not a spin.
func burst(out chan<- int, n int) {
	for i := 0; i < n; i++ {
		select {
		case out <- i:
		default:
		}
	}
}
