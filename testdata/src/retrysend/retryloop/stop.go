package retryloop

import (
	"context"
	"time"
)

// A check of ctx.Done() at the top of each attempt: the loop honours
// cancellation, and the fix keeps it as a case of the blocking select.
func (d *dispatcher) submitUntilDone(ctx context.Context, j job) error {
	for { // want `loop retries a non-blocking send on d.jobs until it succeeds, sleeping 5ms between attempts: it adds latency and lets work pile up upstream instead of pushing back; block on the send, in a select that keeps the loop's stop case, instead`
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		select {
		case d.jobs <- j:
			return nil
		default:
			time.Sleep(5 * time.Millisecond)
		}
	}
}

type worker struct {
	out  chan job
	quit chan struct{}
}

// A quit channel, with a capped backoff: the stop case keeps its body.
func (w *worker) push(j job) bool {
	backoff := 5 * time.Millisecond
	for { // want `loop retries a non-blocking send on w.out until it succeeds, sleeping between attempts`
		select {
		case <-w.quit:
			return false
		default:
		}
		select {
		case w.out <- j:
			return true
		default:
		}
		time.Sleep(backoff)
		backoff *= 2
		if backoff > time.Second {
			backoff = time.Second
		}
	}
}

// A stop that breaks out of the loop: the select falls through to what
// followed it.
func (w *worker) pushOrLog(j job) int {
	n := 0
retry:
	for { // want `loop retries a non-blocking send on w.out until it succeeds, spinning`
		select {
		case <-w.quit:
			break retry
		default:
		}
		select {
		case w.out <- j:
			n++
			break retry
		default:
		}
	}
	return n
}

// A bounded poll with a stop check: the timed send keeps it too.
func (w *worker) offer(j job) bool {
	for i := 0; i < 3; i++ { // want `bounded retry polls a non-blocking send on w.out 3 times, 10ms apart \(30ms in all\), before giving up`
		select {
		case <-w.quit:
			return false
		default:
		}
		select {
		case w.out <- j:
			return true
		default:
			time.Sleep(10 * time.Millisecond)
		}
	}
	return false
}

// Negative: the check's case does work and stays in the loop.
func (w *worker) pushFlushing(j job, flushc chan struct{}, flush func()) {
	for {
		select {
		case <-flushc:
			flush()
		default:
		}
		select {
		case w.out <- j:
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// Negative: the check receives data, not a stop.
func (w *worker) pushDraining(j job, in chan job, buf *[]job) {
	for {
		select {
		case x := <-in:
			*buf = append(*buf, x)
			return
		default:
		}
		select {
		case w.out <- j:
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// Negative: the stop channel comes from a call, made each attempt.
func (w *worker) pushStopFunc(j job, stop func() <-chan struct{}) {
	for {
		select {
		case <-stop():
			return
		default:
		}
		select {
		case w.out <- j:
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}
