// Package wrapped times calls whose retries hide behind wrappers: of this
// package (a wrapper of a wrapper of the helper that loops) and of package
// store (a retries fact). A fallback run when the call failed is no other
// work in the figure.
package wrapped

import (
	"context"
	"log"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/errgroup"

	"waittiming/wrapped/metrics"
	"waittiming/wrapped/store"
)

var insertSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "insert_seconds"})

type writer struct {
	db         *store.DB
	maxBackoff int
}

func (w *writer) insertOnce(ctx context.Context, rows []string) error { return nil }

// withRetryQuery retries the query with a backoff between attempts.
func (w *writer) withRetryQuery(ctx context.Context, query func() (int, error)) (int, error) {
	backoff := 1
	for {
		n, err := query()
		if err == nil {
			return n, nil
		}
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		backoff = min(2*backoff, w.maxBackoff)
		time.Sleep(time.Duration(backoff) * time.Second)
	}
}

// withRetryInsert adapts the query helper to an insert.
func (w *writer) withRetryInsert(ctx context.Context, insert func() error) error {
	_, err := w.withRetryQuery(ctx, func() (int, error) { return 0, insert() })
	return err
}

// insertBatch is one batch insert, retried by the helper two wrappers down.
func (w *writer) insertBatch(ctx context.Context, rows []string) error {
	return w.withRetryInsert(ctx, func() error { return w.insertOnce(ctx, rows) })
}

// insertSerially falls back to one row at a time.
func (w *writer) insertSerially(ctx context.Context, rows []string) error {
	for _, r := range rows {
		if err := w.insertOnce(ctx, []string{r}); err != nil {
			return err
		}
	}
	return nil
}

// Insert times the batch insert, whose retries are two wrappers down; the
// serial fallback runs only once the batch failed.
func (w *writer) Insert(ctx context.Context, rows []string) error { // want Insert:"retries between time\\.Sleep"
	start := time.Now()
	err := w.insertBatch(ctx, rows)
	if err != nil {
		log.Printf("batch insert failed, inserting serially: %v", err)
		if serr := w.insertSerially(ctx, rows); serr != nil {
			return serr
		}
	}
	taken := time.Since(start) // want `the duration since start spans \(\*wrapped\.writer\)\.insertBatch, whose attempts are separated by time\.Sleep`
	insertSeconds.Observe(taken.Seconds())
	return nil
}

// Exec times a wrapper of package store: its retries fact says so.
func (w *writer) Exec(ctx context.Context, q string) error { // want Exec:"retries between a timer"
	start := time.Now()
	err := w.db.ExecWrapped(ctx, q)
	insertSeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans \(\*store\.DB\)\.ExecWrapped, whose attempts are separated by a timer`
	return err
}

// InsertTwice does two inserts, the second not a fallback: the figure
// covers more than the retrying call, whose pauses are a tail of it.
func (w *writer) InsertTwice(ctx context.Context, rows []string) error {
	start := time.Now()
	if err := w.insertBatch(ctx, rows); err != nil {
		return err
	}
	err := w.insertSerially(ctx, rows)
	insertSeconds.Observe(time.Since(start).Seconds())
	return err
}

// Fallback retries only when a first attempt failed: the retrying call
// runs in the error branch, like other waits there.
func (w *writer) Fallback(ctx context.Context, rows []string) error {
	start := time.Now()
	err := w.insertOnce(ctx, rows)
	if err != nil {
		err = w.insertBatch(ctx, rows)
	}
	insertSeconds.Observe(time.Since(start).Seconds())
	return err
}

// Once times a call that makes one attempt, through store: no fact.
func (w *writer) Once(ctx context.Context, q string) error {
	start := time.Now()
	err := w.db.ExecOnce(ctx, q)
	insertSeconds.Observe(time.Since(start).Seconds())
	return err
}

// Audit times a function of store that does more than the retrying call:
// no fact, no finding.
func (w *writer) Audit(ctx context.Context, q string) error {
	start := time.Now()
	err := w.db.ExecAndAudit(ctx, q)
	insertSeconds.Observe(time.Since(start).Seconds())
	return err
}

// Loop times a call that recurses: no retry.
func (w *writer) Loop(ctx context.Context, q string) error {
	start := time.Now()
	err := w.db.Loop(ctx, q)
	insertSeconds.Observe(time.Since(start).Seconds())
	return err
}

// reqCtx is a service's own request context: it embeds a context.Context,
// so its Done and Err are the context's.
type reqCtx struct {
	context.Context
	requestID string
}

// withRetryCtx gives up on the service's context while it backs off.
func (w *writer) withRetryCtx(ctx *reqCtx, insert func() error) error {
	backoff := time.Second
	for {
		err := insert()
		if err == nil {
			return nil
		}
		backoff *= 2
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Request times a retrying call that backs off on a service's own
// context type.
func (w *writer) Request(ctx *reqCtx, rows []string) error { // want Request:"retries between a timer"
	start := time.Now()
	err := w.withRetryCtx(ctx, func() error { return w.insertOnce(ctx, rows) })
	insertSeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans \(\*wrapped\.writer\)\.withRetryCtx, whose attempts are separated by a timer`
	return err
}

