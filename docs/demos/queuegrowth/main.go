// Command queuegrowth measures what happens to a queue when the producer
// outpaces the consumer: with no bound the backlog, its memory and the wait
// of every item grow for as long as the overload lasts; with a bound sized
// from an acceptable wait the backlog stays put and the producer is slowed to
// the consumer's pace instead.
//
// Six queue shapes are fed by identical producers and drained by identical
// consumers, all at the same time:
//
//	goroutine/send   go func() { ch <- v }() on a small channel
//	slice FIFO       a mutex-guarded slice that is appended to
//	pump             an "infinite channel": a goroutine moves items from an
//	                 unbuffered in to an unbuffered out through a slice
//	1M-slot chan     make(chan *item, 1_000_000), "big enough to never block"
//	bounded chan     make(chan *item, acceptable wait × consumer rate)
//	paused pump      the pump that stops receiving while its slice holds
//	                 acceptable wait × consumer rate (unboundedqueue's fix)
//
// Running the variants one after another would take six times as long, so
// they run side by side, each with its own producer and consumer goroutine.
// They then share one heap: the memory reported per variant is its queued
// items × item size, and the heap (after a forced GC), goroutine count and
// stack memory are reported for the whole process.
//
// Usage:
//
//	go run ./docs/demos/queuegrowth [-short]
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"
)

type config struct {
	produceRate    float64       // items/s each producer tries to send
	consumeRate    float64       // items/s each consumer can process
	itemSize       int           // payload bytes per item
	duration       time.Duration // how long the producers run
	intervals      int           // the run is reported in this many equal intervals
	acceptableWait time.Duration // sizes the bounded channel
	hugeCap        int           // capacity of the "never blocks" channel
	spawnCap       int           // capacity of the channel behind goroutine/send
}

// defaultConfig reproduces the asyncio measurement: 1,000 items/s of 10 KiB
// into a consumer that manages about 460/s, for 5 s.
func defaultConfig() config {
	return config{
		produceRate:    1000,
		consumeRate:    460,
		itemSize:       10 << 10,
		duration:       5 * time.Second,
		intervals:      5,
		acceptableWait: 250 * time.Millisecond,
		hugeCap:        1_000_000,
		spawnCap:       1,
	}
}

// shortConfig keeps the rates (so the numbers per second still mean the same)
// but runs for 0.6 s and sizes the bound from a 50 ms acceptable wait, so the
// bounded channel fills within the first interval and the later intervals
// show the steady state.
func shortConfig() config {
	c := defaultConfig()
	c.duration = 600 * time.Millisecond
	c.intervals = 5
	c.acceptableWait = 50 * time.Millisecond
	return c
}

// bound is the capacity that keeps a full queue's wait at acceptableWait:
// the last item in a queue of n waits n/consumeRate.
func (c config) bound() int {
	return int(math.Round(c.acceptableWait.Seconds() * c.consumeRate))
}

type item struct {
	offered time.Time // when the producer offered it, before any blocking send
	payload []byte
}

// queue is the part that differs between the variants.
type queue interface {
	// put hands it over; false means ctx ended before it could.
	put(ctx context.Context, it *item) bool
	// get blocks for the next item; false means ctx ended first.
	get(ctx context.Context) (*item, bool)
	// release runs once producer and consumer have returned and lets go
	// of anything the queue still holds, goroutines included.
	release()
}

// spawnQueue is the goroutine-per-send hazard: put never blocks because
// every item gets its own goroutine parked on the channel. The backlog is
// still there, it is just spread over goroutines, each with its own stack.
type spawnQueue struct {
	ch      chan *item
	senders sync.WaitGroup
}

func (q *spawnQueue) put(_ context.Context, it *item) bool {
	q.senders.Go(func() { q.ch <- it })
	return true
}

func (q *spawnQueue) get(ctx context.Context) (*item, bool) {
	select {
	case it := <-q.ch:
		return it, true
	case <-ctx.Done():
		return nil, false
	}
}

