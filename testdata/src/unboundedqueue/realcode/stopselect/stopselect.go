// Package stopselect is watermill's in-memory pub/sub (pubsub/gochannel): by
// default each publish starts a goroutine per subscriber that waits to send
// the message, with a stop channel closed only at shutdown as the other
// case. The stop case bounds nothing under overload: goroutines pile up
// with their messages until shutdown.
package stopselect

import (
	"context"
	"time"
)

type Msg struct{ Payload []byte }

type Sub struct {
	out     chan *Msg
	closing chan struct{}
}

func (s *Sub) Deliver(m *Msg) {
	go func() { // want `goroutine that only sends to s.out, or stops at shutdown, parks with its value until the consumer takes it, an unbounded queue in disguise under overload; run its select in place so the channel's bound pushes back`
		select {
		case s.out <- m:
		case <-s.closing:
		}
	}()
}

// The value is the literal's parameter, under another name: reported
// without a fix.
func (s *Sub) DeliverArg(msg *Msg) {
	go func(m *Msg) { // want `goroutine that only sends to s.out, or stops at shutdown, parks with its value`
		select {
		case s.out <- m:
		case <-s.closing:
		}
	}(msg)
}

// Negative: a per-call context bounds the wait.
func (s *Sub) DeliverCtx(ctx context.Context, m *Msg) {
	go func() {
		select {
		case s.out <- m:
		case <-ctx.Done():
		}
	}()
}

// Negative: a timer bounds the wait.
func (s *Sub) DeliverTimed(m *Msg) {
	go func() {
		select {
		case s.out <- m:
		case <-time.After(time.Second):
		}
	}()
}

// Negative: the stop case does work of its own.
func (s *Sub) DeliverOrLog(m *Msg, dropped *int) {
	go func() {
		select {
		case s.out <- m:
		case <-s.closing:
			*dropped++
		}
	}()
}

func (s *Sub) consume() {
	for m := range s.out {
		_ = m
	}
}
