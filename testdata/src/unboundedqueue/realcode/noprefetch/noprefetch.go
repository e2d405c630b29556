// Package noprefetch is hatchet's pub/sub consumer: no Qos, and auto-ack,
// so nothing holds the broker back: a goroutine per delivery is unbounded.
package noprefetch

import amqp "github.com/rabbitmq/amqp091-go"

type handler func([]byte) error

func subscribe(sub *amqp.Channel, h handler) error {
	deliveries, err := sub.Consume("q", "", true, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range deliveries {
		go func(d amqp.Delivery) { // want `goroutine per item received from deliveries with nothing bounding how many run at once`
			h(d.Body)
		}(d)
	}
	return nil
}

// A Qos on an auto-ack consumer holds nothing back either.
func subscribeAutoAck(sub *amqp.Channel, h handler) error {
	if err := sub.Qos(10, 0, false); err != nil {
		return err
	}
	deliveries, err := sub.Consume("q", "", true, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range deliveries {
		go func(d amqp.Delivery) { // want `goroutine per item received from deliveries with nothing bounding how many run at once`
			h(d.Body)
		}(d)
	}
	return nil
}
