// Package retry calls a function until it succeeds, sleeping between
// attempts.
package retry

import "time"

// Do calls f up to attempts times, sleeping between failed attempts.
func Do(attempts int, f func() error) error {
	var err error
	for range attempts {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}
