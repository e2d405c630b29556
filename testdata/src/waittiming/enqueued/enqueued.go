// Package enqueued times jobs from a field stamped when they were queued:
// the consumer that takes a job from the channel works on it and records
// the time since the stamp, which includes the time the job waited behind
// the earlier ones.
package enqueued

import (
	"log"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

var (
	processSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "job_process_seconds"})
	queueSeconds   = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "job_queue_seconds"})
	ageSeconds     = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "job_age_seconds"})
)

type job struct {
	path     string
	enqueued time.Time
}

type worker struct {
	jobs chan *job
	reqs chan request
}

// Submit stamps the job and queues it.
func (w *worker) Submit(path string) {
	j := &job{path: path}
	j.enqueued = time.Now()
	w.jobs <- j
}

// run takes each job, writes it, and records the time since the stamp:
// the queue wait and the write in one figure.
func (w *worker) run() {
	for j := range w.jobs {
		if err := os.WriteFile(j.path, nil, 0o644); err != nil {
			log.Print(err)
		}
		processSeconds.Observe(time.Since(j.enqueued).Seconds()) // want `the duration since j.enqueued spans the queue of w.jobs, where the item waited behind earlier ones after it was stamped, and the work done on it after it was taken, so time queued is reported as slow work; by hand: take a timestamp when the item is taken and record the queue wait and the work separately`
	}
}

type request struct {
	path  string
	start time.Time
}

// Send queues a request stamped in its literal.
func (w *worker) Send(path string) {
	w.reqs <- request{path: path, start: time.Now()}
}

// serve takes requests in a select and logs the time since the stamp.
func (w *worker) serve(stop chan struct{}) {
	for {
		select {
		case r := <-w.reqs:
			os.Remove(r.path)
			log.Printf("removed %s in %v", r.path, time.Since(r.start)) // want `the duration since r.start spans the queue of w.reqs`
		case <-stop:
			return
		}
	}
}

// The twin: the consumer records the queue wait when it takes the job,
// then the work from a timestamp of its own.
func (w *worker) runSplit() {
	for j := range w.jobs {
		queueSeconds.Observe(time.Since(j.enqueued).Seconds())
		taken := time.Now()
		os.WriteFile(j.path, nil, 0o644)
		processSeconds.Observe(time.Since(taken).Seconds())
	}
}

// The twin: a timestamp when the job is taken, though the figure still
// runs from the stamp: the wait can be split there. // why: split-timestamp
func (w *worker) runTaken() {
	for j := range w.jobs {
		taken := time.Now()
		os.WriteFile(j.path, nil, 0o644)
		log.Printf("took %v (taken at %v)", time.Since(j.enqueued), taken) // why: split-timestamp
	}
}

// The twin: a figure that says it is the job's age, queueing included.
func (w *worker) runAge() {
	for j := range w.jobs {
		os.WriteFile(j.path, nil, 0o644)
		ageSeconds.Observe(time.Since(j.enqueued).Seconds()) // why: records-queueing
	}
}

// The twin: the time since a field no function of the package stamps
// before a send. // why: start-elsewhere
type entry struct{ created time.Time }

func (w *worker) expire(e *entry) {
	os.Remove("x")
	log.Printf("entry lived %v", time.Since(e.created)) // why: start-in-field
}

// The consumer hands each job it takes to the function that works on it
// and records the time since the stamp: the same figure, one call away.
func (w *worker) runHanded() {
	for j := range w.jobs {
		w.handle(j)
	}
}

func (w *worker) handle(j *job) {
	os.WriteFile(j.path, nil, 0o644)
	processSeconds.Observe(time.Since(j.enqueued).Seconds()) // want `the duration since j.enqueued spans the queue of w.jobs`
}

// The twin: the consumer reads the clock when it takes the job, before it
// hands it on: the wait can be split there.
func (w *worker) runHandedTaken() {
	for j := range w.jobs {
		taken := time.Now()
		w.handleTaken(j, taken)
	}
}

func (w *worker) handleTaken(j *job, taken time.Time) {
	os.WriteFile(j.path, nil, 0o644)
	log.Printf("wrote %s in %v, %v since queued", j.path, time.Since(taken), time.Since(j.enqueued)) // why: split-timestamp start-elsewhere
}

// The twin: a function handed jobs from two places is not followed.
func (w *worker) runTwice() {
	for j := range w.jobs {
		w.handleShared(j)
	}
}

func (w *worker) Retry(j *job) { w.handleShared(j) }

func (w *worker) handleShared(j *job) {
	os.WriteFile(j.path, nil, 0o644)
	processSeconds.Observe(time.Since(j.enqueued).Seconds()) // why: start-in-field
}
