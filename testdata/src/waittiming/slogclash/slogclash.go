// Package slogclash times a whole call into a package variable, where only
// the log/slog fallback could record the wait; the file already imports
// another package as slog, so there is no compiling fix: the finding is
// reported without one, and says why.
package slogclash

import (
	"time"

	"golang.org/x/exp/slog"
)

var sem = make(chan struct{}, 4)

var last time.Duration

func work() { slog.Info("work") }

func Handle() {
	start := time.Now()
	sem <- struct{}{}
	work()
	<-sem
	last = time.Since(start) // want `the duration since start spans the wait in the send to semaphore channel sem`
}
