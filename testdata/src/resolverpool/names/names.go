// Package names has a local named slowG in one function: the sibling pool of
// another function's errgroup may still be called slowG, since a local name
// is free wherever that function does not use it.
package names

import (
	"context"
	"net"
	"os"

	"golang.org/x/sync/errgroup"
)

func Other() int {
	slowG := 3
	return slowG
}

func Run(ctx context.Context, hosts, files []string) error { // want Run:"resolves: names.Run → net.Resolver.LookupHost; slow: names.Run → os.WriteFile"
	var g errgroup.Group
	g.SetLimit(4)
	for _, h := range hosts {
		g.Go(func() error {
			_, err := net.DefaultResolver.LookupHost(ctx, h)
			return err
		})
	}
	for _, f := range files {
		g.Go(func() error { // want `errgroup g of 4 runs slow work`
			return os.WriteFile(f, nil, 0o644)
		})
	}
	return g.Wait()
}
