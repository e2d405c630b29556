package startparam

import (
	"io"
	"log"
	"strings"
	"sync/atomic"
	"time"
)

var rendered atomic.Int64

// render does the request's work before it records the time since the
// start it is handed: a handler, not a recorder.
func render(start time.Time, w io.Writer, n int) error {
	_, err := io.WriteString(w, strings.Repeat("x", n))
	rendered.Add(1)
	log.Printf("render took %v", time.Since(start))
	return err
}

// timed runs what it is handed and then records.
func timed(start time.Time, f func()) {
	f()
	log.Printf("took %v", time.Since(start))
}

// note only records: the time since start first, then a count.
func note(start time.Time) { // want note:"bookkeeping"
	log.Printf("waited %v", time.Since(start))
	rendered.Add(1)
}

func Render(w io.Writer, n int) error {
	startTime := time.Now()
	concurrency <- struct{}{}
	defer func() { <-concurrency }()
	return render(startTime, w, n) // want `the duration since startTime spans the wait in the send to semaphore channel concurrency`
}

func Timed(f func()) {
	startTime := time.Now()
	concurrency <- struct{}{}
	defer func() { <-concurrency }()
	timed(startTime, f) // want `the duration since startTime spans the wait in the send to semaphore channel concurrency`
}

// Noted times the wait alone.
func Noted() {
	startTime := time.Now()
	concurrency <- struct{}{}
	note(startTime)
	<-concurrency
}
