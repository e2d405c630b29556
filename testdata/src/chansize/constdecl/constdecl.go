package constdecl

type job struct{ id, size int64 }

// bufferSize sizes the job channels and nothing else, so the fix edits it here.
const bufferSize = 200000

var jobs = make(chan job, bufferSize) // want `channel buffer of 200000 items of 16 B \(up to 3.1 MiB\)`

var retries = make(chan job, bufferSize) // want `channel buffer of 200000 items of 16 B \(up to 3.1 MiB\)`

const (
	first = iota * 100000
	second
)

// second gets its value from iota repetition: the fix caps it at the call site
// with min, so the constant still says where the number came from.
var viaIota = make(chan job, second) // want `channel buffer of 100000 items of 16 B`
