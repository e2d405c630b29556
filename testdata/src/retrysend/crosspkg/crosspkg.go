// Package crosspkg retries the try-send helper of package admission/helpers:
// the admission facts say TryPush is a non-blocking send and Push its
// blocking sibling.
package crosspkg

import (
	"time"

	"admission/helpers"
)

func publish(q *helpers.Queue, v string) {
	for !q.TryPush(v) { // want `loop retries a non-blocking send on q.ch through \(\*helpers.Queue\).TryPush until it succeeds, sleeping 1ms between attempts`
		time.Sleep(time.Millisecond)
	}
}

type relay struct{ out *helpers.Queue }

func (r *relay) forward(v string) {
	for !r.out.TryPush(v) { // want `loop retries a non-blocking send on r.out.ch through \(\*helpers.Queue\).TryPush until it succeeds, spinning`
	}
}

// A try that gives up is not a retry loop.
func offer(q *helpers.Queue, v string) bool {
	return q.TryPush(v)
}

// A pause helper of another package is the wait between attempts.
func publishPaced(q *helpers.Queue, v string) {
	for !q.TryPush(v) { // want `loop retries a non-blocking send on q.ch through \(\*helpers.Queue\).TryPush until it succeeds, waiting between attempts`
		helpers.Backoff(1)
	}
}
