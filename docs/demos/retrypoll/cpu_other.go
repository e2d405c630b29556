//go:build !unix

package main

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// cpuTime falls back to the runtime's own estimate where getrusage is not
// available. The /cpu/classes metrics are only brought up to date by a
// garbage collection, hence the forced cycle; idle time is excluded so
// that parked Ps do not count as work.
func cpuTime() time.Duration {
	runtime.GC()
	s := []metrics.Sample{
		{Name: "/cpu/classes/total:cpu-seconds"},
		{Name: "/cpu/classes/idle:cpu-seconds"},
	}
	metrics.Read(s)
	return time.Duration((s[0].Value.Float64() - s[1].Value.Float64()) * float64(time.Second))
}
