// Command poolwait shows how timing a whole call through a worker pool
// blames the work for the time spent queueing for a slot.
//
// A pool of 28 slots (a buffered channel used as a semaphore) runs tasks
// that each take 50 ms. At each concurrency level all tasks are submitted
// at once. Every task records three timestamps: before it asks for a slot,
// after it got one, and after the work. "Whole call" is what a timer
// wrapped around the call reports; "wait" and "run" split it at the second
// timestamp.
//
// Usage:
//
//	go run ./docs/demos/poolwait [-short]
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"text/tabwriter"
	"time"
)

type config struct {
	slots       int           // pool size
	task        time.Duration // time each task holds its slot
	concurrency []int         // tasks submitted at once, one burst per level
}

func defaultConfig() config {
	return config{slots: 28, task: 50 * time.Millisecond, concurrency: []int{20, 100, 300}}
}

// shortConfig keeps the pool and the concurrency levels and shortens the
// task to 10 ms, so the three bursts take about 0.2 s together. Waits scale
// with the task: multiply by 5 to compare with the default run.
func shortConfig() config {
	c := defaultConfig()
	c.task = 10 * time.Millisecond
	return c
}

// stats are percentiles over the tasks of one burst.
type stats struct {
	p50, p99 time.Duration
}

type level struct {
	concurrency int
	whole       stats // before acquire → work done
	wait        stats // before acquire → slot acquired
	run         stats // slot acquired → work done
	elapsed     time.Duration
}

type result struct {
	cfg    config
	levels []level
}

func main() {
	short := flag.Bool("short", false, "use 10 ms tasks instead of 50 ms")
	flag.Parse()
	cfg := defaultConfig()
	if *short {
		cfg = shortConfig()
	}
	report(os.Stdout, run(cfg))
}

func run(cfg config) result {
	res := result{cfg: cfg}
	for _, n := range cfg.concurrency {
		res.levels = append(res.levels, burst(cfg, n))
	}
	return res
}

// burst submits n tasks at once to a fresh pool and waits for all of them.
func burst(cfg config, n int) level {
	slots := make(chan struct{}, cfg.slots)
	whole := make([]time.Duration, n)
	wait := make([]time.Duration, n)
	runs := make([]time.Duration, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Go(func() {
			t0 := time.Now()
			slots <- struct{}{} // acquire; blocked senders are served in arrival order
			t1 := time.Now()
			time.Sleep(cfg.task) // the work
			t2 := time.Now()
			<-slots
			whole[i], wait[i], runs[i] = t2.Sub(t0), t1.Sub(t0), t2.Sub(t1)
		})
	}
	wg.Wait()
	return level{
		concurrency: n,
		whole:       summarize(whole),
		wait:        summarize(wait),
		run:         summarize(runs),
		elapsed:     time.Since(start),
	}
}

func summarize(d []time.Duration) stats {
	slices.Sort(d)
	return stats{p50: percentile(d, 50), p99: percentile(d, 99)}
}

// percentile returns the p-th percentile (nearest rank) of sorted d.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := int(p/100*float64(len(d))+0.5) - 1
	return d[min(max(i, 0), len(d)-1)]
}

// ms formats d in milliseconds, or in microseconds below one millisecond
// where a fixed number of decimals would print zero.
func ms(d time.Duration) string {
	if d < time.Millisecond {
		return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond))
	}
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

func report(f *os.File, res result) {
	cfg := res.cfg
	fmt.Fprintf(f, "%v tasks on a pool of %d slots, all submitted at once (GOMAXPROCS %d)\n\n",
		cfg.task, cfg.slots, runtime.GOMAXPROCS(0))
	w := tabwriter.NewWriter(f, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "concurrent\twhole call p50\twhole call p99\twait p50\twait p99\trun p50\trun p99\tburst took\t")
	for _, l := range res.levels {
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", l.concurrency,
			ms(l.whole.p50), ms(l.whole.p99), ms(l.wait.p50), ms(l.wait.p99), ms(l.run.p50), ms(l.run.p99), ms(l.elapsed))
	}
	w.Flush()
	fmt.Fprintln(f, "\nwhole call = timer started before acquiring a slot; wait + run = the same call split when the slot is acquired")
}
