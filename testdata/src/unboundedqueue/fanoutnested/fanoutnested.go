// Package fanoutnested fans out per tenant, and each goroutine fans out
// again per block: a limit on the inner fan-out bounds one tenant's
// goroutines, not the product.
package fanoutnested

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"
)

type store interface {
	ListBlocks(ctx context.Context) ([]string, error)
	Fetch(ctx context.Context, id string) error
}

type registry struct {
	mu      sync.Mutex
	tenants map[string]string
}

func (r *registry) add(name, dir string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tenants[name] = dir
}

// A nested fan-out: a limited inner one inside an unlimited outer one.
func syncTenants(ctx context.Context, r *registry, s store) {
	var wg sync.WaitGroup
	for name := range r.tenants {
		wg.Add(1)
		go func() { // want `and each starts a goroutine per element of ids: the goroutines in flight are len\(r.tenants\) × len\(ids\)`
			defer wg.Done()
			ids, err := s.ListBlocks(ctx)
			if err != nil {
				return
			}
			g, ctx := errgroup.WithContext(ctx)
			g.SetLimit(4)
			for _, id := range ids {
				g.Go(func() error { return s.Fetch(ctx, name+id) })
			}
			_ = g.Wait()
		}()
	}
	wg.Wait()
}
