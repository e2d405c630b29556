package negative

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// A resourcePool times its own wait: the blocking branch of get takes a
// timestamp, waits for a resource, and hands the start to recordWait,
// which adds the time since to counters and to a hook. The figure is the
// wait alone; what the recorder does is record it.
type resourcePool struct {
	resources chan resource
	waitCount atomic.Int64
	waitTime  atomic.Int64
	logWait   func(time.Time)
}

type resource struct{ id int }

func newResourcePool(n int) *resourcePool {
	p := &resourcePool{resources: make(chan resource, n)}
	for i := range n {
		p.resources <- resource{i}
	}
	return p
}

func (p *resourcePool) put(r resource) { p.resources <- r }

func (p *resourcePool) get(ctx context.Context) (resource, error) {
	var r resource
	select {
	case r = <-p.resources:
	default:
		startTime := time.Now()
		select { // why: no-work-after
		case r = <-p.resources:
		case <-ctx.Done():
			return resource{}, errors.New("timed out waiting for a resource")
		}
		p.recordWait(startTime)
	}
	return r, nil
}

func (p *resourcePool) recordWait(start time.Time) {
	p.waitCount.Add(1)
	p.waitTime.Add(time.Since(start).Nanoseconds())
	if p.logWait != nil {
		p.logWait(start)
	}
}
