// Package amqp091 is a stand-in for the RabbitMQ client's consumer API.
package amqp091

import "context"

type Table map[string]any

type Delivery struct {
	Body []byte
}

func (d Delivery) Ack(multiple bool) error { return nil }

type Channel struct{}

func (ch *Channel) Qos(prefetchCount, prefetchSize int, global bool) error { return nil }

func (ch *Channel) Consume(queue, consumer string, autoAck, exclusive, noLocal, noWait bool, args Table) (<-chan Delivery, error) {
	return nil, nil
}

func (ch *Channel) ConsumeWithContext(ctx context.Context, queue, consumer string, autoAck, exclusive, noLocal, noWait bool, args Table) (<-chan Delivery, error) {
	return nil, nil
}
