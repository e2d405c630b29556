// Package jobs measures calls that hand their work to a shared pool of
// another package (admission/jobpool) and wait for it: the figure holds the
// time the jobs queued behind other callers'. The InnerWait facts of the
// pool's methods cross the package boundary.
package jobs

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"admission/jobpool"
)

var scanSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "scan_seconds"}, []string{"op"})

type querier struct {
	pool    *jobpool.Pool
	scanner jobpool.Scanner
	lister  jobpool.Lister
}

func observe(op string, start time.Time) { // want observe:"bookkeeping"
	scanSeconds.WithLabelValues(op).Observe(time.Since(start).Seconds())
}

func (q *querier) find(ctx context.Context, ids []any) ([]any, error) {
	start := time.Now()
	out, err := q.pool.Find(ctx, ids)
	observe("find", start) // want `the duration since start spans \(\*jobpool.Pool\).Find, which hands its work to a shared pool and waits for it \(the jobs sent on p.queue and the wait for their results, jobpool.go:\d+\), behind other callers' jobs`
	return out, err
}

func (q *querier) run(ctx context.Context, ids []any) error {
	start := time.Now()
	_, err := q.pool.RunJobs(ctx, ids, func(ctx context.Context, id any) (any, error) { return id, nil })
	scanSeconds.WithLabelValues("run").Observe(time.Since(start).Seconds()) // want `spans \(\*jobpool.Pool\).RunJobs, which hands its work to a shared pool`
	return err
}

// submit hands the jobs over and does not wait: the figure is the hand-off.
func (q *querier) submit(ctx context.Context, ids []any) {
	start := time.Now()
	q.pool.Submit(ctx, ids, func(ctx context.Context, id any) (any, error) { return id, nil })
	observe("submit", start)
}

// afterwards times what follows the pool's wait only.
func (q *querier) afterwards(ctx context.Context, ids []any) ([]any, error) {
	out, err := q.pool.Find(ctx, ids)
	start := time.Now()
	out = append(out, len(out))
	observe("post", start)
	return out, err
}

// total is the whole request's latency, named so: it should include the
// queueing.
func (q *querier) total(ctx context.Context, ids []any) ([]any, error) {
	totalStart := time.Now()
	defer observe("total", totalStart)
	return q.pool.Find(ctx, ids)
}

// scan calls the pool through the interface its package declares with it:
// the interface method's fact says every implementation there queues.
func (q *querier) scan(ctx context.Context, ids []any) ([]any, error) {
	start := time.Now()
	out, err := q.scanner.Scan(ctx, ids)
	observe("scan", start) // want `spans \(jobpool.Scanner\).Scan, which hands its work to a shared pool and waits for it`
	return out, err
}

// list calls an interface one of whose implementations does not wait:
// the message names the one that does.
func (q *querier) list(ctx context.Context, ids []any) ([]any, error) {
	start := time.Now()
	out, err := q.lister.List(ctx, ids)
	observe("list", start) // want `spans \(jobpool.Lister\).List, which hands its work to a shared pool and waits for it \(the jobs sent on p.queue and the wait for their results, jobpool.go:\d+, in the implementation \(\*jobpool.Pool\).List\)`
	return out, err
}

// A log whose Close hands its run loop a done channel and waits for it: a
// handshake with the one goroutine that owns the log, not work queued
// behind other callers' (prometheus's wlog.Close). Timing a call that
// closes it reports nothing.
type log struct {
	stopc chan chan struct{}
}

func newLog() *log {
	l := &log{stopc: make(chan chan struct{})}
	go l.run()
	return l
}

func (l *log) run() {
	for {
		donec := <-l.stopc
		close(donec)
		return
	}
}

func (l *log) flush() error { return nil }

func (l *log) Close() error {
	donec := make(chan struct{})
	l.stopc <- donec
	<-donec
	return l.flush()
}

func checkpoint(l *log) {
	start := time.Now()
	_ = l.Close()
	observe("checkpoint", start)
}

// Allocations is an RPC endpoint in net/rpc's shape: its whole-body figure
// is the latency the caller sees, and should include the queueing
// (callee-wait-total).
type Allocations struct{ q *querier }

type Args struct{ IDs []any }
type Reply struct{ Found int }

func (a *Allocations) Find(args *Args, reply *Reply) error {
	defer observe("rpc_find", time.Now())
	out, err := a.q.pool.Find(context.Background(), args.IDs)
	reply.Found = len(out)
	return err
}
