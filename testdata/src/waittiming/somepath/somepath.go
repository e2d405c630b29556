// Package somepath times calls of package gateway that wait for a shared
// slot on some path or further down, and their twins that do not.
package somepath

import (
	"context"
	"log"
	"time"

	"waittiming/somepath/gateway"
)

// Relay times a read whose lower tiers queue for a slot first.
func Relay(ctx context.Context, g *gateway.Gateway, req gateway.Request) {
	start := time.Now()
	_, _ = g.Relay(ctx, req)
	log.Printf("relay took %v", time.Since(start)) // want `the duration since start spans \(\*gateway.Gateway\).Relay, which on some path waits for admission \(\(\*semaphore.Weighted\).Acquire, gateway.go:\d+\) before work`
}

// Publish times a call whose slot is two calls down.
func Publish(ctx context.Context, g *gateway.Gateway, in <-chan gateway.Request) {
	start := time.Now()
	_ = g.Publish(ctx, in)
	log.Printf("publish took %v", time.Since(start)) // want `the duration since start spans \(\*gateway.Gateway\).Publish, which on some path waits for admission`
}

// ReadEach times a batch that waits per name.
func ReadEach(ctx context.Context, g *gateway.Gateway, names []string) {
	start := time.Now()
	_ = g.ReadEach(ctx, names, gateway.Bulk{})
	log.Printf("batch took %v", time.Since(start)) // why: no-wait-in-span
}

// FanOut times a call bounded by a semaphore of its own.
func FanOut(ctx context.Context, names []string) {
	start := time.Now()
	_ = gateway.FanOut(ctx, names, gateway.Bulk{})
	log.Printf("fan-out took %v", time.Since(start)) // why: no-wait-in-span
}

// Shed times a call whose waiting path gives up at once.
func Shed(ctx context.Context, g *gateway.Gateway, names []string) {
	start := time.Now()
	_ = g.Shed(ctx, names, gateway.Bulk{})
	log.Printf("shed took %v", time.Since(start)) // why: no-wait-in-span
}

// Retry times a call that waits only once a read failed.
func Retry(ctx context.Context, g *gateway.Gateway, name string) {
	start := time.Now()
	_, _ = g.Retry(ctx, name)
	log.Printf("retry took %v", time.Since(start)) // why: no-wait-in-span
}

// Total records the figure users see, named as such: the queueing is part
// of it.
func Total(ctx context.Context, g *gateway.Gateway, req gateway.Request) {
	start := time.Now()
	_, _ = g.Relay(ctx, req)
	log.Printf("total request time %v", time.Since(start)) // why: callee-wait-total, no-wait-in-span
}
