// Package boundedwg is a false fan-out finding from the census (tempo,
// tempodb/blocklist/poller.go, (*Poller).Do and pollUnknown): one
// goroutine per tenant, and per unknown block, both from a storage
// listing, each behind the Add of a bounded WaitGroup of another package,
// which takes a slot of its channel before the spawn. The admission fact
// of (*bwg.BoundedWaitGroup).Add says it waits; no finding.
package boundedwg

import (
	"context"
	"sync"

	"unboundedqueue/realcode/boundedwg/bwg"
)

type reader interface {
	Tenants(ctx context.Context) ([]string, error)
	Blocks(ctx context.Context, tenant string) ([]string, error)
}

type poller struct {
	r           reader
	concurrency uint
}

func (p *poller) poll(ctx context.Context, tenant string) error {
	_, err := p.r.Blocks(ctx, tenant)
	return err
}

func (p *poller) Do(ctx context.Context) error {
	tenants, err := p.r.Tenants(ctx)
	if err != nil {
		return err
	}
	wg := bwg.New(p.concurrency)
	for _, t := range tenants {
		wg.Add(1)
		go func(t string) { // no finding wanted: Add waits for a slot first
			defer wg.Done()
			_ = p.poll(ctx, t)
		}(t)
	}
	wg.Wait()
	return nil
}

// unbounded is the twin without the bound: a plain WaitGroup counts, it
// does not wait.
func (p *poller) unbounded(ctx context.Context) error {
	tenants, err := p.r.Tenants(ctx)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, t := range tenants {
		wg.Add(1)
		go func(t string) { // want `goroutine per element of tenants, whose size comes from the data`
			defer wg.Done()
			_ = p.poll(ctx, t)
		}(t)
	}
	wg.Wait()
	return nil
}
