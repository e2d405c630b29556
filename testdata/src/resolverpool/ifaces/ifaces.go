// want package:"implementations: .*dumpJob as resolverpool/ifaces.Job .*fetchJob as resolverpool/ifaces.Job .*pager as resolverpool/ifaces.Notifier .*slack as resolverpool/ifaces.Notifier .*webhook as resolverpool/ifaces.Target .*diskTarget as resolverpool/ifaces.Target"

// Package ifaces exercises workers and tasks that call interface methods:
// what runs is an implementation, known from the concrete types the package
// converts to the interface.
package ifaces

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"

	"golang.org/x/sync/errgroup"
)

type Event struct{ Body []byte }

// Target receives events.
type Target interface {
	Send(ev Event) error
}

type webhook struct{ url string }

func (w *webhook) Send(ev Event) error { // want Send:"resolves: ifaces.webhook.Send → http.Post"
	resp, err := http.Post(w.url, "application/json", bytes.NewReader(ev.Body))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type diskTarget struct{ path string }

func (d diskTarget) Send(ev Event) error { return os.WriteFile(d.path, ev.Body, 0o644) } // want Send:"slow: ifaces.diskTarget.Send → os.WriteFile"

// NewWebhook and NewDisk convert their types to Target: the package knows
// both implementations.
func NewWebhook(url string) Target { return &webhook{url: url} }

func NewDisk(path string) Target { return diskTarget{path: path} }

// A Dispatcher hands every event to every target, on a fixed set of workers.
type Dispatcher struct {
	targets []Target
	events  chan Event
}

func NewDispatcher(targets []Target, n int) *Dispatcher {
	d := &Dispatcher{targets: targets, events: make(chan Event, 128)}
	for range n {
		go d.run()
	}
	return d
}

func (d *Dispatcher) run() {
	for ev := range d.events {
		for _, t := range d.targets {
			_ = t.Send(ev) // want `worker pool events runs slow work \(diskTarget.Send → os.WriteFile\) beside work that resolves hostnames \(webhook.Send → http.Post\), so lookups wait behind it; by hand, run the slow implementations on workers or a pool of their own`
		}
	}
}

func (d *Dispatcher) Publish(ev Event) { d.events <- ev }

// A Job is a task workers run through its method.
type Job interface{ Run() error }

type fetchJob struct{ url string }

func (j fetchJob) Run() error { // want Run:"resolves: ifaces.fetchJob.Run → http.Get"
	resp, err := http.Get(j.url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type dumpJob struct{ path string }

func (j *dumpJob) Run() error { _, err := os.ReadFile(j.path); return err } // want Run:"slow: ifaces.dumpJob.Run → os.ReadFile"

func Fetch(url string) Job { return fetchJob{url} }

func Dump(path string) Job { return &dumpJob{path} }

// Pool runs jobs whose type its Submit cannot see.
type Pool struct{ jobs chan Job }

func NewPool(n int) *Pool {
	p := &Pool{jobs: make(chan Job)}
	for range n {
		go func() {
			for j := range p.jobs {
				_ = j.Run()
			}
		}()
	}
	return p
}

func (p *Pool) Submit(j Job) {
	p.jobs <- j // want `worker pool jobs runs slow work \(dumpJob.Run → os.ReadFile\) beside work that resolves hostnames \(fetchJob.Run → http.Get\), so lookups wait behind it; by hand, run the slow implementations on workers or a pool of their own`
}

// fanOut sends an event to each target on a limited group: one submission,
// two kinds of implementation.
func fanOut(ctx context.Context, targets []Target, ev Event) error {
	g, _ := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for _, t := range targets {
		g.Go(func() error { return t.Send(ev) }) // want `errgroup g of 4 runs slow work \(diskTarget.Send → os.WriteFile\) beside work that resolves hostnames \(webhook.Send → http.Post\)`
	}
	return g.Wait()
}

// Negative cases.

// Store's implementations are not converted to it anywhere in the analyzed
// packages (only in a test file): what runs is unknown.
type Store interface{ Save(ev Event) error }

type fileStore struct{ path string }

func (f fileStore) Save(ev Event) error { return os.WriteFile(f.path, ev.Body, 0o644) } // want Save:"slow: ifaces.fileStore.Save → os.WriteFile"

func storeAll(stores []Store, events <-chan Event) {
	go func() {
		for ev := range events {
			for _, s := range stores {
				_ = s.Save(ev)
			}
		}
	}()
}

// Notifier's implementations all resolve.
type Notifier interface{ Notify(msg string) error }

type slack struct{ url string }

func (s slack) Notify(msg string) error { // want Notify:"resolves: ifaces.slack.Notify → http.Post"
	resp, err := http.Post(s.url, "text/plain", bytes.NewReader([]byte(msg)))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type pager struct{ url string }

func (p pager) Notify(msg string) error { // want Notify:"resolves: ifaces.pager.Notify → http.Get"
	resp, err := http.Get(p.url + "?msg=" + msg)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var notifiers = []Notifier{slack{"https://hooks.example.com"}, pager{"https://pager.example.com"}}

func notifyAll(msgs <-chan string) {
	go func() {
		for m := range msgs {
			for _, n := range notifiers {
				_ = n.Notify(m)
			}
		}
	}()
}

// Saver has a method named like Target's, implemented by a type converted
// only to Target: its own implementations are unknown.
type Saver interface{ Send(ev Event) error }

func saveAll(savers []Saver, events <-chan Event) {
	go func() {
		for ev := range events {
			for _, s := range savers {
				_ = s.Send(ev)
			}
		}
	}()
}

// Archive's only known implementation writes files: workers that call it do
// one kind of work.
type Archive interface{ Put(ev Event) error }

type dirArchive struct{ dir string }

func (d dirArchive) Put(ev Event) error { return os.WriteFile(d.dir+"/ev", ev.Body, 0o644) } // want Put:"slow: ifaces.dirArchive.Put → os.WriteFile"

var archive Archive = dirArchive{"/var/archive"}

func archiveAll(events <-chan Event) {
	go func() {
		for ev := range events {
			_ = archive.Put(ev) // why: pool-of-one-kind
		}
	}()
}

// resolvesFirst looks the target's host up before it sends: every task
// resolves on its own, whichever implementation runs after.
func resolvesFirst(ctx context.Context, targets []Target, host string, ev Event) error {
	g, _ := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for _, t := range targets {
		g.Go(func() error {
			if _, err := net.LookupHost(host); err != nil {
				return err
			}
			return t.Send(ev)
		})
	}
	return g.Wait()
}

// Journal's known implementation writes files in Flush only; workers that
// call its Append call a method no implementation makes slow or resolving.
type Journal interface {
	Append(ev Event)
	Flush() error
}

type fileJournal struct {
	path string
	buf  []byte
}

func (j *fileJournal) Append(ev Event) { j.buf = append(j.buf, ev.Body...) }

func (j *fileJournal) Flush() error { return os.WriteFile(j.path, j.buf, 0o644) } // want Flush:"slow: ifaces.fileJournal.Flush → os.WriteFile"

var journal Journal = &fileJournal{path: "/var/journal"}

func journalAll(events <-chan Event) {
	go func() {
		for ev := range events {
			journal.Append(ev)
		}
	}()
}
