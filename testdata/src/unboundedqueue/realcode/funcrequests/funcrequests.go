// Package funcrequests is a missed census hazard (spicedb,
// internal/graph/expand.go, expandSetOperation): one goroutine per request
// built from the relationships a query returned, each request a func value
// taking a context (the closure dispatches the expansion to a peer). The
// check cannot see what the value holds; a function value whose first
// parameter is a context has the shape of a request, as an interface
// method taking one does, and counts as blocking work.
package funcrequests

import "context"

type result struct{ n int }

type expandFunc func(ctx context.Context, out chan<- result)

type store interface {
	Query(ctx context.Context, key string) ([]string, error)
}

func dispatch(ctx context.Context, rel string, out chan<- result) { out <- result{len(rel)} }

func union(ctx context.Context, reqs []expandFunc) int {
	chans := make([]chan result, 0, len(reqs))
	for _, req := range reqs {
		ch := make(chan result, 1)
		chans = append(chans, ch)
		go req(ctx, ch) // want `goroutine per element of reqs, whose size comes from the data`
	}
	total := 0
	for _, ch := range chans {
		total += (<-ch).n
	}
	return total
}

func expand(ctx context.Context, s store, key string) (int, error) {
	rels, err := s.Query(ctx, key)
	if err != nil {
		return 0, err
	}
	var reqs []expandFunc
	for _, rel := range rels {
		reqs = append(reqs, func(ctx context.Context, out chan<- result) { dispatch(ctx, rel, out) })
	}
	return union(ctx, reqs), nil
}

// sum is the twin whose func values take no context: computations, no
// blocking work (no-blocking-work).
func sum(parts []func() int) int {
	out := make(chan int, len(parts))
	for _, p := range parts {
		go func() { out <- p() }()
	}
	total := 0
	for range parts {
		total += <-out
	}
	return total
}

func sumAll(ctx context.Context, s store, key string) (int, error) {
	rels, err := s.Query(ctx, key)
	if err != nil {
		return 0, err
	}
	var parts []func() int
	for _, r := range rels {
		parts = append(parts, func() int { return len(r) })
	}
	return sum(parts), nil
}

// requestsFor builds the requests in a helper: the collection's size is
// the size of the argument the call being followed passes (rels, from the
// query), not of every caller's.
func requestsFor(rels []string) []expandFunc {
	var reqs []expandFunc
	for _, rel := range rels {
		reqs = append(reqs, func(ctx context.Context, out chan<- result) { dispatch(ctx, rel, out) })
	}
	return reqs
}

func expandVia(ctx context.Context, s store, key string) (int, error) {
	rels, err := s.Query(ctx, key)
	if err != nil {
		return 0, err
	}
	reqs := requestsFor(rels)
	done := make(chan result, len(reqs))
	for _, req := range reqs {
		go req(ctx, done) // want `goroutine per element of reqs, whose size comes from the data \(returned by requestsFor, built from rels, from the argument rels, returned by s.Query\)`
	}
	total := 0
	for range reqs {
		total += (<-done).n
	}
	return total, nil
}

// fixedRequests passes a literal to the same helper: its requests are as
// many as the program wrote.
func fixedRequests(ctx context.Context) int {
	reqs := requestsFor([]string{"a", "b"})
	done := make(chan result, len(reqs))
	for _, req := range reqs {
		go req(ctx, done) // no finding wanted: two requests
	}
	return len(reqs)
}

// A router whose secondary dispatchers are configured when it is made
// (spicedb's remote cluster dispatcher): names listed by the data are
// looked up among them and skipped when absent, so the goroutines are at
// most the configured dispatchers (fixed-set).
type router struct {
	secondaries map[string]expandFunc
	learned     map[string]expandFunc
}

func newRouter(cfg map[string]expandFunc) *router {
	r := &router{secondaries: map[string]expandFunc{}, learned: map[string]expandFunc{}}
	for name, f := range cfg {
		r.secondaries[name] = f
	}
	return r
}

func (r *router) dispatch(ctx context.Context, s store, key string) (int, error) {
	names, err := s.Query(ctx, key)
	if err != nil {
		return 0, err
	}
	out := make(chan result, len(names))
	for _, name := range names {
		f, ok := r.secondaries[name]
		if !ok {
			continue
		}
		go f(ctx, out) // no finding wanted: at most the configured dispatchers
	}
	return len(names), nil
}

// learn fills the other map as requests arrive: a registry the data grows.
func (r *router) learn(name string, f expandFunc) { r.learned[name] = f }

func (r *router) dispatchLearned(ctx context.Context, s store, key string) (int, error) {
	names, err := s.Query(ctx, key)
	if err != nil {
		return 0, err
	}
	out := make(chan result, len(names))
	for _, name := range names {
		f, ok := r.learned[name]
		if !ok {
			continue
		}
		go f(ctx, out) // want `goroutine per element of names, whose size comes from the data`
	}
	return len(names), nil
}
