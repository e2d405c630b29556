// Package timeutil has a backoff timer of the service's own.
package timeutil

import "time"

// BackoffTimer doubles its delay at each Wait.
type BackoffTimer struct{ current, max time.Duration }

func NewBackoffTimer(min, max time.Duration) *BackoffTimer {
	return &BackoffTimer{current: min, max: max}
}

// Wait sleeps for the current delay, or until stop is closed.
func (bt *BackoffTimer) Wait(stop <-chan struct{}) bool {
	t := time.NewTimer(bt.current)
	defer t.Stop()
	bt.current = min(bt.current*2, bt.max)
	select {
	case <-stop:
		return false
	case <-t.C:
		return true
	}
}
