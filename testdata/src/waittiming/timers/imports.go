package timers

import (
	"context"

	"waittiming/timers/stats"
)

// The file imports neither time nor log/slog: the fix adds both, sorted.
func Begun(ctx context.Context) error {
	op := stats.Begin(ctx, opHist)
	defer op.End() // want `the timer op started by stats.Begin spans the wait in \(\*semaphore\.Weighted\)\.Acquire`
	if err := sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer sem.Release(1)
	return work(ctx)
}
