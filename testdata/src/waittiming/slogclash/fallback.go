package slogclash

import "time"

var other = make(chan struct{}, 4)

var lastOther time.Duration

// HandleOther is the same shape in a file without the clash: it is reported,
// and its fix records the wait with log/slog.
func HandleOther() {
	start := time.Now()
	other <- struct{}{}
	work()
	<-other
	lastOther = time.Since(start) // want `spans the wait`
}
