// Package phases records only through the service's metrics package, which
// it imports: its own helper that calls it is bookkeeping too, by the
// facts of package metrics.
package phases

import (
	"context"
	"time"

	"waittiming/wrapped/metrics"
	"waittiming/wrapped/store"
)

type svc struct {
	db *store.DB
	m  *metrics.Metrics
}

func (s *svc) record(n int) { s.m.RecordRows("exec", n) } // want record:"bookkeeping"

// exec is a wrapper of store's retrying ExecWrapped: recording is no work.
func (s *svc) exec(ctx context.Context, q string) error {
	if err := s.db.ExecWrapped(ctx, q); err != nil {
		return err
	}
	s.record(1)
	return nil
}

// Run times two statements, each retried by store.
func (s *svc) Run(ctx context.Context, q1, q2 string) error { // want Run:"retries between a timer"
	start := time.Now()
	if err := s.exec(ctx, q1); err != nil {
		return err
	}
	if err := s.exec(ctx, q2); err != nil {
		return err
	}
	s.m.RecordRowTime("run", 2, time.Since(start)) // want `the duration since start spans \(\*phases\.svc\)\.exec and 1 more calls, every one of which retries: their attempts are separated by a timer`
	return nil
}

// Sampled pauses in the metrics package's Sample: no bookkeeping, work
// beside the retrying calls, no finding.
func (s *svc) Sampled(ctx context.Context, q string) error {
	start := time.Now()
	if err := s.exec(ctx, q); err != nil {
		return err
	}
	s.m.Sample("exec")
	s.m.RecordRowTime("sampled", 1, time.Since(start))
	return nil
}
