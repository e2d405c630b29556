package caller

import (
	"context"

	"golang.org/x/time/rate"

	"unboundedqueue/spawncall/helper"
)

// A consumer takes URLs from a channel that never closes.
type consumer struct {
	c    *helper.Client
	urls chan string
	lim  *rate.Limiter
}

// Each item received starts a goroutine through Refresh: one per item,
// with nothing bounding how many run.
func (k *consumer) run(ctx context.Context) {
	for {
		select {
		case u := <-k.urls:
			k.c.Refresh(u) // want `\(\*helper.Client\).Refresh starts a goroutine per call \(its go statement at helper.go:22 does blocking work, c.hc.Get, and it returns without waiting\), and it is called per item received from k.urls with nothing bounding how many run at once`
		case <-ctx.Done():
			return
		}
	}
}

// The same over a range, two calls deep.
func (k *consumer) audit() {
	for u := range k.urls {
		helper.Audit(k.c, u) // want `helper.Audit starts a goroutine per call \(its go statement through helper.Save, at helper.go:33`
	}
}

// The twin: a rate limiter is waited on before each call.
func (k *consumer) runLimited(ctx context.Context) {
	for u := range k.urls {
		if err := k.lim.Wait(ctx); err != nil {
			return
		}
		k.c.Refresh(u)
	}
}

// The twin: the loop waits for each item's result before the next.
func (k *consumer) runWaiting(done chan struct{}) {
	for u := range k.urls {
		k.c.Refresh(u)
		<-done
	}
}
