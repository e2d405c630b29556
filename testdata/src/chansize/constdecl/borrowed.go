package constdecl

import "chansize/crosspkg/q"

// fromShared takes its value from another package, and that is this file's
// only use of the import: editing the declaration would leave the import
// unused, so the make call caps it with min instead.
const fromShared = q.Shared / 2

var borrowed = make(chan job, fromShared) // want `channel buffer of 100000 items of 16 B \(up to 1.5 MiB\)`

// burst gives its value to repeat too, which sizes an array: editing the
// expression would change repeat as well, so the make call caps burst.
const (
	burst = 150000
	repeat
)

var bursts = make(chan job, burst) // want `channel buffer of 150000 items of 16 B \(up to 2.3 MiB\)`

var table [repeat / 1000]job
