// Package retry is a stub of k8s.io/client-go/util/retry: it runs fn again,
// after the backoff's pause, while retriable says its error is worth it.
package retry

import (
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

var DefaultBackoff = wait.Backoff{Steps: 4, Duration: 10 * time.Millisecond, Factor: 5.0, Jitter: 0.1}

var DefaultRetry = wait.Backoff{Steps: 5, Duration: 10 * time.Millisecond, Factor: 1.0, Jitter: 0.1}

func OnError(backoff wait.Backoff, retriable func(error) bool, fn func() error) error {
	var last error
	err := wait.ExponentialBackoff(backoff, func() (bool, error) {
		switch err := fn(); {
		case err == nil:
			return true, nil
		case retriable(err):
			last = err
			return false, nil
		default:
			return false, err
		}
	})
	if err != nil {
		return err
	}
	return last
}

func RetryOnConflict(backoff wait.Backoff, fn func() error) error {
	return OnError(backoff, func(error) bool { return true }, fn)
}
