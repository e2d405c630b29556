// Package chans exercises channel semaphores and worker pools.
package chans

import (
	"context"
	"database/sql"
	"net"
	"net/http"
	"os"
	"sync"
	"time"
)

func dial(addr string) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	return c.Close()
}

func store(db *sql.DB, v string) error {
	_, err := db.Exec("INSERT INTO t VALUES (?)", v)
	return err
}

// sendAcquire uses a buffered channel as a semaphore: send to acquire.
func sendAcquire(db *sql.DB, addrs, values []string) {
	sem := make(chan struct{}, 4)
	for _, a := range addrs {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			_ = dial(a)
		}()
	}
	for _, v := range values {
		sem <- struct{}{} // want `token channel sem of 4 runs slow work \(store → sql.DB.Exec\) beside work that resolves hostnames \(dial → net.Dial\)`
		_ = store(db, v)
		<-sem
	}
}

// recvAcquire takes tokens from a pre-filled channel.
func recvAcquire(ctx context.Context, addrs []string, paths []string) {
	tokens := make(chan int, 3)
	for i := 0; i < 3; i++ {
		tokens <- i
	}
	for _, a := range addrs {
		tok := <-tokens
		_ = dial(a)
		tokens <- tok
	}
	for _, p := range paths {
		select {
		case tok := <-tokens: // want `token channel tokens of 3 runs slow work \(os.ReadFile\)`
			_, _ = os.ReadFile(p)
			tokens <- tok
		case <-ctx.Done():
			return
		}
	}
}

// workers runs functions sent to a fixed set of workers.
func workers(addrs, paths []string, n int) {
	var wg sync.WaitGroup
	work := make(chan func(), 64)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				f()
			}
		}()
	}
	for _, a := range addrs {
		work <- func() { _ = dial(a) }
	}
	for _, p := range paths {
		work <- func() { _ = os.Remove(p); time.Sleep(time.Millisecond) } // want `worker pool work runs slow work \(time.Sleep\) beside work that resolves hostnames \(dial → net.Dial\)`
	}
	close(work)
	wg.Wait()
}

// A job runs in a worker.
type job interface{ run() }

type fetchJob struct{ url string }

func (j fetchJob) run() { _, _ = http.Get(j.url) }

type sleepJob struct{ d time.Duration }

func (j *sleepJob) run() { time.Sleep(j.d) }

// worker receives jobs until the channel closes.
func worker(jobs <-chan job) {
	for j := range jobs {
		j.run()
	}
}

// dispatched starts its workers with go worker(jobs): the jobs run through
// their run methods.
func dispatched(urls []string) {
	jobs := make(chan job)
	for range 4 {
		go worker(jobs)
	}
	for _, u := range urls {
		jobs <- fetchJob{u}
	}
	jobs <- &sleepJob{time.Second} // want `worker pool jobs runs slow work \(sleepJob.run → time.Sleep\) beside work that resolves hostnames \(fetchJob.run → http.Get\)`
	close(jobs)
}

type task struct {
	name string
	do   func() error
}

func ping() error { return dial("example.com:80") }

func flush() error { return os.WriteFile("state", nil, 0o644) }

// fields runs the func field of each task, in a select loop.
func fields(ctx context.Context) {
	tasks := make(chan task, 8)
	go func() {
		for {
			select {
			case t := <-tasks:
				_ = t.do()
			case <-ctx.Done():
				return
			}
		}
	}()
	tasks <- task{name: "ping", do: ping}
	tasks <- task{name: "flush", do: flush} // want `worker pool tasks runs slow work \(flush → os.WriteFile\)`
}

// Negative cases.

// queue sends results to a consumer: not a semaphore.
func queue(addrs []string) []error {
	results := make(chan error, len(addrs))
	for _, a := range addrs {
		go func() { results <- dial(a) }()
	}
	time.Sleep(time.Millisecond)
	var errs []error
	for range addrs {
		errs = append(errs, <-results)
	}
	return errs
}

// unbalanced adds to its WaitGroup outside the start loop: copying the loop
// would call Done more often than Add, so the finding has no fix and says
// what to do by hand.
func unbalanced(addrs, paths []string, n int) {
	var wg sync.WaitGroup
	work := make(chan func(), 64)
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer wg.Done()
			for f := range work {
				f()
			}
		}()
	}
	for _, a := range addrs {
		work <- func() { _ = dial(a) }
	}
	for range paths {
		work <- func() { time.Sleep(time.Second) } // want `worker pool work runs slow work \(time.Sleep\) beside work that resolves hostnames \(dial → net.Dial\), so lookups wait behind it; by hand, start a second set of workers on a channel of their own and send the slow work there`
	}
	close(work)
	wg.Wait()
}

// unbuffered hands over values; a lone send on it blocks.
func unbuffered(addrs []string) {
	ch := make(chan struct{})
	go func() {
		for range ch {
		}
	}()
	for _, a := range addrs {
		ch <- struct{}{}
		_ = dial(a)
		<-ch
	}
}

// A queue signals its consumer on a channel of one slot, and its pop signals
// again while items remain (nats-server's ipQueue). A receive from the
// signal channel acquires nothing, and the send in pop releases nothing: the
// consumer below is no pool.
type signalQueue struct {
	mu    sync.Mutex
	ch    chan struct{}
	items []string
}

func newSignalQueue() *signalQueue { return &signalQueue{ch: make(chan struct{}, 1)} }

func (q *signalQueue) push(s string) {
	q.mu.Lock()
	if len(q.items) < 128 {
		q.items = append(q.items, s)
	}
	q.mu.Unlock()
	select {
	case q.ch <- struct{}{}:
	default:
	}
}

func (q *signalQueue) pop() (string, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return "", false
	}
	s := q.items[0]
	q.items = q.items[1:]
	if len(q.items) > 0 {
		select {
		case q.ch <- struct{}{}:
		default:
		}
	}
	return s, true
}

func consume(ctx context.Context, peers, paths *signalQueue) {
	for {
		select {
		case <-peers.ch:
			if p, ok := peers.pop(); ok {
				_ = dial(p)
			}
		case <-paths.ch:
			if p, ok := paths.pop(); ok {
				_ = os.WriteFile(p, nil, 0o644)
			}
		case <-ctx.Done():
			return
		}
	}
}
