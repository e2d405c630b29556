// Package phasetimer is loki's pkg/engine/internal/scheduler/wire
// (wire_http2.go's sendFrame): each frame sent gets a Timer of its own,
// flushed by the deferred Done; the Phase calls buffer at most one row per
// phase of this one call. The first version of the queue-type facts
// reported each Phase call as a producer of an unbounded queue: a timer
// scoped to one call is a batch builder, not a queue.
package phasetimer

import (
	"time"

	"unboundedqueue/realcode/phasetimer/metrictimer"
)

type conn struct {
	emit  func(metrictimer.Phase, time.Duration)
	write func([]byte) error
}

func (c *conn) sendFrame(data []byte) error {
	timer := metrictimer.New(c.emit)
	defer timer.Done()

	timer.Phase("serialize") // why: batch-builder
	buf := append([]byte(nil), data...)

	timer.Phase("write") // why: batch-builder
	if err := c.write(buf); err != nil {
		return err
	}
	timer.Phase("flush") // why: batch-builder
	return nil
}

// The nearest unsafe variant: one timer shared by every frame, its rows
// taken whole by a flushing goroutine. The buffer holds every phase of
// every frame sent since the last flush, with no bound.
type sharedConn struct {
	timer *metrictimer.Timer
}

func (c *sharedConn) sendFrame() {
	c.timer.Phase("write") // want `\(\*metrictimer.Timer\).Phase never refuses \(it appends to its slice .rows, which Done empties in a consumer of this package`
}

func (c *sharedConn) flushLoop(tick <-chan time.Time) {
	for range tick {
		c.timer.Done()
	}
}

func (c *sharedConn) start(tick <-chan time.Time) {
	go c.flushLoop(tick)
}
