// Package timex is a relative clock: its readings are the time since a
// fixed instant, as go-zero's core/timex keeps them.
package timex

import "time"

var initTime = time.Now().AddDate(-1, -1, -1)

// Now returns the time since the clock's instant.
func Now() time.Duration { return time.Since(initTime) }

// Since returns the time since the reading d.
func Since(d time.Duration) time.Duration { return time.Since(initTime) - d }
