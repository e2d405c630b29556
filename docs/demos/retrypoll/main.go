// Command retrypoll measures what a retry loop around a non-blocking send
// costs compared with simply waiting on the channel.
//
// A non-blocking send (select with a default case) is how Go code says "if
// the queue is full, do something else": reject, drop, count. Wrapping it in
// a retry loop removes that "something else" again. The caller now waits
// just as a blocking send would, so the channel's bound no longer limits how
// much work is pending (the waiting items sit in the retrying goroutines
// instead), and on top of that the loop burns CPU while it waits and notices
// free room only at its next attempt.
//
// Three measurements, each over the same set of senders:
//
//   - throughput: a consumer drains a full 1-slot channel at a fixed pace;
//     CPU time burned and the latency between a slot being freed and the
//     sender's send returning.
//   - cancellation: the channel stays full and nobody receives; ctx is
//     cancelled; does the sender return?
//   - shedding: many arrivals offer one item each to a small channel that
//     nobody drains; how many items end up held, in the channel or in
//     senders still waiting, compared with dropping when full.
//
// Usage:
//
//	go run ./docs/demos/retrypoll [-short]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"
)

type config struct {
	items        int           // throughput: items sent per sender
	consumeEvery time.Duration // throughput: the consumer takes one item per this, ±50%
	pollSleep    time.Duration // pause between attempts of the sleeping retry loop
	cancelAfter  time.Duration // cancellation: wait on the full channel before cancelling
	giveUp       time.Duration // cancellation: how long a sender gets to return after that
	arrivals     int           // shedding: goroutines offering one item each
	capacity     int           // shedding: channel capacity
	shedWindow   time.Duration // shedding: how long they get before we look
}

func defaultConfig() config {
	return config{
		items:        200,
		consumeEvery: 5 * time.Millisecond,
		pollSleep:    time.Millisecond,
		cancelAfter:  100 * time.Millisecond,
		giveUp:       200 * time.Millisecond,
		arrivals:     50,
		capacity:     10,
		shedWindow:   100 * time.Millisecond,
	}
}

// shortConfig sends a tenth of the items and waits less for cancellation;
// the per-item numbers keep their meaning.
func shortConfig() config {
	c := defaultConfig()
	c.items = 20
	c.cancelAfter = 30 * time.Millisecond
	c.giveUp = 100 * time.Millisecond
	c.shedWindow = 50 * time.Millisecond
	return c
}

// errFull is what the non-blocking send reports instead of waiting.
var errFull = errors.New("channel full")

// A sender puts v into ch; a non-nil error means the item was not
// delivered.
type sender struct {
	name string
	send func(ctx context.Context, ch chan<- int, v int) error
}

// sendOrDrop is the non-blocking send the retry loops are built around.
func sendOrDrop(_ context.Context, ch chan<- int, v int) error {
	select {
	case ch <- v:
		return nil
	default:
		return errFull
	}
}

