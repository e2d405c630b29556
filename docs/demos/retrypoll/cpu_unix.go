//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the user+system CPU time consumed so far by the whole process,
// as the kernel accounts it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
