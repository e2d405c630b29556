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

// Newlines end the format: the wait goes before all of them, and an
// escaped backslash before an n is no newline.
func BlankLine() {
	start := time.Now()
	sem <- struct{}{}
	work()
	<-sem
	fmt.Printf("took %v\n\n", time.Since(start)) // want `spans the wait`
}

func Backslash() {
	start := time.Now()
	sem <- struct{}{}
	work()
	<-sem
	fmt.Printf("took %v in C:\\n", time.Since(start)) // want `spans the wait`
}
