// Package relclock measures with a relative clock, whose readings are
// time.Durations: a reading before a wait is a start like time.Now()'s.
package relclock

import (
	"context"
	"log"
	"os"
	"time"

	"golang.org/x/sync/semaphore"

	"waittiming/relclock/timex"
)

var slots = semaphore.NewWeighted(4)

// logDuration records the time since a reading of the relative clock.
func logDuration(ctx context.Context, method string, startTime time.Duration, err error) {
	log.Printf("%s took %v (err %v)", method, timex.Since(startTime), err)
}

// logSimple hands the reading on to logDuration: a recorder no fact
// describes, whose parameter is named like a start.
func logSimple(ctx context.Context, method string, startTime time.Duration, err error) {
	logDuration(ctx, method, startTime, err)
}

// Sync records through the wrapper, from a deferred closure.
func Sync(ctx context.Context, name string) (err error) {
	start := timex.Now()
	defer func() { logSimple(ctx, "sync", start, err) }() // want `the duration since start spans the wait in \(\*semaphore.Weighted\).Acquire and the work after it`
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	return os.Truncate(name, 0)
}

// Read times a read that queues for a slot first.
func Read(ctx context.Context, name string) error {
	start := timex.Now()
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	_, err := os.ReadFile(name)
	log.Printf("read took %v", timex.Since(start)) // want `the duration since start spans the wait in \(\*semaphore.Weighted\).Acquire and the work after it`
	return err
}

// Write hands its reading to a recorder from a deferred closure.
func Write(ctx context.Context, name string) (err error) {
	start := timex.Now()
	defer func() { logDuration(ctx, "write", start, err) }() // want `the duration since start spans the wait in \(\*semaphore.Weighted\).Acquire and the work after it`
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	return os.WriteFile(name, nil, 0o644)
}

// Chmod defers the recorder, handed a reading at the defer.
func Chmod(ctx context.Context, name string) error {
	defer logDuration(ctx, "chmod", timex.Now(), nil) // want `the measurement deferred with a start of timex.Now\(\) spans the wait in \(\*semaphore.Weighted\).Acquire and the work after it`
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	return os.Chmod(name, 0o644)
}

// Stat times its work alone: the reading is taken after the wait.
func Stat(ctx context.Context, name string) error {
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	start := timex.Now()
	_, err := os.Stat(name)
	log.Printf("stat took %v", timex.Since(start)) // why: no-wait-in-span
	return err
}

// Remove hands the recorder a duration that is no reading: a budget.
func Remove(ctx context.Context, name string) error {
	budget := 2 * time.Second
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	err := os.Remove(name)
	logDuration(ctx, "remove", budget, err)
	return err
}
