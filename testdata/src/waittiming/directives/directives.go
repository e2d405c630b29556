// Package directives checks suppression of waittiming findings.
package directives

import (
	"context"
	"log"
	"time"

	"golang.org/x/sync/semaphore"
)

var sem = semaphore.NewWeighted(2)

func work(ctx context.Context) error { return nil }

// Silenced keeps the whole-call figure on purpose.
func Silenced(ctx context.Context) error {
	start := time.Now()
	sem.Acquire(ctx, 1)
	defer sem.Release(1)
	err := work(ctx)
	//queuecheck:ignore waittiming the SLO is on the whole call, wait included
	log.Printf("took %v", time.Since(start))
	return err
}

// NoReason gives no reason, so nothing is silenced.
func NoReason(ctx context.Context) error {
	start := time.Now()
	sem.Acquire(ctx, 1)
	defer sem.Release(1)
	err := work(ctx)
	// want +2 `//queuecheck:ignore waittiming needs a reason after the check name`
	//
	//queuecheck:ignore waittiming
	log.Printf("took %v", time.Since(start)) // want `the duration since start spans`
	return err
}

// Stale silences nothing: the timing is split.
func Stale(ctx context.Context) error {
	start := time.Now()
	sem.Acquire(ctx, 1)
	defer sem.Release(1)
	started := time.Now()
	err := work(ctx)
	//queuecheck:ignore waittiming split already // want `//queuecheck:ignore waittiming silences nothing here; remove it`
	log.Printf("took %v (wait %v)", time.Since(started), started.Sub(start))
	return err
}

//queuecheck:ignore waittimng a misspelling is reported by the check it misspells // want `//queuecheck:ignore names unknown check waittimng; did you mean waittiming\?`
var misspelled = 1

//queuecheck:ignore chansiz chansize answers for its own misspellings
var notMine = 2
