// Package nofix holds shared pools that no fix can give a sibling: each is
// reported without a fix, and the message says what to do by hand.
package nofix

import (
	"context"
	"net"
	"os"
	"time"

	"golang.org/x/sync/semaphore"
)

// A Fetcher's pool is set by whoever builds it: no code of this package
// creates it, so there is nowhere to create a sibling.
type Fetcher struct {
	Name string
	sem  *semaphore.Weighted
}

func (f *Fetcher) Lookup(ctx context.Context, host string) error { // want Lookup:"resolves: nofix.Fetcher.Lookup → net.LookupHost"
	if err := f.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer f.sem.Release(1)
	_, err := net.LookupHost(host)
	return err
}

func (f *Fetcher) Spool(ctx context.Context, data []byte) error { // want Spool:"slow: nofix.Fetcher.Spool → os.WriteFile"
	if err := f.sem.Acquire(ctx, 1); err != nil { // want `semaphore sem runs slow work \(os.WriteFile\) beside work that resolves hostnames \(net.LookupHost\), so lookups wait behind it; by hand, have the code that creates sem create a second pool with the same limit for the slow work, and move the slow work to it`
		return err
	}
	defer f.sem.Release(1)
	return os.WriteFile("spool", data, 0o644)
}

// A server hands the release to the goroutine that does the work: the task
// is process, whose release the fix could not move with the acquire.
type server struct {
	slots chan struct{}
}

func newServer() *server { return &server{slots: make(chan struct{}, 4)} }

func (s *server) resolve(host string) {
	s.slots <- struct{}{}
	go func() {
		defer func() { <-s.slots }()
		_, _ = net.LookupIP(host)
	}()
}

func (s *server) handle(item string) {
	s.slots <- struct{}{} // want `token channel slots of 4 runs slow work \(server.process → time.Sleep\) beside work that resolves hostnames \(net.LookupIP\), so lookups wait behind it; by hand, move this task, and its release done outside the task's own code, to a second pool with the same limit`
	go s.process(item)
}

func (s *server) process(item string) {
	defer func() { <-s.slots }()
	time.Sleep(time.Second)
	_ = item
}

// A worker releases through a method of its own: the task ends there.
type worker struct {
	sem *semaphore.Weighted
}

func newWorker() *worker { return &worker{sem: semaphore.NewWeighted(2)} }

func (w *worker) done() { w.sem.Release(1) }

func (w *worker) dial(ctx context.Context, addr string) {
	_ = w.sem.Acquire(ctx, 1)
	defer w.done()
	if c, err := net.Dial("tcp", addr); err == nil {
		_ = c.Close()
	}
}

func (w *worker) flush(ctx context.Context) {
	_ = w.sem.Acquire(ctx, 1) // want `semaphore sem of 2 runs slow work \(os.ReadFile\) beside work that resolves hostnames \(net.Dial\), so lookups wait behind it; by hand, move this task, and its release done outside the task's own code`
	_, _ = os.ReadFile("state")
	w.done()
	time.Sleep(time.Second) // after the release: not part of the task
}

// Negative: a gate released through a method. The sleep after the release
// is not part of any task, so the pool runs only lookups.
type gate struct {
	sem *semaphore.Weighted
}

func newGate() *gate { return &gate{sem: semaphore.NewWeighted(2)} }

func (g *gate) leave() { g.sem.Release(1) }

func (g *gate) lookup(ctx context.Context, host string) {
	_ = g.sem.Acquire(ctx, 1)
	defer g.leave()
	_, _ = net.LookupHost(host)
}

func (g *gate) pace(ctx context.Context) {
	_ = g.sem.Acquire(ctx, 1)
	g.leave()
	time.Sleep(time.Second)
}
