// Package nodestats is armada's executor utilisation service
// (internal/executor/utilisation): each refresh lists the cluster's nodes,
// filters them through helpers of another package, and hands the list to
// every fetcher through an interface of the package. One fetcher starts a
// goroutine per node that asks the kubelet for its stats with the
// service's own request context; another scrapes one exporter per
// endpoint through an HTTP getter interface. Nothing limits either fan-out:
// a cluster of two thousand nodes is two thousand calls at once.
//
// The twins: a fetcher handed a list the program writes, a getter whose
// method neither takes a context nor returns a response (it computes).
package nodestats

import (
	"context"
	"net/http"
	"sync"
	"time"

	"unboundedqueue/realcode/nodestats/nodes"
)

// Context is the service's request context: a context.Context with a
// logger beside it.
type Context struct {
	context.Context
	Log func(string)
}

func withTimeout(parent context.Context, d time.Duration) (*Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(parent, d)
	return &Context{Context: ctx}, cancel
}

type cluster interface {
	Nodes() ([]string, error)
	Endpoints() ([]string, error)
	NodeStats(ctx *Context, node string) (int, error)
}

type fetcher interface {
	fetch(nodes []string, c cluster)
}

type Service struct {
	c        cluster
	fetchers []fetcher
	pinned   []pinnedFetcher
}

func (s *Service) Refresh() {
	all, err := s.c.Nodes()
	if err != nil {
		return
	}
	ready := nodes.Ready(all)
	for _, f := range s.fetchers {
		f.fetch(ready, s.c)
	}
}

type kubeletStats struct{}

func (*kubeletStats) fetch(list []string, c cluster) {
	out := make(chan int, len(list))
	var wg sync.WaitGroup
	for _, n := range list {
		wg.Add(1)
		go func(node string) { // want `goroutine per element of list, whose size comes from the data \(passed by \(\*Service\).Refresh, kept by nodes.Ready from all, returned by s.c.Nodes\), each doing blocking work \(c.NodeStats\)`
			defer wg.Done()
			ctx, cancel := withTimeout(context.Background(), 15*time.Second)
			defer cancel()
			v, err := c.NodeStats(ctx, node)
			if err != nil {
				return
			}
			out <- v
		}(n)
	}
	wg.Wait()
	close(out)
	for range out {
	}
}

type httpGetter interface {
	Get(url string) (*http.Response, error)
}

type exporterStats struct{ client httpGetter }

func (e *exporterStats) fetch(_ []string, c cluster) {
	urls, err := c.Endpoints()
	if err != nil {
		return
	}
	scrapeAll(urls, e.client)
}

func scrapeAll(urls []string, client httpGetter) {
	var wg sync.WaitGroup
	for _, u := range urls {
		wg.Add(1)
		go func(u string) { // want `goroutine per element of urls, whose size comes from the data \(passed by \(\*exporterStats\).fetch, returned by c.Endpoints\), each doing blocking work \(scrape\)`
			defer wg.Done()
			_ = scrape(u, client)
		}(u)
	}
	wg.Wait()
}

func scrape(url string, client httpGetter) error {
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// The twin: the pinned fetchers get a list the program writes, filtered
// and merged by the same helpers.
func (s *Service) RefreshPinned() {
	list := nodes.Merge(nodes.Names(3), []string{"control-plane"})
	for _, f := range s.pinned {
		f.fetchPinned(list)
	}
}

type pinnedFetcher interface {
	fetchPinned(nodes []string)
}

type pinnedStats struct{ c cluster }

func (p *pinnedStats) fetchPinned(list []string) {
	var wg sync.WaitGroup
	for _, n := range list {
		wg.Add(1)
		go func(node string) {
			defer wg.Done()
			ctx, cancel := withTimeout(context.Background(), time.Second)
			defer cancel()
			_, _ = p.c.NodeStats(ctx, node)
		}(n)
	}
	wg.Wait()
}

// The twin: a parser per exporter body the listing returned computes only;
// its interface method neither takes a context nor returns a response.
type parser interface {
	Parse(body string) (int, error)
}

func parseAll(c cluster, p parser) {
	bodies, err := c.Endpoints()
	if err != nil {
		return
	}
	var wg sync.WaitGroup
	for _, b := range bodies {
		wg.Add(1)
		go func(b string) {
			defer wg.Done()
			_, _ = p.Parse(b)
		}(b)
	}
	wg.Wait()
}
