// Package app retries the helpers of package queue. Each finding is marked
// "want:retrysend" on its line, and "nofix" where no fix is safe.
package app

import (
	"time"

	"queuecheck.example/trysend/queue"
)

// A retry with a capped backoff around a try with a blocking sibling.
func publish(q *queue.Queue, v string) {
	delay := time.Millisecond
	for !q.TryPush(v) { // want:retrysend
		time.Sleep(delay)
		if delay < time.Second {
			delay *= 2
		}
	}
}

// The if spelling, waiting with the other package's pause helper.
func publishPaced(q *queue.Queue, v string) bool {
	for { // want:retrysend
		if q.TryPush(v) {
			return true
		}
		queue.Pause()
	}
}

// No blocking variant: reported without a fix.
func record(r *queue.Ring, n int) {
	for !r.TryPut(n) { // want:retrysend nofix
		queue.Pause()
	}
}

// A try that gives up is left alone.
func offer(r *queue.Ring, n int) bool { return r.TryPut(n) }
