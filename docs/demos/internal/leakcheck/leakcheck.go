// Package leakcheck fails a demo's tests when the demo leaves goroutines
// behind: a demo that leaks cannot be trusted to measure what it claims.
package leakcheck

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"
)

// Main runs the tests of m, then fails the package if the goroutine count does
// not settle back to what it was within two seconds. Call it from TestMain:
//
//	func TestMain(m *testing.M) { leakcheck.Main(m) }
func Main(m *testing.M) {
	before := runtime.NumGoroutine()
	code := m.Run()
	if code == 0 && !settle(before, 2*time.Second) {
		buf := make([]byte, 1<<20)
		fmt.Fprintf(os.Stderr, "goroutines left behind by run:\n%s\n", buf[:runtime.Stack(buf, true)])
		code = 1
	}
	os.Exit(code)
}

// settle waits for the goroutine count to drop back to n; an exiting
// goroutine is still counted for a moment after it signalled.
func settle(n int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
