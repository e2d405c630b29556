// Package spawn holds the goroutine-spawn kinds of the unboundedqueue
// check: goroutinepersend (a goroutine that only hands a value to a
// channel), goroutineperitem (a goroutine per item of a stream, nothing
// bounding how many run) and fanout (a goroutine per element of a listing,
// where the package bounds the same fan-out elsewhere).
//
// It is a package, not an analyzer of its own: the unboundedqueue analyzer's
// run calls [Check], and the findings keep the analyzer's name and the
// categories unboundedqueue/goroutinepersend, unboundedqueue/goroutineperitem
// and unboundedqueue/fanout, its flags (-unboundedqueue.inflight,
// -unboundedqueue.acquire), messages and fixes. Users' //queuecheck:ignore
// directives, baselines (whose fingerprints hash the category), golangci-lint
// settings and the documentation's URLs all name the check as they did; a
// new analyzer name would have broken each of them for no gain to the user.
//
// What the two halves of the check share (the pass, reporter, admission
// result and finder, names allocator, declarations and call-site index) is
// handed in as a [shared.Pkg]. Whether a spawn is bounded is one decision,
// bounded, which walks each kind's rules in a fixed order and returns the
// [Rule] that silenced it; [Rules] lists them all with a one-line doc.
package spawn
