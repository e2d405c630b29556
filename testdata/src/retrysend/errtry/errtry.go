// Package errtry holds retries of try-send helpers that report the outcome
// as an error (nil: the item went in), and the spellings that hold the
// outcome in a variable first.
package errtry

import (
	"errors"
	"fmt"
	"log"
	"time"
)

var ErrFull = errors.New("queue full")

type Job struct{ ID int }

type Queue struct{ ch chan Job }

// TryEnqueue says ErrFull when the channel is full.
func (q *Queue) TryEnqueue(j Job) error {
	select {
	case q.ch <- j:
		return nil
	default:
		return ErrFull
	}
}

func (q *Queue) tryPut(j Job) bool {
	select {
	case q.ch <- j:
		return true
	default:
		return false
	}
}

func submitInit(q *Queue, j Job) {
	for { // want `loop retries a non-blocking send on q.ch through TryEnqueue until it succeeds, sleeping 10ms between attempts: it adds latency, ignores cancellation and lets work pile up upstream instead of pushing back; block on the send instead`
		if err := q.TryEnqueue(j); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func submitCond(q *Queue, j Job) {
	for q.TryEnqueue(j) != nil { // want `loop retries a non-blocking send on q.ch through TryEnqueue until it succeeds, sleeping 10ms between attempts`
		time.Sleep(10 * time.Millisecond)
	}
	log.Print("queued")
}

func submitHeld(q *Queue, j Job) error {
	for { // want `loop retries a non-blocking send on q.ch through TryEnqueue until it succeeds, sleeping 5ms between attempts`
		err := q.TryEnqueue(j)
		if err == nil {
			break
		}
		log.Printf("retrying: %v", err)
		time.Sleep(5 * time.Millisecond)
	}
	return nil
}

func submitOK(q *Queue, j Job) {
	for { // want `loop retries a non-blocking send on q.ch through tryPut until it succeeds, sleeping 1ms between attempts`
		if ok := q.tryPut(j); ok {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// Negative: one try, then the error goes to the caller.
func offer(q *Queue, j Job) error {
	if err := q.TryEnqueue(j); err != nil {
		return fmt.Errorf("offer %d: %w", j.ID, err)
	}
	return nil
}

// The success path names the held outcome, which the loop declares:
// reported without a fix.
func submitNamed(q *Queue, j Job) error {
	for { // want `loop retries a non-blocking send on q.ch through TryEnqueue until it succeeds, sleeping 1ms between attempts`
		if err := q.TryEnqueue(j); err == nil {
			return err
		}
		time.Sleep(time.Millisecond)
	}
}

// Validate says no for a reason of its own: not a try-send.
func (q *Queue) Validate(j Job) error {
	if j.ID < 0 {
		return errors.New("bad id")
	}
	select {
	case q.ch <- j:
		return nil
	default:
		return ErrFull
	}
}

func submitValidated(q *Queue, j Job) {
	for q.Validate(j) != nil {
		time.Sleep(time.Millisecond)
	}
}

// Negative: the loop tests the error the other way round (it leaves when
// the try fails): not a retry.
func drainUntilFull(q *Queue, j Job) {
	for {
		if err := q.TryEnqueue(j); err != nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