// insertSpecs is another insert the helper retries.
func (w *writer) insertSpecs(ctx context.Context, specs []string) error {
	return w.withRetryInsert(ctx, func() error { return w.insertOnce(ctx, specs) })
}

// Store runs phases: two tasks of an errgroup it waits for, then one more
// call. Every piece of work the figure holds is a call that retries, so
// under failure the figure is mostly pauses.
func (w *writer) Store(ctx context.Context, rows, specs []string) error {
	start := time.Now()
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return w.insertBatch(gctx, rows) })
	g.Go(func() error { return w.insertSpecs(gctx, specs) })
	if err := g.Wait(); err != nil {
		return err
	}
	if err := w.insertBatch(ctx, rows); err != nil {
		return err
	}
	insertSeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans \(\*wrapped\.writer\)\.insertBatch and 2 more calls, every one of which retries: their attempts are separated by time\.Sleep`
	return nil
}

// StoreAndAudit has a phase that does not retry: the pauses are a tail of
// a figure of more work.
func (w *writer) StoreAndAudit(ctx context.Context, rows, specs []string) error {
	start := time.Now()
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return w.insertBatch(gctx, rows) })
	g.Go(func() error { return w.insertSerially(gctx, specs) })
	if err := g.Wait(); err != nil {
		return err
	}
	if err := w.insertSpecs(ctx, specs); err != nil {
		return err
	}
	insertSeconds.Observe(time.Since(start).Seconds())
	return nil
}

// StoreLater starts tasks it does not wait for in the figure: they are
// not its work.
func (w *writer) StoreLater(ctx context.Context, rows, specs []string) error {
	start := time.Now()
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return w.insertBatch(gctx, rows) })
	if err := w.insertSerially(ctx, specs); err != nil {
		return err
	}
	insertSeconds.Observe(time.Since(start).Seconds())
	return g.Wait()
}

// The service records through its own metrics package (package metrics):
// a call of it is bookkeeping, not work, so each phase is a wrapper of
// its retrying insert, as armada's CreateJobs is.

type ingester struct {
	w       *writer
	metrics *metrics.Metrics
}

func (in *ingester) createRows(ctx context.Context, rows []string) error {
	start := time.Now()
	err := in.w.insertBatch(ctx, rows)
	if err != nil {
		log.Printf("batch insert failed, inserting serially: %v", err)
		if serr := in.w.insertSerially(ctx, rows); serr != nil {
			return serr
		}
	}
	taken := time.Since(start) // want `the duration since start spans \(\*wrapped\.writer\)\.insertBatch, whose attempts are separated by time\.Sleep`
	in.metrics.RecordRowTime("insert", len(rows), taken)
	in.metrics.RecordRows("insert", len(rows))
	return nil
}

func (in *ingester) createSpecs(ctx context.Context, specs []string) error {
	if err := in.w.insertSpecs(ctx, specs); err != nil {
		return err
	}
	in.metrics.RecordRows("spec", len(specs))
	return nil
}

// Phases times two phases, each a wrapper of a retrying insert.
func (in *ingester) Phases(ctx context.Context, rows, specs []string) error { // want Phases:"retries between time\\.Sleep"
	start := time.Now()
	if err := in.createRows(ctx, rows); err != nil {
		return err
	}
	if err := in.createSpecs(ctx, specs); err != nil {
		return err
	}
	insertSeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans \(\*wrapped\.ingester\)\.createRows and 1 more calls, every one of which retries`
	return nil
}

