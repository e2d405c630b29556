// Package data exercises workers that decide what to do from the values they
// receive: a switch on a field of the job, or on its type.
package data

import (
	"context"
	"net"
	"os"
	"sync"
	"time"
)

type kind int

const (
	kindLookup kind = iota
	kindWrite
	kindNoop
)

type job struct {
	kind kind
	host string
	path string
	data []byte
}

// byField switches on the job's kind; every send names the kind, so the
// fix can route the write jobs to workers of their own.
func byField(hosts []string, path string, data []byte) {
	var wg sync.WaitGroup
	jobs := make(chan job, 32)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				switch j.kind {
				case kindLookup:
					_, _ = net.LookupHost(j.host)
				case kindWrite: // want `worker pool jobs runs slow work \(case kindWrite: os.WriteFile\) beside work that resolves hostnames \(case kindLookup: net.LookupHost\), so lookups wait behind it; give the slow work a pool of its own`
					_ = os.WriteFile(j.path, j.data, 0o644)
				case kindNoop:
				}
			}
		}()
	}
	for _, h := range hosts {
		jobs <- job{kind: kindLookup, host: h}
	}
	jobs <- job{kind: kindWrite, path: path, data: data}
	jobs <- job{kind: kindNoop}
	close(jobs)
	wg.Wait()
}

type lookupJob struct{ host string }

type flushJob struct{ path string }

type pauseJob struct{ d time.Duration }

// byType switches on the job's type in a select loop.
func byType(ctx context.Context, hosts []string) {
	jobs := make(chan any, 8)
	go func() {
		for {
			select {
			case j := <-jobs:
				switch j := j.(type) {
				case lookupJob:
					_, _ = net.LookupIP(j.host)
				case *flushJob: // want `worker pool jobs runs slow work \(case \*flushJob: os.ReadFile\)`
					_, _ = os.ReadFile(j.path)
				case pauseJob: // want `worker pool jobs runs slow work \(case pauseJob: time.Sleep\)`
					time.Sleep(j.d)
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	for _, h := range hosts {
		jobs <- lookupJob{h}
	}
	jobs <- &flushJob{"state"}
	jobs <- pauseJob{time.Second}
}

// A handler keeps its workers in a method: the switch is in the function the
// job is handed to.
type handler struct {
	jobs chan job
}

func newHandler(n int) *handler {
	h := &handler{jobs: make(chan job, 64)}
	for range n {
		go h.run()
	}
	return h
}

func (h *handler) run() {
	for j := range h.jobs {
		h.handle(j)
	}
}

func (h *handler) handle(j job) {
	switch j.kind {
	case kindLookup:
		_, _ = net.LookupHost(j.host)
	default: // want `worker pool jobs runs slow work \(default: os.WriteFile\) beside work that resolves hostnames \(case kindLookup: net.LookupHost\), so lookups wait behind it; by hand, start a second set of workers on a channel of their own and send the slow work there`
		_ = os.WriteFile(j.path, j.data, 0o644)
	}
}

func (h *handler) Lookup(host string) { h.jobs <- job{kind: kindLookup, host: host} }

func (h *handler) Save(path string, data []byte) {
	h.jobs <- job{kind: kindWrite, path: path, data: data}
}

// Submit sends a job whose kind is not known here: no send can be routed by
// kind, so the finding has no fix.
func submitted(jobs chan job, submit func() job) {
	go func() {
		for j := range jobs {
			switch j.kind {
			case kindLookup:
				_, _ = net.LookupHost(j.host)
			case kindWrite: // want `worker pool jobs runs slow work \(case kindWrite: os.WriteFile\) beside work that resolves hostnames \(case kindLookup: net.LookupHost\), so lookups wait behind it; by hand, send jobs of this kind to a second channel with workers of their own`
				_ = os.WriteFile(j.path, j.data, 0o644)
			}
		}
	}()
	jobs <- submit()
}

// Negative cases.

// oneBranch dispatches on data, but only one kind of job does anything.
func oneBranch(hosts []string) {
	jobs := make(chan job, 8)
	go func() {
		for j := range jobs {
			switch j.kind {
			case kindLookup:
				_, _ = net.LookupHost(j.host)
			}
		}
	}()
	for _, h := range hosts {
		jobs <- job{kind: kindLookup, host: h}
	}
}

// allResolving has branches of one kind: a lookup and a dial.
func allResolving(hosts []string) {
	jobs := make(chan job, 8)
	go func() {
		for j := range jobs {
			switch j.kind {
			case kindLookup:
				_, _ = net.LookupHost(j.host)
			case kindWrite:
				if c, err := net.Dial("tcp", j.host); err == nil {
					_ = c.Close()
				}
			}
		}
	}()
	for _, h := range hosts {
		jobs <- job{kind: kindLookup, host: h}
	}
}

// resolvesFirst resolves for every job before it switches: each job is
// resolving work, whatever else its branch does.
func resolvesFirst(hosts []string) {
	jobs := make(chan job, 8)
	go func() {
		for j := range jobs {
			if _, err := net.LookupHost(j.host); err != nil {
				continue
			}
			switch j.kind {
			case kindWrite:
				_ = os.WriteFile(j.path, j.data, 0o644)
			case kindNoop:
			}
		}
	}()
	for _, h := range hosts {
		jobs <- job{kind: kindWrite, host: h}
	}
}

// notOnTheJob switches on a setting, not on the job received.
func notOnTheJob(hosts []string, mode kind) {
	jobs := make(chan job, 8)
	go func() {
		for j := range jobs {
			switch mode {
			case kindLookup:
				_, _ = net.LookupHost(j.host)
			case kindWrite:
				_ = os.WriteFile(j.path, j.data, 0o644)
			}
		}
	}()
	for _, h := range hosts {
		jobs <- job{host: h}
	}
}

// slowOnly has branches that are all slow: a disk worker.
func slowOnly(paths []string) {
	jobs := make(chan job, 8)
	go func() {
		for j := range jobs {
			switch j.kind {
			case kindWrite:
				_ = os.WriteFile(j.path, j.data, 0o644)
			default:
				time.Sleep(time.Millisecond)
			}
		}
	}()
	for _, p := range paths {
		jobs <- job{kind: kindWrite, path: p}
	}
}
