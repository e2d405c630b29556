// Package waittiming defines an Analyzer that reports durations and
// deadlines that span an admission wait and the work after it, so that time
// spent queueing is reported as, or spent from the budget of, the work.
//
// # Analyzer waittiming
//
// waittiming: report timings and timeouts that hide the wait inside the call
//
// A call that first waits for admission (a semaphore slot, a rate-limiter
// token, a pool worker, a backoff) and then does its work takes wait + run
// time. Only the run time is the work's; the wait depends on everyone else's
// load. Measured with 50 ms tasks on a 28-slot pool (in Python's asyncio,
// and again in Go by docs/demos/poolwait), the run time stayed at 50 ms while
// the queue wait went from 0.1 ms at 20 concurrent calls to 50 ms at 100 and
// 252 ms at 300: a timer around the whole call reports the work getting six
// times slower when it did not change at all.
//
// Category waittiming/wholecall: a measurement whose start precedes an
// admission wait and whose end follows work done after the wait, with no
// second timestamp in between. Measurements are start := time.Now() (or an
// injected clock's Now()) ended by time.Since(start), time.Now().Sub(start),
// t.Sub(start), or a recorder that takes start (metrics.MeasureSince(key,
// start)); defer metrics.MeasureSince(key, time.Now()) and other deferred
// calls given time.Now(); defer func(start time.Time) {…}(time.Now()); and
// t := prometheus.NewTimer(o) … t.ObserveDuration(), deferred or not. The
// end may run in a goroutine or in the function handed to an errgroup's Go.
//
// Admission waits are (*semaphore.Weighted).Acquire; (*rate.Limiter).Wait
// and WaitN, and sleeping a reservation's Delay(); a send to a channel used
// as a semaphore or a receive from a token channel, alone or in a select
// whose other cases only give up; Go on an errgroup that has a SetLimit
// (when the measured work is the function handed to Go); handing a job to a
// pool's unbuffered job channel and then receiving its result; a time.Sleep
// or time.After of a backoff; and the calls listed in -waittiming.waits.
// sync.Mutex.Lock and RWMutex.Lock/RLock count only with -waittiming.mutex.
//
// Category waittiming/deadline: a context.WithTimeout or WithDeadline
// derived right before an admission wait, whose context the work after the
// wait uses: queueing spends the work's budget, and a DNS lookup that waited
// 1.9 s for a slot (asyncio, behind 60 one-second jobs) times out although it
// takes a millisecond.
//
// The check leaves alone, as the survey of real services that motivated it
// found them correct: timers that cover only the wait (no work between the
// wait and the end: that timer is the split); a start variable assigned
// again after the wait; any second timestamp, timer or measurement from the
// same start between the wait and the end; waits that occur only on an
// error branch or on a path that returns before the end; waits in a loop the
// start precedes (a batch timed as a whole); deferred measurements that also
// time paths returning before the wait (an end-to-end figure); mutexes
// (unless asked); receives from ctx.Done(), timers and tickers, and selects
// that dispatch work; end-to-end timings of functions that contain no wait;
// deadlines created after the wait, or used by other work before it.
//
// The fix takes the second timestamp right after the wait, started :=
// time.Now() (a fresh name when started is taken), measures the run from
// started, and records the wait, started.Sub(start), the way the code
// already records the duration: a " (wait %v)" verb and argument for
// printf-style calls; a "wait" key-value pair for slog-style and other
// ...any calls; a sibling attribute (slog.Duration("wait", …)) beside an
// attribute; the same *Vec observer with its stage label set to "wait"; and
// a sibling recorder under a wait key (metrics.MeasureSince with "wait"
// appended to the key) for recorders that take the start. Deferred
// measurements move after the wait, and a queued := time.Now() where they
// stood keeps the start of the wait. Where no recorder can carry a second
// figure, the wait goes to slog.Debug("waited for admission", "wait", …):
// it compiles anywhere, invents no metric name, and logs nothing by
// default; replace it with the service's wait metric. For deadline, the fix
// moves the context's derivation (and its defer cancel()) below the wait.
//
// Flags: -waittiming.waits=pkgpath.Func,pkgpath.Type.Method adds admission
// waits; -waittiming.mutex counts mutex locks as waits.
//
// Suppress one finding with a comment on its line or the line above:
//
//	//queuecheck:ignore waittiming reason why this timing is fine
package waittiming
