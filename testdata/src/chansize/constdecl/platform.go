package constdecl

// spool sizes only this channel in this build, and an array in a file a
// build tag leaves out: its declaration keeps its value, and the make call
// caps it with min.
const spool = 300000

var spooled = make(chan job, spool) // want `channel buffer of 300000 items of 16 B \(up to 4.6 MiB\)`
