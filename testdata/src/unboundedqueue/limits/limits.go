// Package limits covers how the goroutineperitem fix bounds a loop: SetLimit
// on an errgroup created in view, a semaphore otherwise, an acquire that
// watches ctx.Done() where the loop does, and one semaphore for all the
// spawns of one loop.
package limits

import (
	"context"
	"errors"
	"sync"

	"golang.org/x/sync/errgroup"
)

type job struct{ id int }

func handle(j job)                          {}
func work(ctx context.Context, j job) error { return nil }
func audit(j job) error                     { return nil }
func produce(ctx context.Context) error     { return nil }

// SetLimit right after the group is made, before any Go.
func declared(ctx context.Context, jobs <-chan job) error {
	g, ctx := errgroup.WithContext(ctx)
	for j := range jobs {
		g.Go(func() error { return work(ctx, j) }) // want `g.Go goroutine per item received from jobs .*; give the group a limit with SetLimit`
	}
	return g.Wait()
}

// Two Go calls of one group in one loop: one SetLimit.
func twoGo(jobs <-chan job) error {
	g := new(errgroup.Group)
	for j := range jobs {
		g.Go(func() error { return audit(j) }) // want `g.Go goroutine per item received from jobs`
		g.Go(func() error {                    // want `g.Go goroutine per item received from jobs`
			return work(context.Background(), j)
		})
	}
	return g.Wait()
}

// The group also runs a producer outside the loop: a limit would hold it
// back too, so the fix is a semaphore for the loop's spawns alone.
func withProducer(ctx context.Context, jobs <-chan job) error {
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return produce(ctx) })
	for j := range jobs {
		g.Go(func() error { // want `g.Go goroutine per item received from jobs .*; acquire a semaphore`
			return work(ctx, j)
		})
	}
	return g.Wait()
}

// TryGo on the group: a limit would make it fail, so a semaphore.
func withTryGo(jobs <-chan job) error {
	var g errgroup.Group
	if !g.TryGo(func() error { return nil }) {
		return errors.New("busy")
	}
	for j := range jobs {
		g.Go(func() error { // want `g.Go goroutine per item received from jobs .*; acquire a semaphore`
			return audit(j)
		})
	}
	return g.Wait()
}

// Two go statements in one loop: one semaphore, acquired before each.
func twoSpawns(jobs <-chan job) {
	for j := range jobs {
		go handle(j) // want `goroutine per item received from jobs`
		j.id++
		go func() { // want `goroutine per item received from jobs`
			_ = audit(j)
		}()
	}
}

// The loop watches ctx.Done() and leaves by a labeled break: the acquire
// watches it too and leaves the same way.
func labeled(ctx context.Context, jobs <-chan job) {
outer:
	for {
		select {
		case j := <-jobs:
			go handle(j) // want `goroutine per item received from jobs`
		case <-ctx.Done():
			break outer
		}
	}
	handle(job{})
}

// The loop leaves with an error: the acquire returns it too.
func withErr(ctx context.Context, jobs <-chan job) error {
	for {
		select {
		case j, ok := <-jobs:
			if !ok {
				return nil
			}
			go handle(j) // want `goroutine per item received from jobs`
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// A range loop that polls ctx.Done() before each item.
func polled(ctx context.Context, jobs <-chan job) error {
	for j := range jobs {
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		go handle(j) // want `goroutine per item received from jobs`
	}
	return nil
}

// The spawn is counted in a WaitGroup first, and the loop waits for the
// group when it leaves: the acquire goes before wg.Add, or leaving on
// cancellation would wait for a goroutine that was never started.
func counted(ctx context.Context, jobs <-chan job) {
	var wg sync.WaitGroup
	for {
		select {
		case <-ctx.Done():
			wg.Wait()
			return
		case j := <-jobs:
			wg.Add(1)
			go func() { // want `goroutine per item received from jobs`
				defer wg.Done()
				handle(j)
			}()
		}
	}
}