// release receives until every parked sender has delivered; the hazard's
// goroutines cannot be cancelled, only drained.
func (q *spawnQueue) release() {
	done := make(chan struct{})
	go func() {
		q.senders.Wait()
		close(done)
	}()
	for {
		select {
		case <-q.ch:
		case <-done:
			return
		}
	}
}

// sliceQueue is the hand-rolled unbounded FIFO.
type sliceQueue struct {
	mu    sync.Mutex
	items []*item
	ready chan struct{} // capacity 1: "items may be non-empty"
}

func (q *sliceQueue) put(_ context.Context, it *item) bool {
	q.mu.Lock()
	//queuecheck:ignore unboundedqueue this demo measures an unbounded slice FIFO on purpose
	q.items = append(q.items, it)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default: // a wake-up is already pending
	}
	return true
}

func (q *sliceQueue) get(ctx context.Context) (*item, bool) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			it := q.items[0]
			q.items[0] = nil // let the payload go once consumed
			q.items = q.items[1:]
			q.mu.Unlock()
			return it, true
		}
		q.mu.Unlock()
		select {
		case <-q.ready:
		case <-ctx.Done():
			return nil, false
		}
	}
}

func (q *sliceQueue) release() {}

// pumpQueue is the "infinite channel": in and out are unbuffered, and a
// goroutine moves items from one to the other through a slice. The pump
// always takes the next item, so the producer never waits and the backlog
// lives in the slice. With a limit, the pump stops receiving while the slice
// holds that many (the receive case reads a nil channel), and the producer
// waits on in: the fix unboundedqueue suggests.
type pumpQueue struct {
	in, out chan *item
	stop    chan struct{}
	done    chan struct{}
}

func newPump(limit int) *pumpQueue {
	q := &pumpQueue{in: make(chan *item), out: make(chan *item), stop: make(chan struct{}), done: make(chan struct{})}
	if limit > 0 {
		go q.pausedPump(limit)
	} else {
		go q.pump()
	}
	return q
}

func (q *pumpQueue) pump() {
	defer close(q.done)
	var buf []*item
	for {
		var out chan *item
		var head *item
		if len(buf) > 0 {
			out, head = q.out, buf[0]
		}
		select {
		case it := <-q.in:
			//queuecheck:ignore unboundedqueue this demo measures an unbounded pump on purpose
			buf = append(buf, it)
		case out <- head:
			buf[0] = nil // let the payload go once handed on
			buf = buf[1:]
		case <-q.stop:
			return
		}
	}
}

func (q *pumpQueue) pausedPump(limit int) {
	defer close(q.done)
	var buf []*item
	for {
		in := q.in
		if len(buf) >= limit {
			in = nil
		}
		var out chan *item
		var head *item
		if len(buf) > 0 {
			out, head = q.out, buf[0]
		}
		select {
		case it := <-in:
			buf = append(buf, it)
		case out <- head:
			buf[0] = nil
			buf = buf[1:]
		case <-q.stop:
			return
		}
	}
}

func (q *pumpQueue) put(ctx context.Context, it *item) bool {
	select {
	case q.in <- it:
		return true
	case <-ctx.Done():
		return false
	}
}

func (q *pumpQueue) get(ctx context.Context) (*item, bool) {
	select {
	case it := <-q.out:
		return it, true
	case <-ctx.Done():
		return nil, false
	}
}

func (q *pumpQueue) release() {
	close(q.stop)
	<-q.done
}

// chanQueue is a buffered channel; its capacity is the whole difference
// between the 1M-slot and the bounded variant. Both sides also watch ctx so
// that a full channel cannot strand the producer at shutdown.
type chanQueue struct{ ch chan *item }

func (q *chanQueue) put(ctx context.Context, it *item) bool {
	select {
	case q.ch <- it:
		return true
	case <-ctx.Done():
		return false
	}
}

func (q *chanQueue) get(ctx context.Context) (*item, bool) {
	select {
	case it := <-q.ch:
		return it, true
	case <-ctx.Done():
		return nil, false
	}
}

func (q *chanQueue) release() {}

// counters are written by one producer and one consumer and read by the
// sampler.
type counters struct {
	produced atomic.Int64
	consumed atomic.Int64
	lastWait atomic.Int64 // nanoseconds, of the most recently dequeued item
}

