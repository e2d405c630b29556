package retryloop

import (
	"context"
	"log"
	"runtime"
	"time"
)

type job struct{ id int }

type dispatcher struct {
	jobs chan job
}

// A plain function: the loop becomes the blocking send and what the send case
// did after it.
func submit(jobs chan<- job, j job) {
	for { // want `loop retries a non-blocking send on jobs until it succeeds, sleeping 10ms between attempts: it adds latency, ignores cancellation and lets work pile up upstream instead of pushing back; block on the send instead`
		select {
		case jobs <- j:
			log.Printf("queued %d", j.id)
			return
		default:
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// A method with a context and an error result: the send also waits on
// ctx.Done().
func (d *dispatcher) Submit(ctx context.Context, j job) error {
	for { // want `loop retries a non-blocking send on d.jobs until it succeeds, spinning: it burns a CPU, ignores cancellation and lets work pile up upstream instead of pushing back; block on the send, with ctx.Done\(\), instead`
		select {
		case d.jobs <- j:
			return nil
		default:
			runtime.Gosched()
		}
	}
}

// Other results get their zero values.
func (d *dispatcher) SubmitID(ctx context.Context, j job) (int, *job, string, error) {
	for { // want `loop retries a non-blocking send on d.jobs until it succeeds`
		select {
		case d.jobs <- j:
			return j.id, &j, "ok", nil
		default:
		}
	}
}

// Generics.
func put[T any](ch chan T, v T) {
	for { // want `loop retries a non-blocking send on ch until it succeeds, spinning`
		select {
		case ch <- v:
			return
		default:
			continue
		}
	}
}

// A type parameter's zero value in the cancellation return.
func take[T any](ctx context.Context, ch chan T, v T) (T, error) {
	for { // want `loop retries a non-blocking send on ch until it succeeds, spinning`
		select {
		case ch <- v:
			return v, nil
		default:
		}
	}
}

// A labeled loop left by a labeled break; the default continues it.
func labeled(ch chan int, v int) int {
	n := 0
retry:
	for { // want `loop retries a non-blocking send on ch until it succeeds, sleeping 1ms between attempts`
		select {
		case ch <- v:
			n++
			break retry
		default:
			time.Sleep(time.Millisecond)
			continue retry
		}
	}
	return n
}

// A flag the loop condition reads; nothing else reads it, so the fix deletes
// it.
func flag(ch chan string, s string) {
	sent := false
	for !sent { // want `loop retries a non-blocking send on ch until it succeeds, sleeping 5ms between attempts`
		select {
		case ch <- s:
			sent = true
		default:
			time.Sleep(5 * time.Millisecond)
		}
	}
	log.Print("sent")
}

// A flag declared by the loop, in a three-clause loop.
func flagInit(ch chan string, s string) {
	for sent := false; !sent; { // want `loop retries a non-blocking send on ch until it succeeds, spinning`
		select {
		case ch <- s:
			sent = true
		default:
		}
	}
}

// A flag read after the loop keeps its assignment.
func flagRead(ch chan string, s string) bool {
	ok := false
	for !ok { // want `loop retries a non-blocking send on ch until it succeeds, spinning`
		select {
		case ch <- s:
			ok = true
		default:
			runtime.Gosched()
		}
	}
	return ok
}

// A three-clause loop that counts attempts without bounding them, and logs.
func counting(ch chan int, v int) {
	for attempt := 0; ; attempt++ { // want `loop retries a non-blocking send on ch until it succeeds, sleeping 2ms between attempts`
		select {
		case ch <- v:
			return
		default:
			log.Printf("attempt %d: channel full", attempt)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// A backoff: the delay variable is only read by the loop, so the fix
// deletes it.
func backoff(ch chan int, v int) {
	delay := time.Millisecond
	for { // want `loop retries a non-blocking send on ch until it succeeds, sleeping between attempts`
		select {
		case ch <- v:
			return
		default:
		}
		time.Sleep(delay)
		delay = min(delay*2, time.Second)
	}
}

// The retry sits in a case of an event loop: a nested select.
func (d *dispatcher) run(ctx context.Context, in <-chan job) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case j := <-in:
			for { // want `loop retries a non-blocking send on d.jobs until it succeeds, sleeping 1ms between attempts`
				select {
				case d.jobs <- j:
				default:
					time.Sleep(time.Millisecond)
					continue
				}
				break
			}
		}
	}
}

// A wait that honours cancellation still polls.
func (d *dispatcher) cancellable(ctx context.Context, j job) error {
	for { // want `loop retries a non-blocking send on d.jobs until it succeeds, waiting between attempts: it adds latency and lets work pile up upstream instead of pushing back; block on the send, with ctx.Done\(\), instead`
		select {
		case d.jobs <- j:
			return nil
		default:
			select {
			case <-time.After(time.Millisecond):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}

// A loop that retries until cancellation: the fix waits on ctx.Done() and
// falls through to what followed the loop.
func (d *dispatcher) untilCancelled(ctx context.Context, j job) error {
	for ctx.Err() == nil { // want `loop retries a non-blocking send on d.jobs until it succeeds, sleeping 1ms between attempts: it adds latency and lets work pile up upstream`
		select {
		case d.jobs <- j:
			return nil
		default:
			time.Sleep(time.Millisecond)
		}
	}
	return ctx.Err()
}

// A goroutine that only retries the send parks one per item, like a goroutine
// that only sends: the fix sends in place of the goroutine.
func (d *dispatcher) async(ctx context.Context, j job) {
	go func() {
		for { // want `loop retries a non-blocking send on d.jobs until it succeeds, spinning`
			select {
			case d.jobs <- j:
				return
			default:
			}
		}
	}()
}
