// Package fanout covers goroutines per element of a listing (a slice a call
// returned with an error) in a package that bounds the same kind of
// fan-out elsewhere.
package fanout

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"
)

const maxDescribe = 8

type config struct{ Concurrency int }

type cluster struct{ arn string }

type page struct {
	Items []cluster
	Next  string
}

type api interface {
	ListClusters(ctx context.Context) ([]cluster, error)
	ListPage(ctx context.Context, token string) (*page, error)
	Describe(ctx context.Context, c cluster) error
}

type discovery struct {
	cfg     config
	client  api
	servers []string
}

// The sibling: a bounded fan-out over a listing.
func (d *discovery) describeAll(ctx context.Context, clusters []cluster) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(maxDescribe)
	for _, c := range clusters {
		g.Go(func() error { return d.client.Describe(ctx, c) })
	}
	return g.Wait()
}

// Positive: an errgroup per listed cluster, no limit: the fix gives it the
// sibling's.
func (d *discovery) refresh(ctx context.Context) error {
	clusters, err := d.client.ListClusters(ctx)
	if err != nil {
		return err
	}
	g, ctx := errgroup.WithContext(ctx)
	for _, c := range clusters {
		g.Go(func() error { // want `g.Go goroutine per element of clusters \(from d.client.ListClusters\) with nothing bounding how many run at once, while \(\*discovery\).describeAll limits the same fan-out with g.SetLimit\(maxDescribe\); bound this one the same way`
			return d.client.Describe(ctx, c)
		})
	}
	return g.Wait()
}

// Positive: go statements per element of an API page, with a WaitGroup.
func (d *discovery) refreshPage(ctx context.Context, token string) {
	resp, err := d.client.ListPage(ctx, token)
	if err != nil {
		return
	}
	var wg sync.WaitGroup
	for _, c := range resp.Items {
		wg.Add(1)
		go func() { // want `goroutine per element of resp.Items \(from d.client.ListPage\)`
			defer wg.Done()
			_ = d.client.Describe(ctx, c)
		}()
	}
	wg.Wait()
}

// A sibling limited by a field of the receiver: the fix writes it on this
// method's receiver.
type syncer struct {
	cfg    config
	client api
}

func (s *syncer) syncAll(ctx context.Context, clusters []cluster) error {
	var g errgroup.Group
	g.SetLimit(s.cfg.Concurrency)
	for _, c := range clusters {
		g.Go(func() error { return s.client.Describe(ctx, c) })
	}
	return g.Wait()
}

// Positive: the fix uses the receiver's limit.
func (x *syncer) resync(ctx context.Context) {
	clusters, err := x.client.ListClusters(ctx)
	if err != nil {
		return
	}
	for _, c := range clusters {
		go x.client.Describe(ctx, c) // want `goroutine per element of clusters \(from x.client.ListClusters\) .* with g.SetLimit\(s.cfg.Concurrency\)`
	}
}

// Negatives.

// Configured servers: the code decides how many.
func (d *discovery) probe(ctx context.Context) {
	for _, s := range d.servers {
		go func() { _ = d.client.Describe(ctx, cluster{s}) }()
	}
}

// A static list.
func (d *discovery) probeStatic(ctx context.Context) {
	for _, s := range []string{"a", "b", "c"} {
		go func() { _ = d.client.Describe(ctx, cluster{s}) }()
	}
}

// A slice from the caller.
func (d *discovery) describeGiven(ctx context.Context, clusters []cluster) {
	for _, c := range clusters {
		go func() { _ = d.client.Describe(ctx, c) }()
	}
}

// A fixed small count.
func (d *discovery) warm(ctx context.Context) {
	for i := range 4 {
		go func() { _ = d.client.Describe(ctx, cluster{arn: string(rune('a' + i))}) }() // why: not-per-item
	}
}

// The goroutine only computes: nothing outside the process is called.
func (d *discovery) label(ctx context.Context) []string {
	clusters, err := d.client.ListClusters(ctx)
	if err != nil {
		return nil
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var labels []string
	for _, c := range clusters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			labels = append(labels, "arn="+c.arn)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return labels
}

// Each element is waited for before the next.
func (d *discovery) oneByOne(ctx context.Context) {
	clusters, err := d.client.ListClusters(ctx)
	if err != nil {
		return
	}
	for _, c := range clusters {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = d.client.Describe(ctx, c)
		}()
		wg.Wait()
	}
}

// Bounded by a semaphore of its own.
func (d *discovery) bounded(ctx context.Context) {
	clusters, err := d.client.ListClusters(ctx)
	if err != nil {
		return
	}
	sem := make(chan struct{}, 4)
	for _, c := range clusters {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			_ = d.client.Describe(ctx, c)
		}()
	}
}
