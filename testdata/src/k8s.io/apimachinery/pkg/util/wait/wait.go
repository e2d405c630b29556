// Package wait is a stub of k8s.io/apimachinery/pkg/util/wait: the
// backoff a retry of client-go's util/retry takes.
package wait

import "time"

type Backoff struct {
	Duration time.Duration
	Factor   float64
	Jitter   float64
	Steps    int
	Cap      time.Duration
}

func ExponentialBackoff(backoff Backoff, condition func() (bool, error)) error {
	for backoff.Steps > 0 {
		if ok, err := condition(); err != nil || ok {
			return err
		}
		time.Sleep(backoff.Duration)
		backoff.Steps--
	}
	return nil
}
