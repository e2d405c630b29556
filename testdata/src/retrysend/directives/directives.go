package directives

import "runtime"

func put(ch chan int, v int) {
	//queuecheck:ignore retrysend the consumer is a dedicated core that never falls behind
	for {
		select {
		case ch <- v:
			return
		default:
			runtime.Gosched()
		}
	}
}

var backlog []int

func offer(ch chan int, v int) {
	select {
	case ch <- v:
	default:
		backlog = append(backlog, v) //queuecheck:ignore retrysend drained by the flusher every tick, measured bounded
	}
}

//queuecheck:ignore retrysend nothing to silence // want `//queuecheck:ignore retrysend silences nothing here; remove it`
func fine(ch chan int, v int) {
	select {
	case ch <- v:
	default:
	}
}

// want +2 `//queuecheck:ignore retrysend needs a reason after the check name`
//
//queuecheck:ignore retrysend
var noReason = func(ch chan int, v int) {
	for { // want `loop retries a non-blocking send on ch until it succeeds, spinning`
		select {
		case ch <- v:
			return
		default:
		}
	}
}
