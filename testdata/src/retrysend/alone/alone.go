// Package alone holds directives that name no check, for a run in which
// retrysend is the only check: it reports them all, whichever check they
// misspell.
package alone

//queuecheck:ignore chansiz a misspelling of a check that does not run // want `//queuecheck:ignore names unknown check chansiz; did you mean chansize\?`
var misspelled = make(chan int, 100000)

//queuecheck:ignore everything no check is called that // want `//queuecheck:ignore names unknown check everything; known checks are chansize, unboundedqueue, retrysend, resolverpool, waittiming`
var unknown = 1

// want +1 `//queuecheck:ignore names no check; write //queuecheck:ignore CHECK reason`
//queuecheck:ignore
var bare = 2

//queuecheck:ignore chansize a check that does not run answers for its own directives
var other = 3
