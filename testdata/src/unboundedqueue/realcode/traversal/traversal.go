// Package traversal is a missed census hazard (rclone, fs/walk/walk.go and
// fs/march/march.go): a fixed set of workers drains a channel of directory
// jobs bounded by the number of workers; each worker lists a directory and
// starts a goroutine that sends the subdirectories' jobs back into that
// channel. With the workers busy, those goroutines park on the send with
// their job slices: one per listed directory, a queue of the tree's width
// held as goroutines beyond the channel's bound. Reported without a fix (a
// semaphore before the spawn would block the workers that drain the
// channel).
package traversal

import (
	"context"
	"sync"
)

type job struct{ dir string }

type lister interface {
	List(ctx context.Context, dir string) ([]string, error)
}

func walk(ctx context.Context, l lister, root string, workers int) {
	in := make(chan job, workers)
	var wg, pending sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case j, ok := <-in:
					if !ok {
						return
					}
					subdirs, _ := l.List(ctx, j.dir)
					if len(subdirs) > 0 {
						pending.Add(len(subdirs))
						go func() { // want `goroutine per item received from in, each holding the items it sends back to in until the channel takes them`
							for _, d := range subdirs {
								in <- job{dir: d}
							}
						}()
					}
					pending.Done()
				}
			}
		}()
	}
	pending.Add(1)
	in <- job{dir: root}
	pending.Wait()
	close(in)
	wg.Wait()
}

// requeue is the twin that sends back one item per spawn, the one it was
// given, after a pause: a retry that replaces the item it took, whose
// number does not grow (restarts-worker).
func requeue(ctx context.Context, in chan job, try func(job) error) {
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-in:
			if err := try(j); err != nil {
				go func() { // no finding wanted: one item back per item taken
					in <- j
				}()
			}
		}
	}
}
