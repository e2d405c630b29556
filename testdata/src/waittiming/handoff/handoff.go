// Package handoff times requests handed to a job queue — a buffered
// channel a goroutine of the package drains — whose reply the caller then
// waits for: the figure includes the time the request queued behind the
// earlier ones, and the wait ends in the goroutine that takes it, so these
// findings come without a fix.
package handoff

import (
	"context"
	"errors"
	"log"
	"time"
)

type writeRequest struct {
	data       []byte
	responseCh chan error
}

type writer struct {
	appendCh chan *writeRequest
	stop     chan struct{}
}

func newWriter(n int) *writer {
	w := &writer{appendCh: make(chan *writeRequest, n), stop: make(chan struct{})}
	go w.loop()
	return w
}

func (w *writer) write(reqs []*writeRequest) error { return nil }

// loop drains the queue in batches.
func (w *writer) loop() {
	for {
		select {
		case req := <-w.appendCh:
			reqs := []*writeRequest{req}
			err := w.write(reqs)
			for _, r := range reqs {
				r.responseCh <- err
			}
		case <-w.stop:
			return
		}
	}
}

type recorder struct{}

func (recorder) Record(time.Duration) {}

var writeLatency recorder

var errThrottled = errors.New("too many outstanding appends")

// Append is temporal's task writer: the request goes into the buffered
// queue or is refused, and the latency is recorded when the reply comes.
func (w *writer) Append(data []byte) error {
	startTime := time.Now().UTC()
	ch := make(chan error)
	req := &writeRequest{data: data, responseCh: ch}
	select {
	case w.appendCh <- req:
		select {
		case err := <-ch:
			writeLatency.Record(time.Since(startTime)) // want `the duration since startTime spans the queue of appendCh and the work of the goroutine that drains it, so time queued behind earlier requests is reported as slow work; timestamp the request when the consumer takes it and record the queue wait separately`
			return err
		case <-w.stop:
			return errors.New("shutting down")
		}
	default:
		return errThrottled
	}
}

// Blocking sends without a select and waits for the reply.
func (w *writer) Blocking(data []byte) error {
	start := time.Now()
	done := make(chan error, 1)
	w.appendCh <- &writeRequest{data: data, responseCh: done}
	err := <-done
	log.Printf("write took %v", time.Since(start)) // want `the duration since start spans the queue of appendCh`
	return err
}

// Field makes the reply channel in the request.
func (w *writer) Field(data []byte) error {
	start := time.Now()
	req := &writeRequest{data: data, responseCh: make(chan error, 1)}
	w.appendCh <- req
	err := <-req.responseCh
	log.Printf("write took %v", time.Since(start)) // want `the duration since start spans the queue of appendCh`
	return err
}

type pool struct{ jobs chan func() }

func newPool(workers, queue int) *pool {
	p := &pool{jobs: make(chan func(), queue)}
	for range workers {
		go func() {
			for f := range p.jobs {
				f()
			}
		}()
	}
	return p
}

func work(ctx context.Context) error { return nil }

// Closure hands a closure to the workers and waits until it has run.
func (p *pool) Closure(ctx context.Context) {
	start := time.Now()
	done := make(chan struct{})
	p.jobs <- func() { work(ctx); close(done) }
	<-done
	log.Printf("took %v", time.Since(start)) // want `the duration since start spans the queue of jobs`
}

// Forget queues the request and returns: it times the enqueue alone.
func (w *writer) Forget(data []byte) {
	start := time.Now()
	w.appendCh <- &writeRequest{data: data, responseCh: make(chan error, 1)} // why: no-reply-wait
	log.Printf("queued in %v", time.Since(start))
}

// After starts the clock once the reply is in: nothing queued is timed.
func (w *writer) After(data []byte) error {
	done := make(chan error, 1)
	w.appendCh <- &writeRequest{data: data, responseCh: done}
	err := <-done
	start := time.Now()
	_ = w.write(nil)
	log.Printf("second write took %v", time.Since(start))
	return err
}

var results = make(chan error, 16)

// Shared waits on a results channel the request does not carry: whose
// result it gets is not this request's.
func (w *writer) Shared(data []byte) error {
	start := time.Now()
	w.appendCh <- &writeRequest{data: data}
	err := <-results
	log.Printf("took %v", time.Since(start))
	return err
}

type once struct{ in chan *writeRequest }

// Once sends on a buffered channel that nothing drains in a loop: not a
// job queue.
func (o *once) Once(data []byte) error {
	start := time.Now()
	done := make(chan error, 1)
	o.in <- &writeRequest{data: data, responseCh: done}
	err := <-done
	log.Printf("took %v", time.Since(start))
	return err
}

func newOnce() *once { return &once{in: make(chan *writeRequest, 8)} }

// Failure waits for the reply only when the write failed: an error branch.
func (w *writer) Failure(data []byte) error {
	start := time.Now()
	err := w.write(nil)
	if err != nil {
		done := make(chan error, 1)
		w.appendCh <- &writeRequest{data: data, responseCh: done} // why: not-on-every-path
		err = <-done
	}
	log.Printf("took %v", time.Since(start))
	return err
}
