// Package hidden measures work behind waits that helpers hide: an
// unexported acquire that hands back its release, and a limiter wrapper of
// another package.
package hidden

import (
	"context"
	"log"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"waittiming/hidden/limiter"
)

var latency = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "query_seconds"})

type store struct {
	slots chan struct{}
	lim   *limiter.Limiter
}

func newStore(n int) *store {
	return &store{slots: make(chan struct{}, n), lim: limiter.New(10, "backend")}
}

func (s *store) query(ctx context.Context, q string) error { return nil }

// acquire waits for a slot or for the context, and hands back the release.
func (s *store) acquire(ctx context.Context) (release func(), err error) {
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Query times the query from before the helper's wait.
func (s *store) Query(ctx context.Context, q string) error {
	start := time.Now()
	release, err := s.acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	err = s.query(ctx, q)
	latency.Observe(time.Since(start).Seconds()) // want `the duration since start spans the wait in \(\*hidden\.store\)\.acquire`
	return err
}

// Paced waits for the wrapper of another package.
func (s *store) Paced(ctx context.Context, q string) error {
	begin := time.Now()
	if err := s.lim.Wait(ctx); err != nil {
		return err
	}
	err := s.query(ctx, q)
	log.Printf("query %q took %s", q, time.Since(begin)) // want `the duration since begin spans the wait in \(\*limiter\.Limiter\)\.Wait`
	return err
}

// Weighted releases through a defer whose argument calls something: the
// new lines go before it, right after the wait.
func (s *store) Weighted(ctx context.Context, q string) error {
	start := time.Now()
	release, err := s.acquire(ctx)
	if err != nil {
		return err
	}
	defer log.Println("released", strings.ToUpper(q))
	defer release()
	err = s.query(ctx, q)
	log.Printf("weighted query took %v", time.Since(start)) // want `the duration since start spans the wait in \(\*hidden\.store\)\.acquire`
	return err
}

// Allowed does not wait: Allow is a try.
func (s *store) Allowed(ctx context.Context, q string) error {
	start := time.Now()
	if !s.lim.Allow() {
		return context.DeadlineExceeded
	}
	err := s.query(ctx, q)
	log.Printf("query took %v", time.Since(start))
	return err
}

// Inside lets the wrapper run the work after its wait: no place to split in
// this function, but the figure still holds the wait. Reported without a
// fix: the split belongs inside Do.
func (s *store) Inside(ctx context.Context, q string) error {
	start := time.Now()
	err := s.lim.Do(ctx, func() error { return s.query(ctx, q) })
	log.Printf("query took %v", time.Since(start)) // want `the duration since start spans \(\*limiter.Limiter\).Do, which waits for admission \(\(\*rate.Limiter\).Wait, limiter.go:36\) before its work`
	return err
}

// AfterWait starts the clock after the helper's wait: the right timing.
func (s *store) AfterWait(ctx context.Context, q string) error {
	release, err := s.acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	start := time.Now()
	err = s.query(ctx, q)
	latency.Observe(time.Since(start).Seconds())
	return err
}

// WaitOnly times the helper's wait alone.
func (s *store) WaitOnly(ctx context.Context) (func(), error) {
	start := time.Now()
	release, err := s.acquire(ctx)
	log.Printf("waited %v", time.Since(start))
	return release, err
}
