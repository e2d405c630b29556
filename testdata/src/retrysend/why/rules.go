package why

import (
	"errors"
	"time"
)

type item struct {
	ID    int
	Topic string
}

var (
	out     = make(chan item, 8)
	backlog []item
	latest  = map[string]item{}
	errFull = errors.New("full")
)

func work() {}

func next() item { return item{} }

// bounded-spin: three tries without a sleep shed within microseconds.
func spinThrice(v item) bool {
	for i := 0; i < 3; i++ { // want `not reported: bounded-spin: ` `not reported: loop-clauses: `
		select {
		case out <- v: // want `not reported: default-sheds: `
			return true
		default:
		}
	}
	return false
}

// capped-store: the function trims what it stores.
func trimmed(v item) {
	select {
	case out <- v: // want `not reported: no-retry-loop: `
	default:
		backlog = append(backlog, v) // want `not reported: capped-store: `
		if len(backlog) > 100 {
			backlog = backlog[1:]
		}
	}
}

// no-retry-loop and default-sheds: one try, and an empty default drops.
func once(v item) {
	select {
	case out <- v: // want `not reported: no-retry-loop: ` `not reported: default-sheds: `
	default:
	}
}

// default-leaves: a full channel ends the loop with an error.
func giveUp(v item) error {
	for { // want `not reported: blocks-when-idle: `
		select {
		case out <- v: // want `not reported: default-leaves: ` `not reported: default-sheds: `
			return nil
		default:
			return errFull
		}
	}
}

// works-between-attempts: the sleep paces other work.
func pace(v item) {
	for { // want `not reported: blocks-when-idle: `
		select {
		case out <- v: // want `not reported: works-between-attempts: ` `not reported: default-sheds: `
			return
		default:
		}
		work()
		time.Sleep(time.Millisecond)
	}
}

// inner-branch: the send case breaks the select before it returns.
func innerBreak(v item, skip bool) {
	for { // want `not reported: blocks-when-idle: `
		select {
		case out <- v: // want `not reported: inner-branch: ` `not reported: default-sheds: `
			if skip {
				break
			}
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// changing-item: each attempt sends a new item.
func fresh() {
	for { // want `not reported: blocks-when-idle: `
		select {
		case out <- next(): // want `not reported: changing-item: ` `not reported: default-sheds: `
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// send-stays: a producer, one item per iteration; blocks-when-idle: it
// sleeps when the channel is full.
func produce(v item) {
	for { // want `not reported: blocks-when-idle: `
		select {
		case out <- v: // want `not reported: send-stays: ` `not reported: default-sheds: `
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// flag-not-send: the send case does not set the flag the loop reads.
func flagged(v item, done func() bool) {
	sent := false
	for !sent { // want `not reported: blocks-when-idle: `
		select {
		case out <- v: // want `not reported: flag-not-send: ` `not reported: default-sheds: `
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// local-batch: what failed goes back to the caller.
func batch(vs []item) []item {
	var failed []item
	for _, v := range vs {
		select {
		case out <- v: // want `not reported: no-retry-loop: ` `not reported: local-batch: `
		default:
			failed = append(failed, v)
		}
	}
	return failed
}

// latest-per-key: one item per topic.
func keep(v item) {
	select {
	case out <- v: // want `not reported: no-retry-loop: ` `not reported: latest-per-key: `
	default:
		latest[v.Topic] = v
	}
}

// ignore-directive: a retry loop silenced with a reason.
func ignored(v item) {
	//queuecheck:ignore retrysend the consumer never falls behind
	for { // want `not reported: ignore-directive: `
		select {
		case out <- v:
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

func tryPut(v item) bool {
	select {
	case out <- v: // want `not reported: no-retry-loop: ` `not reported: default-sheds: `
		return true
	default:
		return false
	}
}

// not-helper-retry: three tries of a helper, then give up.
func tryThrice(v item) bool {
	for i := 0; i < 3; i++ { // want `not reported: not-helper-retry: `
		if tryPut(v) {
			return true
		}
	}
	return false
}

// helper-works-between-attempts: the loop works while it retries.
func putWorking(v item) {
	for !tryPut(v) { // want `not reported: helper-works-between-attempts: `
		work()
	}
}
