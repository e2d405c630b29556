// Package fanoutlocal has a bounded sibling whose bound is a local of its
// own function: the finding cannot write it, and has no fix.
package fanoutlocal

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"
)

type store interface {
	Keys(ctx context.Context) ([]string, error)
	Copy(ctx context.Context, key string) error
}

func copyAll(ctx context.Context, s store, keys []string) error {
	n := runtime.NumCPU() * 2
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(n)
	for _, k := range keys {
		g.Go(func() error { return s.Copy(ctx, k) })
	}
	return g.Wait()
}

func mirror(ctx context.Context, s store) {
	keys, err := s.Keys(ctx)
	if err != nil {
		return
	}
	for _, k := range keys {
		go s.Copy(ctx, k) // want `goroutine per element of keys \(from s.Keys\) with nothing bounding how many run at once, while copyAll limits the same fan-out with g.SetLimit\(n\); bound this one the same way`
	}
}
