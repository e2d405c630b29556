// Package queue is what plugin/e2e_test.go lints with the custom
// golangci-lint: chansize findings under the settings of ../.golangci.yml, and
// the ways to silence one. Each line the test looks for carries a marker
// comment naming it.
package queue

// Frame is a 1 KiB element.
type Frame struct {
	Data [1024]byte
}

// Frames is reported under any settings: 2048 frames of 1 KiB take 2 MiB.
var Frames = make(chan Frame, 2048) // want:frames

// IDs takes 1000 × 8 B = 8000 B: reported only when maxbytes is lowered below
// that, as .golangci.yml does.
var IDs = make(chan int64, 1000) // want:ids

// Replay is silenced for golangci-lint.
var Replay = make(chan Frame, 4096) //nolint:chansize // replay buffer, drained at startup (want:nolint)

// Backlog is silenced by queuecheck's own directive, which works everywhere.
//
//queuecheck:ignore chansize drained at startup before traffic arrives
var Backlog = make(chan Frame, 8192) // want:ignore

// Small is within every limit.
var Small = make(chan int64, 16) // want:small
