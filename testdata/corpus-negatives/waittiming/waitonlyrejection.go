// Two false wholecall findings from the corpus run:
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
package waittiming

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

type listener struct {
	limiters    map[string]*pathLimiter
	inflight    uint64
	maxInflight uint64
}

func (l *listener) checkRequestCtx(ctx context.Context) error {
	select {
	case <-ctx.Done():
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
			slog.Error("request denied", "runtime_seconds", time.Since(t0), "reason", "too many requests") // no finding wanted
			http.Error(wr, "too many requests", http.StatusTooManyRequests)
			return
		}
		h(wr, req)
	}
}
