package a

import (
	"net/http"
	"runtime"
)

type event struct {
	payload [10240]byte
}

type small struct{ a, b int64 }

const queueLen = 100000

var events = make(chan event, 1000000) // want `channel buffer of 1000000 items of 10 KiB \(up to 9.5 GiB\) stores overload instead of pushing back; bound it by acceptable wait × consumer rate`

var smalls = make(chan small, 100000) // want `channel buffer of 100000 items of 16 B \(up to 1.5 MiB\) stores overload`

var ptrs = make(chan *event, 1<<20) // want `channel buffer of 1048576 items of 8 B \(up to 8 MiB, plus what each element references\) stores overload`

func perIteration(n int) {
	for i := 0; i < n; i++ {
		ch := make(chan small, queueLen) // want `channel buffer of 100000 items of 16 B \(up to 1.5 MiB per loop iteration\)`
		_ = ch
		_ = queueLen // queueLen is used outside make, so the fix caps it at the call site with min
	}
}

func handler(w http.ResponseWriter, r *http.Request) {
	results := make(chan []byte, 100000) // want `channel buffer of 100000 items of 24 B \(up to 2.3 MiB per request, plus what each element references\)`
	_ = results
}

// Negative cases.

// Documented 4096-slot pointer channels are fine: 32 KiB.
var work = make(chan *event, 4096)

// Zero-size elements store nothing.
var done = make(chan struct{}, 1<<24)

// Non-constant capacities are sized by something real.
func sizedByInput(items []event, senders int) {
	byItems := make(chan event, len(items))
	bySenders := make(chan error, senders)
	byCPU := make(chan int, runtime.NumCPU())
	_, _, _ = byItems, bySenders, byCPU
}

// A cap-1 notification channel coalesces wake-ups.
var notify = make(chan struct{}, 1)

// A local variable that shadows the package constant is not the constant.
func shadowed() {
	queueLen := 8
	ch := make(chan event, queueLen)
	_ = ch
}

// Unbuffered and small channels.
var unbuffered = make(chan event)
var few = make(chan event, 10)

// Not a channel.
var notChan = make([]event, 1000000)
