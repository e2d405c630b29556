package demo

import (
	"context"
	"log/slog"
	"net"
	"time"
)

// waittimingLookups lets eight DNS lookups run at once.
var waittimingLookups = make(chan struct{}, 8)

// WaittimingLookup resolves host with a two-second budget. Both the timer
// and the budget start before the wait for a lookup slot: under load the log
// blames DNS for the queue, and lookups time out while they are still queued.
func WaittimingLookup(ctx context.Context, host string) ([]string, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	select {
	case waittimingLookups <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-waittimingLookups }()
	addrs, err := net.DefaultResolver.LookupHost(ctx, host)
	slog.Info("lookup", "host", host, "took", time.Since(start), "err", err)
	return addrs, err
}
