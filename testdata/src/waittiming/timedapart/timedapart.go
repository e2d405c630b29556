// Package timedapart times work across a wait whose work, one call down,
// takes a timestamp before its own work and measures from it: the figure
// less the callee's is the wait, measured apart.
package timedapart

import (
	"context"
	"log"
	"os"
	"time"

	"golang.org/x/sync/semaphore"
)

var slots = semaphore.NewWeighted(4)

func record(what string, start time.Time) { log.Printf("%s took %v", what, time.Since(start)) } // want record:"bookkeeping"

// reap takes its timestamp before its own work and records the time since
// it: its figure is the work's.
func reap(ctx context.Context) error {
	startTime := time.Now()
	err := remove(ctx)
	log.Printf("reap took %v", time.Since(startTime))
	return err
}

// compact times itself with a deferred recorder handed the clock.
func compact(ctx context.Context) error {
	defer record("compact", time.Now())
	return remove(ctx)
}

var dir = "snapshots"

// remove is the work, timed by nobody.
func remove(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return os.RemoveAll(dir)
}

// autoReap times the wait for a slot and the reap, which times itself: the
// figure less reap's is the wait.
func autoReap(ctx context.Context) error {
	startT := time.Now()
	defer record("auto reap", startT) // why: work-timed-apart
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	return reap(ctx)
}

// autoCompact: the same with a callee that times itself by a deferred
// recorder.
func autoCompact(ctx context.Context) error {
	start := time.Now()
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	err := compact(ctx)
	record("auto compact", start) // why: work-timed-apart
	return err
}

// autoRemove times the wait and a work nobody times apart.
func autoRemove(ctx context.Context) error {
	start := time.Now()
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	err := remove(ctx)
	record("auto remove", start) // want `the duration since start spans the wait in \(\*semaphore.Weighted\).Acquire and the work after it`
	return err
}

// late times only part of its work, after some of it ran: no figure of
// its own work.
func late(ctx context.Context) error {
	if err := remove(ctx); err != nil {
		return err
	}
	start := time.Now()
	err := remove(ctx)
	record("late", start)
	return err
}

// autoLate times the wait and late, whose own figure misses its first
// piece of work.
func autoLate(ctx context.Context) error {
	start := time.Now()
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	err := late(ctx)
	record("auto late", start) // want `the duration since start spans the wait in \(\*semaphore.Weighted\).Acquire and the work after it`
	return err
}

// autoBoth times the wait, a reap timed apart and a removal that is not.
func autoBoth(ctx context.Context) error {
	start := time.Now()
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	if err := reap(ctx); err != nil {
		return err
	}
	err := remove(ctx)
	record("auto both", start) // want `the duration since start spans the wait in \(\*semaphore.Weighted\).Acquire and the work after it`
	return err
}

// An observation is handed to whoever listens.
type observation struct{ took time.Duration }

var observers []func(observation)

// sweep keeps the time since its timestamp in an observation: no figure
// recorded where the check can see it.
func sweep(ctx context.Context) error {
	startTime := time.Now()
	err := remove(ctx)
	for _, o := range observers {
		o(observation{took: time.Since(startTime)})
	}
	return err
}

// autoSweep times the wait and a sweep whose own duration is only
// observed.
func autoSweep(ctx context.Context) error {
	start := time.Now()
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	err := sweep(ctx)
	record("auto sweep", start) // want `the duration since start spans the wait in \(\*semaphore.Weighted\).Acquire and the work after it`
	return err
}
