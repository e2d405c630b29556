// Package prefetch is hatchet's RabbitMQ queue (internal/msgqueue/rabbitmq):
// a goroutine per delivery, acked after the work, on a channel with a Qos
// prefetch count: the broker sends no more than the count until some are
// acked, so the goroutines in flight are bounded by it (a false alarm of an
// earlier version).
package prefetch

import (
	"context"

	amqp "github.com/rabbitmq/amqp091-go"
)

type handler func([]byte) error

func subscribe(sub *amqp.Channel, qos int, h handler) error {
	if err := sub.Qos(qos, 0, false); err != nil {
		return err
	}
	deliveries, err := sub.Consume("q", "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range deliveries {
		go func(d amqp.Delivery) {
			if err := h(d.Body); err == nil {
				d.Ack(false)
			}
		}(d)
	}
	return nil
}

// The same with ConsumeWithContext, whose autoAck comes after the context.
func subscribeCtx(ctx context.Context, sub *amqp.Channel, h handler) error {
	if err := sub.Qos(10, 0, false); err != nil {
		return err
	}
	deliveries, err := sub.ConsumeWithContext(ctx, "q", "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range deliveries {
		go func(d amqp.Delivery) {
			if err := h(d.Body); err == nil {
				d.Ack(false)
			}
		}(d)
	}
	return nil
}
