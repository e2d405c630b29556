// Package slogclash times a whole call into a package variable, where only
// the log/slog fallback could record the wait; the file already imports
// another package as slog, so there is no compiling fix and the check stays
// silent rather than report without one.
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
	last = time.Since(start)
}
