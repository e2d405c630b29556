// Command resolverqueue shows a fast operation made slow by the queue it
// shares: a name lookup submitted to a worker pool behind a backlog of long
// jobs waits for the backlog, however quick the lookup itself is.
//
// Three placements of the same lookup of "localhost" (answered from the
// hosts file; nothing leaves the machine):
//
//	idle pool     the shared pool with nothing else queued
//	behind jobs   the shared pool with cfg.fillers long jobs queued ahead
//	own pool      a separate pool, while the shared one is busy with the jobs
//
// The asyncio measurement queued the lookup behind 60 one-second jobs on a
// 28-thread pool. Here the pool has 4 slots, so 60 one-second jobs would
// keep it busy for 15 s; the jobs are shortened to 100 ms instead, which
// keeps the backlog at the same 60 jobs and puts the expected wait at
// 60/4 × 100 ms = 1.5 s. The jobs still queued when the lookup is done are
// cancelled rather than waited for.
//
// Usage:
//
//	go run ./docs/demos/resolverqueue [-short]
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"runtime"
	"slices"
	"sync"
	"text/tabwriter"
	"time"
)

// host is the only name this demo ever resolves.
const host = "localhost"

type config struct {
	slots   int           // shared pool size
	fillers int           // long jobs queued ahead of the lookup
	job     time.Duration // how long each filler job holds its slot
	repeat  int           // lookups per placement where one is cheap enough to repeat
}

func defaultConfig() config {
	return config{slots: 4, fillers: 60, job: 100 * time.Millisecond, repeat: 20}
}

// shortConfig keeps the pool and the backlog and shortens the jobs to
// 10 ms, for an expected wait of 150 ms.
func shortConfig() config {
	c := defaultConfig()
	c.job = 10 * time.Millisecond
	return c
}

// expectedWait is how long the lookup should wait behind the fillers: they
// run cfg.slots at a time, and the lookup starts when the last batch does.
func (c config) expectedWait() time.Duration {
	return time.Duration(c.fillers/c.slots) * c.job
}

// pool runs submitted jobs on a fixed number of workers, in submission
// order, like a thread pool executor.
type pool struct {
	jobs    chan func()
	workers sync.WaitGroup
}

func newPool(slots, backlog int) *pool {
	p := &pool{jobs: make(chan func(), backlog)}
	for range slots {
		p.workers.Go(func() {
			for job := range p.jobs {
				job()
			}
		})
	}
	return p
}

// submit queues job; the backlog is sized so that it never blocks here.
func (p *pool) submit(job func()) { p.jobs <- job }

// close lets the workers finish what is queued and waits for them.
func (p *pool) close() {
	close(p.jobs)
	p.workers.Wait()
}

// timing is one lookup: queued is submission to start, lookup is the call.
type timing struct {
	queued, lookup time.Duration
	err            error
}

func (t timing) total() time.Duration { return t.queued + t.lookup }

// lookupVia submits a lookup to p and waits for it.
func lookupVia(p *pool) timing {
	done := make(chan timing, 1)
	submitted := time.Now()
	p.submit(func() {
		started := time.Now()
		_, err := net.DefaultResolver.LookupHost(context.Background(), host)
		done <- timing{queued: started.Sub(submitted), lookup: time.Since(started), err: err}
	})
	return <-done
}

type placement struct {
	name    string
	timings []timing
}

type result struct {
	cfg        config
	cold       timing // the very first lookup, which reads the hosts file
	placements []placement
	elapsed    time.Duration
}

func main() {
	short := flag.Bool("short", false, "use 10 ms jobs instead of 100 ms")
	flag.Parse()
	cfg := defaultConfig()
	if *short {
		cfg = shortConfig()
	}
	report(os.Stdout, run(cfg))
}

func run(cfg config) result {
	start := time.Now()
	res := result{cfg: cfg}
	// Room for every filler plus the lookup, so submit never blocks.
	shared := newPool(cfg.slots, cfg.fillers+1)
	own := newPool(1, 1)

	// The first lookup loads the hosts file into the resolver's cache; keep
	// it out of the comparison so that no placement pays for it.
	res.cold = lookupVia(shared)

	idle := placement{name: "idle pool"}
	for range cfg.repeat {
		idle.timings = append(idle.timings, lookupVia(shared))
	}

	// Queue the fillers, then the lookup behind them. Fillers give up
	// early once ctx is cancelled, so the backlog left behind the lookup
	// does not hold up run.
	ctx, cancel := context.WithCancel(context.Background())
	for range cfg.fillers {
		shared.submit(func() {
			select {
			case <-time.After(cfg.job):
			case <-ctx.Done():
			}
		})
	}
	behind := make(chan timing, 1)
	go func() { behind <- lookupVia(shared) }()

	// While the shared pool works through the backlog, the same lookup
	// on a pool of its own.
	ownPool := placement{name: "own pool (shared one busy)"}
	for range cfg.repeat {
		ownPool.timings = append(ownPool.timings, lookupVia(own))
	}

	queued := placement{name: fmt.Sprintf("behind %d jobs", cfg.fillers), timings: []timing{<-behind}}
	cancel()
	shared.close()
	own.close()
	res.placements = []placement{idle, queued, ownPool}
	res.elapsed = time.Since(start)
	return res
}

// median of the placement's totals, or the only one.
func (p placement) median() timing {
	t := slices.Clone(p.timings)
	slices.SortFunc(t, func(a, b timing) int { return int(a.total() - b.total()) })
	return t[(len(t)-1)/2]
}

// firstErr is the first lookup error, if any, so that a broken resolver
// does not pass for a fast one.
func (p placement) firstErr() error {
	for _, t := range p.timings {
		if t.err != nil {
			return t.err
		}
	}
	return nil
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
	fmt.Fprintf(f, "LookupHost(%q) through a %d-slot pool; %d jobs of %v queued ahead (expected wait %v); GOMAXPROCS %d\n\n",
		host, cfg.slots, cfg.fillers, cfg.job, cfg.expectedWait(), runtime.GOMAXPROCS(0))
	w := tabwriter.NewWriter(f, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "placement\tlookups\tsubmit→done (median)\tqueued\tlookup itself\terror\t")
	row := func(name string, n int, t timing, err error) {
		e := "-"
		if err != nil {
			e = err.Error()
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\t%s\t\n", name, n, ms(t.total()), ms(t.queued), ms(t.lookup), e)
	}
	row("first lookup (reads hosts file)", 1, res.cold, res.cold.err)
	for _, p := range res.placements {
		row(p.name, len(p.timings), p.median(), p.firstErr())
	}
	w.Flush()
	fmt.Fprintf(f, "\ntotal run time %v\n", res.elapsed.Round(time.Millisecond))
}
