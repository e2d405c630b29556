// Package q declares buffer sizes in an aligned const block; Shared is
// exported and sizes a buffer in package u too.
package q

type Event struct{ payload [64]byte }

const (
	backlog = 50000000 // queue length
	Shared  = 200000   // exported, used in another package
	other   = 1        // unrelated
)

// backlog sizes only this channel: its declaration is edited, realigned.
var jobs = make(chan Event, backlog) // want `channel buffer of 50000000 items of 64 B`

// Shared is exported: the make call caps it with min, never the declaration.
var shared = make(chan Event, Shared) // want `channel buffer of 200000 items of 64 B`

var _ = other
