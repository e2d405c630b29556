// Package nestedfanout is hatchet's dispatcher (internal/services/dispatcher):
// for each delivery, a goroutine per worker named in the message, and the
// ack before any has finished. The inner loop is bounded by the message;
// the stream is not, so the goroutines per message add up.
package nestedfanout

import (
	"context"
	"sync"
)

type Delivery struct {
	Tag     uint64
	Payload map[string][]string
}

type Dispatcher struct {
	deliveries chan Delivery
}

func (d *Dispatcher) send(ctx context.Context, worker string, tasks []string) error { return nil }

func (d *Dispatcher) ack(tag uint64) {}

func (d *Dispatcher) Consume(ctx context.Context) {
	for msg := range d.deliveries {
		for worker, tasks := range msg.Payload {
			go func() { _ = d.send(ctx, worker, tasks) }() // want `goroutine per item received from d.deliveries with nothing bounding how many run at once`
		}
		d.ack(msg.Tag)
	}
}

// Negative: the fan-out is waited for before the ack and the next message.
func (d *Dispatcher) ConsumeWaited(ctx context.Context) {
	for msg := range d.deliveries {
		var wg sync.WaitGroup
		for worker, tasks := range msg.Payload {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = d.send(ctx, worker, tasks)
			}()
		}
		wg.Wait()
		d.ack(msg.Tag)
	}
}

// Negative: the inner loop is a slice the function was given, not the
// message's parts; a loop over a slice is bounded by its input.
func (d *Dispatcher) Broadcast(ctx context.Context, workers []string) {
	for _, w := range workers {
		for _, t := range []string{"a", "b"} {
			go func() { _ = d.send(ctx, w, []string{t}) }()
		}
	}
}
