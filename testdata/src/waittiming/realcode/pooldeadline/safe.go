package pooldeadline

import (
	"context"
	"net"
	"sync"
	"time"
)

// Negative: the task carries its parent and the budget; the worker derives the deadline when it
// starts the work, so waiting for a worker does not spend it (loki's own
// rateStore.getRatesFromIngesters does this).
type safeTask struct {
	addr    string
	parent  context.Context
	timeout time.Duration
	done    *sync.WaitGroup
}

type SafeDistributor struct {
	tasks         chan safeTask
	remoteTimeout time.Duration
}

func (d *SafeDistributor) worker(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case t := <-d.tasks:
			d.send(t)
		}
	}
}

func (d *SafeDistributor) send(t safeTask) {
	defer t.done.Done()
	ctx, cancel := context.WithTimeout(t.parent, t.timeout)
	defer cancel()
	var dialer net.Dialer
	c, err := dialer.DialContext(ctx, "tcp", t.addr)
	if err == nil {
		c.Close()
	}
}

func (d *SafeDistributor) Push(ctx context.Context, addrs []string) {
	var wg sync.WaitGroup
	for _, addr := range addrs {
		wg.Add(1)
		select {
		case <-ctx.Done():
			wg.Done()
			return
		case d.tasks <- safeTask{addr: addr, parent: context.WithoutCancel(ctx), timeout: d.remoteTimeout, done: &wg}:
		}
	}
	wg.Wait()
}

func NewSafe(ctx context.Context, workers int, timeout time.Duration) *SafeDistributor {
	d := &SafeDistributor{tasks: make(chan safeTask), remoteTimeout: timeout}
	for range workers {
		go d.worker(ctx)
	}
	return d
}

// Negative: the deadline bounds work done before the hand-off too (a
// lookup), so it is the budget of both, and the job gets what is left.
func (d *SafeDistributor) PushResolved(ctx context.Context, host string) error {
	rctx, cancel := context.WithTimeout(ctx, d.remoteTimeout)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupHost(rctx, host)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	d.tasks <- safeTask{addr: addrs[0], parent: rctx, timeout: d.remoteTimeout, done: &wg}
	wg.Wait()
	return nil
}