// retryYield retries the non-blocking send, yielding the processor between
// attempts. It does check ctx, which is more than many such loops do.
func retryYield(ctx context.Context, ch chan<- int, v int) error {
	for {
		if sendOrDrop(ctx, ch, v) == nil {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		runtime.Gosched()
	}
}

// retrySleep retries the non-blocking send with a pause between attempts,
// trading CPU for latency.
func retrySleep(pause time.Duration) func(context.Context, chan<- int, int) error {
	return func(ctx context.Context, ch chan<- int, v int) error {
		for {
			if sendOrDrop(ctx, ch, v) == nil {
				return nil
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			time.Sleep(pause)
		}
	}
}

// sendBlocking parks until a receiver makes room; nothing else can wake it.
func sendBlocking(_ context.Context, ch chan<- int, v int) error {
	ch <- v
	return nil
}

// sendCtx parks until there is room or ctx ends, whichever comes first.
func sendCtx(ctx context.Context, ch chan<- int, v int) error {
	select {
	case ch <- v:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// waitingSenders are the senders that wait for room rather than give up.
func waitingSenders(cfg config) []sender {
	return []sender{
		{"retry + Gosched", retryYield},
		{fmt.Sprintf("retry + sleep %v", cfg.pollSleep), retrySleep(cfg.pollSleep)},
		{"blocking send", sendBlocking},
		{"select with ctx.Done", sendCtx},
	}
}

type throughput struct {
	name           string
	wall, cpu      time.Duration
	latMean        time.Duration // slot freed → send returned
	latP50, latP99 time.Duration
}

type cancellation struct {
	name     string
	cpu      time.Duration // during cancelAfter, while nobody received
	returned bool          // returned within giveUp of the cancel
	after    time.Duration // cancel → return, when it returned
	err      error
}

type shedding struct {
	name      string
	accepted  int // in the channel
	rejected  int // told "full" at once
	waiting   int // still inside the send when we looked
	cpu, wall time.Duration
}

type result struct {
	cfg        config
	throughput []throughput
	cancel     []cancellation
	shed       []shedding
}

func main() {
	short := flag.Bool("short", false, "send fewer items and wait less")
	flag.Parse()
	cfg := defaultConfig()
	if *short {
		cfg = shortConfig()
	}
	report(os.Stdout, run(cfg))
}

// run measures one sender at a time: CPU time is per process, so the
// senders must not overlap.
func run(cfg config) result {
	res := result{cfg: cfg}
	waiting := waitingSenders(cfg)
	for _, s := range waiting {
		res.throughput = append(res.throughput, measureThroughput(cfg, s))
	}
	for _, s := range waiting {
		res.cancel = append(res.cancel, measureCancel(cfg, s))
	}
	for _, s := range append([]sender{{"drop when full", sendOrDrop}}, waiting...) {
		res.shed = append(res.shed, measureShedding(cfg, s))
	}
	return res
}

// measureThroughput sends cfg.items through a 1-slot channel that starts
// full and is drained every cfg.consumeEvery on average, so every send has
// to wait for the consumer. Receive i is what lets send i through, which
// pairs the timestamps.
func measureThroughput(cfg config, s sender) throughput {
	ch := make(chan int, 1)
	ch <- -1
	freed := make([]time.Time, cfg.items)
	sent := make([]time.Time, cfg.items)
	var wg sync.WaitGroup
	cpu0, start := cpuTime(), time.Now()
	wg.Go(func() {
		// A metronome consumer would phase-lock with a sleeping retry
		// loop, which would then always just miss (or always just
		// catch) the free slot; real consumers jitter, so this one
		// does too.
		due := time.Now()
		for i := range freed {
			due = due.Add(cfg.consumeEvery/2 + rand.N(cfg.consumeEvery))
			time.Sleep(time.Until(due))
			freed[i] = time.Now() // before the receive: the send cannot complete earlier
			<-ch
		}
	})
	wg.Go(func() {
		for i := range sent {
			_ = s.send(context.Background(), ch, i) // cannot fail: ctx never ends
			sent[i] = time.Now()
		}
	})
	wg.Wait()
	t := throughput{name: s.name, wall: time.Since(start), cpu: cpuTime() - cpu0}
	lat := make([]time.Duration, cfg.items)
	var sum time.Duration
	for i := range lat {
		lat[i] = sent[i].Sub(freed[i])
		sum += lat[i]
	}
	// Report the mean as well: the sleeping loop's timer often fires in
	// the same wake-up as the consumer's, right before or right after
	// it, so its latencies cluster near zero and near one pause and the
	// median flips between the two from run to run.
	t.latMean = sum / time.Duration(len(lat))
	t.latP50, t.latP99 = percentile(lat, 50), percentile(lat, 99)
	return t
}

// measureCancel starts a send into a full channel nobody receives from,
// cancels ctx after cfg.cancelAfter and gives the sender cfg.giveUp to
// return. A sender that does not is released by receiving once, so that
// it does not outlive run.
func measureCancel(cfg config, s sender) cancellation {
	ch := make(chan int, 1)
	ch <- -1
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	cpu0 := cpuTime()
	go func() { done <- s.send(ctx, ch, 1) }()
	time.Sleep(cfg.cancelAfter)
	c := cancellation{name: s.name, cpu: cpuTime() - cpu0}
	cancel()
	cancelled := time.Now()
	select {
	case c.err = <-done:
		c.returned, c.after = true, time.Since(cancelled)
	case <-time.After(cfg.giveUp):
		<-ch // only a receiver can release a send that ignores ctx
		c.err = <-done
	}
	return c
}

// measureShedding lets cfg.arrivals goroutines offer one item each to a
// channel of cfg.capacity that nobody drains, and counts after
// cfg.shedWindow where the items are. Afterwards ctx is cancelled and the
// channel drained until every arrival has returned.
func measureShedding(cfg config, s sender) shedding {
	ch := make(chan int, cfg.capacity)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var accepted, rejected, returned atomic.Int64
	var wg sync.WaitGroup
	cpu0, start := cpuTime(), time.Now()
	for i := range cfg.arrivals {
		wg.Go(func() {
			switch err := s.send(ctx, ch, i); {
			case err == nil:
				accepted.Add(1)
			case errors.Is(err, errFull):
				rejected.Add(1)
			}
			returned.Add(1)
		})
	}
	time.Sleep(cfg.shedWindow)
	sh := shedding{
		name:     s.name,
		cpu:      cpuTime() - cpu0,
		wall:     time.Since(start),
		accepted: len(ch),
		rejected: int(rejected.Load()),
		waiting:  cfg.arrivals - int(returned.Load()),
	}

	cancel()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	for {
		select {
		case <-ch:
		case <-done:
			return sh
		}
	}
}

// percentile returns the p-th percentile (nearest rank) of d, sorting d.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	i := int(p/100*float64(len(d))+0.5) - 1
	return d[min(max(i, 0), len(d)-1)]
}

// share is CPU time as a percentage of one core over wall.
func share(cpu, wall time.Duration) float64 { return 100 * cpu.Seconds() / wall.Seconds() }

func report(f *os.File, res result) {
	cfg := res.cfg
	fmt.Fprintf(f, "GOMAXPROCS %d; CPU is user+system time of the whole process\n\n", runtime.GOMAXPROCS(0))

	fmt.Fprintf(f, "throughput: %d items into a full 1-slot channel drained every %v ± 50%%\n", cfg.items, cfg.consumeEvery)
	w := tabwriter.NewWriter(f, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "sender\twall\tCPU\tCPU % of a core\tadded latency mean\tp50\tp99\t")
	for _, t := range res.throughput {
		fmt.Fprintf(w, "%s\t%v\t%v\t%.1f\t%v\t%v\t%v\t\n", t.name, t.wall.Round(time.Millisecond),
			t.cpu.Round(100*time.Microsecond), share(t.cpu, t.wall), t.latMean.Round(time.Microsecond),
			t.latP50.Round(time.Microsecond), t.latP99.Round(time.Microsecond))
	}
	w.Flush()

	fmt.Fprintf(f, "\ncancellation: channel stays full, nobody receives, ctx cancelled after %v\n", cfg.cancelAfter)
	w = tabwriter.NewWriter(f, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "sender\tCPU while waiting\tCPU % of a core\treturned on cancel\tafter\terror\t")
	for _, c := range res.cancel {
		returned, after := "yes", c.after.Round(time.Microsecond).String()
		if !c.returned {
			returned, after = "no", fmt.Sprintf("stuck > %v", cfg.giveUp)
		}
		fmt.Fprintf(w, "%s\t%v\t%.1f\t%s\t%s\t%v\t\n", c.name, c.cpu.Round(100*time.Microsecond),
			share(c.cpu, cfg.cancelAfter), returned, after, c.err)
	}
	w.Flush()

	fmt.Fprintf(f, "\nshedding: %d arrivals offer one item each to a %d-slot channel nobody drains; counted after %v\n",
		cfg.arrivals, cfg.capacity, cfg.shedWindow)
	w = tabwriter.NewWriter(f, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "sender\tin channel\trejected at once\tstill waiting in senders\titems held\tCPU % of a core\t")
	for _, s := range res.shed {
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%.1f\t\n", s.name, s.accepted, s.rejected, s.waiting,
			s.accepted+s.waiting, share(s.cpu, s.wall))
	}
	w.Flush()
}
