// Package lookupsonly runs lookups in a pool, and nothing slow anywhere:
// no task can hold up the lookups.
package lookupsonly // why: package-has-no-slow-work

import (
	"context"
	"net"
)

func resolveAll(ctx context.Context, hosts []string) {
	sem := make(chan struct{}, 8)
	for _, h := range hosts {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			_, _ = net.DefaultResolver.LookupHost(ctx, h)
		}()
	}
}
