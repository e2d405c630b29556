// Package printf records whole-call timings with printf formats that cannot
// take one more verb: the wait goes to the log/slog fallback instead of an
// argument the format would print as %!(EXTRA ...).
package printf

import (
	"fmt"
	"time"
)

var sem = make(chan struct{}, 4)

func work() {}

func Indexed() {
	start := time.Now()
	sem <- struct{}{}
	work()
	<-sem
	fmt.Printf("took %[1]v (%[1]T) %d%%\n", time.Since(start), 5) // want `spans the wait`
}

func NonConstant(format string) {
	start := time.Now()
	sem <- struct{}{}
	work()
	<-sem
	fmt.Printf(format, time.Since(start)) // want `spans the wait`
}
