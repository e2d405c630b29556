// Package retrylib is a library of another module: its Fetch retries with a
// sleep between attempts. Standalone, queuecheck follows it only with
// -deps; go vet always does.
package retrylib

import "time"

// Fetch retries the call with a sleep between attempts.
func Fetch(call func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// FetchOnce makes one attempt.
func FetchOnce(call func() error) error { return call() }
