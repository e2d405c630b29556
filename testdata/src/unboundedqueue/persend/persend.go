package persend

import (
	"context"
	"sync"
	"time"
)

type event struct{ id int }

type notifier struct {
	mu     sync.Mutex
	events chan event
	errs   chan error
	ticks  chan time.Time
	stop   chan struct{}
}

// Positive: a callback that must not block hands each value to a goroutine.
func (n *notifier) OnEvent(e event) {
	go func() { n.events <- e }() // want `goroutine that only sends to n.events parks with its value until the consumer takes it, an unbounded queue in disguise under overload; send directly so the channel's bound pushes back`
}

// Positive: in a loop, with the value passed as an argument, over several lines.
func (n *notifier) fanIn(in <-chan event) {
	for e := range in {
		go func(v event) { // want `goroutine that only sends to n.events`
			n.events <- v
		}(e)
	}
}

// Positive: a package-level channel, a composite literal value.
var results = make(chan event, 16)

func record(id int) {
	go func() { results <- event{id: id} }() // want `goroutine that only sends to results`
}

func (n *notifier) run() {
	for e := range n.events {
		_ = e
	}
}

// Negatives.

// A first-error channel is read once: a blocking send would hang the second
// failure.
func (n *notifier) fail(err error) {
	go func() { n.errs <- err }()
}

func (n *notifier) wait() error { return <-n.errs }

// The goroutine does the work: errc <- run().
func (n *notifier) start(run func() error) {
	go func() { n.errs <- run() }()
}

// The send also waits on cancellation or a timer.
func (n *notifier) publish(ctx context.Context, e event) {
	go func() {
		select {
		case n.events <- e:
		case <-ctx.Done():
		}
	}()
	go func() {
		select {
		case n.events <- e:
		case <-time.After(time.Second):
		}
	}()
}

// A local channel: a one-shot result, or a future drained by the caller.
func future(e event) <-chan event {
	ch := make(chan event)
	go func() { ch <- e }()
	return ch
}

// The same function receives what it sends: a blocking send would deadlock.
func (n *notifier) roundTrip(e event) event {
	go func() { n.events <- e }()
	return <-n.events
}

// Sent from under a lock: the goroutine keeps the consumer from deadlocking.
func (n *notifier) locked(e event) {
	n.mu.Lock()
	defer n.mu.Unlock()
	go func() { n.events <- e }()
}

// Signals and ticks are not items.
func (n *notifier) signal() {
	go func() { n.stop <- struct{}{} }()
	now := time.Now()
	go func() { n.ticks <- now }()
}

// A parameter channel: the caller may drain it only after this returns.
func produce(out chan<- event, es []event) {
	for _, e := range es {
		go func() { out <- e }()
	}
}

// The overflow branch of a select is the retrysend check's business.
func (n *notifier) offer(e event) {
	select {
	case n.events <- e:
	default:
		go func() { n.events <- e }()
	}
}

// More than a send.
func (n *notifier) logged(e event) {
	go func() {
		n.events <- e
		println("sent")
	}()
}