// interval is one reporting period of one variant.
type interval struct {
	end      time.Duration // since start
	queued   int64         // produced − consumed at the end of the interval
	lastWait time.Duration
	produced int64 // during the interval
	consumed int64 // during the interval
}

type variantResult struct {
	name      string
	capacity  int // 0: unbounded
	intervals []interval
}

// heapSample is process-wide: the variants share one heap.
type heapSample struct {
	end        time.Duration
	heapBytes  uint64 // live heap objects, after a forced GC
	stackBytes uint64
	goroutines uint64
}

type result struct {
	cfg      config
	variants []variantResult
	heap     []heapSample
	elapsed  time.Duration
}

func main() {
	short := flag.Bool("short", false, "run for 0.6 s, with the bound sized from a 50 ms acceptable wait")
	flag.Parse()
	cfg := defaultConfig()
	if *short {
		cfg = shortConfig()
	}
	report(os.Stdout, run(cfg))
}

func run(cfg config) result {
	type variant struct {
		name     string
		capacity int
		q        queue
	}
	variants := []variant{
		{"goroutine/send", 0, &spawnQueue{ch: make(chan *item, cfg.spawnCap)}},
		{"slice FIFO", 0, &sliceQueue{ready: make(chan struct{}, 1)}},
		{"pump", 0, newPump(0)},
		// Of pointers, so the buffer is 8 MB rather than 10 GiB of items.
		{fmt.Sprintf("%d-slot chan", cfg.hugeCap), 0, &chanQueue{make(chan *item, cfg.hugeCap)}},
		{fmt.Sprintf("bounded chan (%d)", cfg.bound()), cfg.bound(), &chanQueue{make(chan *item, cfg.bound())}},
		{fmt.Sprintf("paused pump (%d)", cfg.bound()), cfg.bound(), newPump(cfg.bound())},
	}

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	stats := make([]*counters, len(variants))
	start := time.Now()
	for i, v := range variants {
		st := new(counters)
		stats[i] = st
		wg.Go(func() { produce(ctx, v.q, cfg, st, start) })
		wg.Go(func() { consume(ctx, v.q, cfg, st) })
	}

	res := result{cfg: cfg, variants: make([]variantResult, len(variants))}
	for i, v := range variants {
		res.variants[i] = variantResult{name: v.name, capacity: v.capacity}
	}
	prev := make([]interval, len(variants))
	step := cfg.duration / time.Duration(cfg.intervals)
	for k := 1; k <= cfg.intervals; k++ {
		time.Sleep(time.Until(start.Add(time.Duration(k) * step)))
		end := time.Since(start)
		for i, st := range stats {
			// Not one atomic snapshot: the difference can be off
			// by the item being handed over at that moment.
			consumed := st.consumed.Load()
			produced := st.produced.Load()
			iv := interval{
				end:      end,
				queued:   produced - consumed,
				lastWait: time.Duration(st.lastWait.Load()),
				produced: produced - prev[i].produced,
				consumed: consumed - prev[i].consumed,
			}
			res.variants[i].intervals = append(res.variants[i].intervals, iv)
			prev[i].produced, prev[i].consumed = produced, consumed
		}
		res.heap = append(res.heap, readHeap(end))
	}
	cancel()
	wg.Wait()
	for _, v := range variants {
		v.q.release()
	}
	res.elapsed = time.Since(start)
	return res
}

// produce offers an item every 1/produceRate on a fixed schedule. After a
// stall (a blocking send, a GC) it sends without sleeping until it is back
// on schedule, so a producer that achieves less than produceRate was held
// back by the queue, not by timer jitter.
func produce(ctx context.Context, q queue, cfg config, st *counters, start time.Time) {
	every := time.Duration(float64(time.Second) / cfg.produceRate)
	next := start
	for {
		next = next.Add(every)
		time.Sleep(time.Until(next))
		if ctx.Err() != nil {
			return
		}
		it := &item{offered: time.Now(), payload: make([]byte, cfg.itemSize)}
		if !q.put(ctx, it) {
			return
		}
		st.produced.Add(1)
	}
}

