// Package exported shares an exported semaphore field between lookups and
// disk writes. Other packages can build a Crawler with the field set and
// could not know to set a sibling pool, which would stay nil: there is no fix
// that is safe everywhere, so the finding has none and says what to do by
// hand.
package exported

import (
	"context"
	"net"
	"os"

	"golang.org/x/sync/semaphore"
)

type Crawler struct {
	Sem *semaphore.Weighted
}

func New() *Crawler { return &Crawler{Sem: semaphore.NewWeighted(8)} }

func (c *Crawler) Resolve(ctx context.Context, host string) ([]string, error) { // want Resolve:"resolves: exported.Crawler.Resolve → net.Resolver.LookupHost"
	if err := c.Sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer c.Sem.Release(1)
	return net.DefaultResolver.LookupHost(ctx, host)
}

func (c *Crawler) Save(ctx context.Context, path string, data []byte) error { // want Save:"slow: exported.Crawler.Save → os.WriteFile"
	if err := c.Sem.Acquire(ctx, 1); err != nil { // want `semaphore Sem of 8 runs slow work \(os.WriteFile\) beside work that resolves hostnames \(net.Resolver.LookupHost\), so lookups wait behind it; by hand, declare a second pool beside Sem with the same limit, set it wherever Sem is set \(other packages may set it too\), and move the slow work to it`
		return err
	}
	defer c.Sem.Release(1)
	return os.WriteFile(path, data, 0o644)
}
