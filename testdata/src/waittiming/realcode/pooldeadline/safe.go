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

// Negative: the deadline is the whole call's: the caller waits for the
// reply under it, and the worker sheds jobs whose caller gave up.
type e2eJob struct {
	ctx   context.Context
	n     int
	reply chan int
}

type E2E struct{ jobs chan e2eJob }

func NewE2E(workers int) *E2E {
	s := &E2E{jobs: make(chan e2eJob, 64)}
	for range workers {
		go func() {
			for j := range s.jobs {
				if j.ctx.Err() != nil {
					continue
				}
				j.reply <- j.n * 2
			}
		}()
	}
	return s
}

func (s *E2E) Handle(ctx context.Context, n int) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	reply := make(chan int, 1)
	s.jobs <- e2eJob{ctx: ctx, n: n, reply: reply}
	select {
	case r := <-reply:
		return r, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}