// createAndPush also pushes the figures to a gateway: work beside the
// insert, so no wrapper.
func (in *ingester) createAndPush(ctx context.Context, specs []string) error {
	if err := in.w.insertSpecs(ctx, specs); err != nil {
		return err
	}
	return in.metrics.Push("http://gateway/metrics")
}

// PhasesAndPush has a phase that is no wrapper: silent.
func (in *ingester) PhasesAndPush(ctx context.Context, rows, specs []string) error {
	start := time.Now()
	if err := in.createRows(ctx, rows); err != nil {
		return err
	}
	if err := in.createAndPush(ctx, specs); err != nil {
		return err
	}
	insertSeconds.Observe(time.Since(start).Seconds())
	return nil
}

// A lookup retried with a backoff, whose rows are read once its attempts
// are over: the reads are the query's, so the lookup is a wrapper of its
// retrying call.

type resultRows struct{ ids []string }

func (r *resultRows) Next() bool { return len(r.ids) > 0 }

func (r *resultRows) Scan(dst *string) error {
	*dst, r.ids = r.ids[0], r.ids[1:]
	return nil
}

func (w *writer) queryOnce(ctx context.Context, ids []string) (any, error) {
	return &resultRows{ids: ids}, ctx.Err()
}

func (w *writer) withRetryAny(ctx context.Context, query func() (any, error)) (any, error) {
	for {
		res, err := query()
		if err == nil {
			return res, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		time.Sleep(time.Second)
	}
}

func (w *writer) lookupDone(ctx context.Context, ids []string) map[string]bool {
	raw, err := w.withRetryAny(ctx, func() (any, error) { return w.queryOnce(ctx, ids) })
	if err != nil {
		log.Printf("lookup failed: %v", err)
		return nil
	}
	rs := raw.(*resultRows)
	done := make(map[string]bool)
	for rs.Next() {
		var id string
		if err := rs.Scan(&id); err == nil {
			done[id] = true
		}
	}
	return done
}

// UpdateRows times a retried lookup and a retried insert.
func (w *writer) UpdateRows(ctx context.Context, rows []string) error { // want UpdateRows:"retries between time\\.Sleep"
	start := time.Now()
	done := w.lookupDone(ctx, rows)
	var left []string
	for _, r := range rows {
		if !done[r] {
			left = append(left, r)
		}
	}
	if err := w.insertBatch(ctx, left); err != nil {
		return err
	}
	insertSeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans \(\*wrapped\.writer\)\.lookupDone and 1 more calls, every one of which retries`
	return nil
}

// lookupAndTouch writes each row it read: work beside the retried lookup.
func (w *writer) lookupAndTouch(ctx context.Context, ids []string) error {
	raw, err := w.withRetryAny(ctx, func() (any, error) { return w.queryOnce(ctx, ids) })
	if err != nil {
		return err
	}
	rs := raw.(*resultRows)
	for rs.Next() {
		var id string
		if err := rs.Scan(&id); err != nil {
			return err
		}
		if err := w.insertOnce(ctx, []string{id}); err != nil {
			return err
		}
	}
	return nil
}

// TouchRows times a phase that is no wrapper: silent.
func (w *writer) TouchRows(ctx context.Context, rows []string) error {
	start := time.Now()
	if err := w.lookupAndTouch(ctx, rows); err != nil {
		return err
	}
	if err := w.insertBatch(ctx, rows); err != nil {
		return err
	}
	insertSeconds.Observe(time.Since(start).Seconds())
	return nil
}
