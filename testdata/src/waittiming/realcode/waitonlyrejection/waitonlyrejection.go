// Package waitonlyrejection holds two false wholecall findings from the
// corpus run:
// github.com/go-graphite/go-carbon, carbonserver/carbonserver.go,
// (*CarbonserverListener).rateLimitRequest.
//
// The handler takes t0, waits for a slot of the per-path limiter, and then
// may reject the request: when its context expired while it waited, or when
// too many requests are in flight. Each rejection logs time.Since(t0) as
// the request's run time before returning; no work runs between the wait
// and the log (a context check, an atomic add), so the duration is the
// time the rejected request waited, which is what a reader of a rejection
// log line wants. The handler that does the work runs after the last
// rejection and times itself. No finding is wanted: the measured span holds
// the wait and no work.
package waitonlyrejection

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"
)

var errBlocked = errors.New("blocked by the per-path limiter")

type pathLimiter struct{ maxInflight chan struct{} }

// Enter waits for a slot; a limit of zero blocks the path.
func (a *pathLimiter) Enter() error {
	if cap(a.maxInflight) == 0 {
		return errBlocked
	}
	a.maxInflight <- struct{}{}
	return nil
}

func (a *pathLimiter) Exit() {
	select {
	case <-a.maxInflight:
	default:
	}
}

type metrics struct {
	timeoutRequest   func()
	cancelledRequest func()
	rejected         uint64
}

type listener struct {
	limiters    map[string]*pathLimiter
	inflight    uint64
	maxInflight uint64
	metrics     metrics
}

// checkRequestCtx only asks whether the request is still wanted, counting
// why not through the hooks the metrics wire in.
func (l *listener) checkRequestCtx(ctx context.Context) error {
	select {
	case <-ctx.Done():
		switch ctx.Err() {
		case context.DeadlineExceeded:
			l.metrics.timeoutRequest()
		case context.Canceled:
			l.metrics.cancelledRequest()
		}
		return errors.New("context is done")
	default:
	}
	return nil
}

func (l *listener) rateLimitRequest(h http.HandlerFunc) http.HandlerFunc {
	return func(wr http.ResponseWriter, req *http.Request) {
		ratelimiter := l.limiters[req.URL.Path]
		t0 := time.Now()
		ctx := req.Context()
		if ratelimiter != nil {
			if ratelimiter.Enter() != nil {
				http.Error(wr, "blocked by the per-path limiter", http.StatusBadRequest)
				return
			}
			defer ratelimiter.Exit()
			if l.checkRequestCtx(ctx) != nil {
				slog.Error("request timeout due to per url rate limiting", "runtime_seconds", time.Since(t0)) // no finding wanted
				http.Error(wr, "timeout", http.StatusRequestTimeout)
				return
			}
		}
		inflights := atomic.AddUint64(&l.inflight, 1)
		defer atomic.AddUint64(&l.inflight, ^uint64(0))
		if l.maxInflight > 0 && inflights > l.maxInflight {
			atomic.AddUint64(&l.metrics.rejected, 1)
			slog.Error("request denied", "runtime_seconds", time.Since(t0), "reason", "too many requests") // no finding wanted
			http.Error(wr, "too many requests", http.StatusTooManyRequests)
			return
		}
		h(wr, req)
	}
}

// Near misses: between the wait and the rejection's log something works or
// blocks, so the figure is no longer the wait alone.

type quotas struct{ used map[string]int }

// overQuota looks the caller up: work, whatever the name says.
func (q *quotas) overQuota(user string) bool { return q.lookup(user) > 100 }

func (q *quotas) lookup(user string) int { return q.used[user] }

func (l *listener) quotaLimited(q *quotas, h http.HandlerFunc) http.HandlerFunc {
	return func(wr http.ResponseWriter, req *http.Request) {
		ratelimiter := l.limiters[req.URL.Path]
		t0 := time.Now()
		if ratelimiter.Enter() != nil {
			return
		}
		defer ratelimiter.Exit()
		if q.overQuota(req.Header.Get("user")) {
			slog.Error("over quota", "runtime_seconds", time.Since(t0)) // want `the duration since t0 spans the wait in \(\*waitonlyrejection.pathLimiter\).Enter and the work after it`
			return
		}
		h(wr, req)
	}
}

type readiness struct{ ready chan struct{} }

// waitReady blocks until the backend is ready or the request is cancelled:
// a wait of its own, not a check.
func (r *readiness) waitReady(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-r.ready:
	}
	return nil
}

func (l *listener) readyLimited(r *readiness, h http.HandlerFunc) http.HandlerFunc {
	return func(wr http.ResponseWriter, req *http.Request) {
		ratelimiter := l.limiters[req.URL.Path]
		t0 := time.Now()
		if ratelimiter.Enter() != nil {
			return
		}
		defer ratelimiter.Exit()
		if r.waitReady(req.Context()) != nil {
			slog.Error("not ready", "runtime_seconds", time.Since(t0)) // want `the duration since t0 spans the wait in \(\*waitonlyrejection.pathLimiter\).Enter and the work after it`
			return
		}
		h(wr, req)
	}
}

type cache struct{ entries map[string][]byte }

func (c *cache) refresh() { c.entries = make(map[string][]byte) }

// checkOrRefresh checks the context, but refreshes the cache when it is not
// done: work on the path that goes on.
func (c *cache) checkOrRefresh(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
		c.refresh()
	}
	return nil
}

func (l *listener) refreshing(c *cache, h http.HandlerFunc) http.HandlerFunc {
	return func(wr http.ResponseWriter, req *http.Request) {
		ratelimiter := l.limiters[req.URL.Path]
		t0 := time.Now()
		if ratelimiter.Enter() != nil {
			return
		}
		defer ratelimiter.Exit()
		if c.checkOrRefresh(req.Context()) != nil {
			slog.Error("cancelled", "runtime_seconds", time.Since(t0)) // want `the duration since t0 spans the wait in \(\*waitonlyrejection.pathLimiter\).Enter and the work after it`
			return
		}
		h(wr, req)
	}
}