// consume takes 1/consumeRate per item, again on an absolute schedule so
// that sleep overshoot does not lower the rate; a gap longer than one item
// (an empty queue) is not banked as credit.
func consume(ctx context.Context, q queue, cfg config, st *counters) {
	every := time.Duration(float64(time.Second) / cfg.consumeRate)
	var due time.Time
	for {
		// Stop when told even if a backlog is left: draining it at
		// consumeRate would take as long as it took to build.
		if ctx.Err() != nil {
			return
		}
		it, ok := q.get(ctx)
		if !ok {
			return
		}
		now := time.Now()
		st.lastWait.Store(int64(now.Sub(it.offered)))
		st.consumed.Add(1)
		if now.Sub(due) > every {
			due = now
		}
		due = due.Add(every)
		time.Sleep(time.Until(due))
	}
}

var heapMetrics = []string{
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/stacks:bytes",
	"/sched/goroutines:goroutines",
}

// readHeap forces a collection first so the figure is live data rather
// than live data plus whatever garbage the last cycle has not yet swept.
// A cycle costs a few milliseconds here; the paced loops catch up.
func readHeap(end time.Duration) heapSample {
	runtime.GC()
	s := make([]metrics.Sample, len(heapMetrics))
	for i, name := range heapMetrics {
		s[i].Name = name
	}
	metrics.Read(s)
	return heapSample{
		end:        end,
		heapBytes:  s[0].Value.Uint64(),
		stackBytes: s[1].Value.Uint64(),
		goroutines: s[2].Value.Uint64(),
	}
}

func mib(b float64) float64 { return b / (1 << 20) }

// rate is events per second over the interval ending at iv.end.
func rate(n int64, d time.Duration) float64 { return float64(n) / d.Seconds() }

func report(f *os.File, res result) {
	cfg := res.cfg
	fmt.Fprintf(f, "producer %.0f items/s × %d KiB, consumer %.0f items/s, %v, %d variants at once (GOMAXPROCS %d)\n",
		cfg.produceRate, cfg.itemSize>>10, cfg.consumeRate, cfg.duration, len(res.variants), runtime.GOMAXPROCS(0))
	fmt.Fprintf(f, "bound = %v acceptable wait × %.0f items/s = %d\n\n", cfg.acceptableWait, cfg.consumeRate, cfg.bound())

	w := tabwriter.NewWriter(f, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "variant\tt\tqueued\tqueued MiB\tlast wait\tproduced/s\tconsumed/s\t")
	step := cfg.duration / time.Duration(cfg.intervals)
	for _, v := range res.variants {
		for _, iv := range v.intervals {
			fmt.Fprintf(w, "%s\t%.1fs\t%d\t%.1f\t%v\t%.0f\t%.0f\t\n", v.name, iv.end.Seconds(), iv.queued,
				mib(float64(iv.queued)*float64(cfg.itemSize)), iv.lastWait.Round(time.Millisecond),
				rate(iv.produced, step), rate(iv.consumed, step))
		}
	}
	w.Flush()

	fmt.Fprintln(f, "\nwhole process (shared by the variants; measured after runtime.GC):")
	w = tabwriter.NewWriter(f, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "t\theap objects MiB\tgoroutine stacks MiB\tgoroutines\t")
	for _, h := range res.heap {
		fmt.Fprintf(w, "%.1fs\t%.1f\t%.1f\t%d\t\n", h.end.Seconds(), mib(float64(h.heapBytes)), mib(float64(h.stackBytes)), h.goroutines)
	}
	w.Flush()

	fmt.Fprintln(f, "\nproducer's achieved rate over the whole run:")
	w = tabwriter.NewWriter(f, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "variant\tproduced/s\tconsumed/s\t")
	for _, v := range res.variants {
		var p, c int64
		for _, iv := range v.intervals {
			p += iv.produced
			c += iv.consumed
		}
		fmt.Fprintf(w, "%s\t%.0f\t%.0f\t\n", v.name, rate(p, cfg.duration), rate(c, cfg.duration))
	}
	w.Flush()
	fmt.Fprintf(f, "\ntotal run time %v\n", res.elapsed.Round(time.Millisecond))
}
