// Package retrysend defines an Analyzer that reports non-blocking sends whose
// failure path bypasses the channel's bound.
//
// # Analyzer retrysend
//
// retrysend: report non-blocking sends that bypass the channel's bound
//
// A bounded channel is a promise about waiting: when it is full, the producer
// waits, and the backlog stays at the bound. A non-blocking send,
//
//	select {
//	case ch <- v:
//	default:
//	}
//
// keeps that promise only if its default sheds the item: returns an error,
// drops and counts it, or does the work inline. The check reports three ways
// the default takes the bound back, and a loop of non-blocking sends that
// never waits.
//
// retryloop: a loop around the select whose default stays in the loop
// (nothing, continue, time.Sleep, a backoff, runtime.Gosched) while the send
// case leaves it (return, a break of the loop, a flag the loop condition
// reads). Between attempts the loop may count, log and keep its books:
// update locals with values that call nothing or only math/rand (jitter),
// and an if with a call-free condition that only does that, as capped
// exponential backoff does (if delay < max { delay *= 2 }); a check that
// leaves the loop when ctx.Done() or a quit channel is ready (select { case
// <-quit: return; default: }) is how it honours cancellation, and the fix
// keeps it as a case of the blocking select. The same retry
// through a helper that tries the send and reports success (true, or a nil
// error) is found too, for !q.TryPush(v) {}, for q.TryPush(v) != nil {} or
// for { if q.TryPush(v) { return }; wait }, also with the outcome held first
// (if err := q.TryPush(v); err == nil, ok := q.TryPush(v); if ok), whether
// the helper is of this package or, through the admission facts, another.
// The helper may batch its item: a function that says no only when a
// non-blocking send (its own or a helper's) finds the channel full, or on a
// stop signal, and never blocks on a channel, is such a try too.
// The loop emulates a blocking send by
// polling: it burns CPU or adds up to a sleep of latency per item, ignores
// cancellation, and lets work pile up upstream, where nothing bounds it. In
// Python's asyncio, a retry loop around a non-blocking put re-created the
// unbounded queue that the bound was there to prevent. In Go
// (docs/demos/retrypoll, 2 cores), a loop yielding with runtime.Gosched took
// 89% of a core while it waited, one sleeping 1ms added 0.6ms of latency per
// item on average, and with 50 arrivals at a full 10-slot channel both held
// all 50 items where a send that sheds held 10.
//
// pollingsend: the bounded variant, N attempts with sleeps (or attempts until
// a deadline), then a rejection. It is a timed send written as a poll. When
// the sleep changes per attempt, the message states the real total, worked
// out in closed form for the shapes retry loops take: linear in the counter
// (time.Duration(attempt) * unit) or in a delay the loop adds a step to,
// exponential (a delay the loop multiplies or shifts, a unit shifted by the
// counter), exponential with a cap (min(delay*2, max), or a clamp after the
// growth) and exponential while below a cap (if delay < max { delay *= 2 }):
// five linear attempts wait 1+2+3+4+5 units. Any other sleep that changes
// is reported with no fix and the message says what to do by hand.
//
// overflow: a default that stores the item where it grows without a cap (an
// append to a field or package slice, a container/list push, a map insert
// keyed by the item or its identity such as v.ID) or hands it to a new
// goroutine that blocks on the same send. The bound is bypassed and memory
// grows with overload.
//
// spin: a loop (no init or post, a call-free condition) around a
// non-blocking send that stays in the loop when it succeeds, in which
// nothing blocks when no channel is ready: every select on that path has a
// default, every if a call-free condition, and the rest only keeps the books
// or yields. It spins a core for as long as it runs, whatever it sends
// (go-carbon's hard throttle hands out bool tokens so). It has no fix: make
// the send a case of a select that blocks, disabled by a nil channel while
// it must not send. A default that sleeps, a select without a default, a
// try-send in a case that runs only when its channel is ready, a default
// that calls a function and counted loops are left alone.
//
// The check leaves alone a default that returns an error, counts or logs a
// drop, panics, does the work inline, evicts a slow consumer, persists the
// item or leaves the loop; sends of struct{} or bool values, which coalesce
// wake-ups; free-list puts that let a buffer go when the pool is full;
// try-then-block (an empty default followed by a blocking send); selects
// that wait on ctx.Done() with no default; receives with a default; loops
// that do other work between attempts (their sleep is a poll interval); maps
// that keep the latest item per key (v.Topic); overflow containers that the
// same function measures or trims; and bounded spins, which give up within
// microseconds.
//
// Fixes. retryloop: the loop becomes one blocking send, in a select with
// ctx.Done() when a context is in scope and the function returns an error;
// through a helper of another package, a call of its blocking sibling (Push
// beside TryPush). pollingsend: one select with a time.NewTimer for the
// loop's whole budget, followed by the loop's rejection. overflow: the store
// becomes an explicit shed: a sentinel error the fix declares, returned
// where the function returns an error outside a loop; otherwise a drop made
// observable with the drop counter or the logger the function or its
// receiver already uses, and a comment naming what is lost only where there
// is none. Declarations, imports and unexported try-send helpers the fix
// leaves unused are removed.
//
// Where no fix is safe (a helper with no blocking sibling, a budget that
// cannot be added up, a moved statement that would name the loop's
// counter), the finding has none and its message says what to do by hand.
//
// Flags: -retrysend.waits lists extra functions that only wait between
// attempts (backoff helpers), as pkg/path.Func, pkg/path.Type.Method or
// (*pkg/path.Type).Method.
//
// Categories: retrysend/retryloop, retrysend/pollingsend, retrysend/overflow,
// retrysend/spin.
// Suppress one finding with a comment on its line or the line above:
//
//	//queuecheck:ignore retrysend reason why this retry is fine
package retrysend
