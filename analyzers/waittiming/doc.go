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
// load. With 50 ms tasks on a 28-thread pool, measured in Python's asyncio,
// the run time stayed at 50.1 ms while the queue wait p50 went from 0.1 ms
// at 20 concurrent calls to 49.9 ms at 100 and 251.7 ms at 300 (Go's
// docs/demos/poolwait lands on the same rounds): a timer around the whole
// call reports the work getting six times slower when it did not change.
//
// Category waittiming/wholecall: a measurement whose start precedes an
// admission wait and whose end follows work done after the wait, with no
// second timestamp in between. Measurements are start := time.Now() (or an
// injected clock's Now()) ended by time.Since(start) (or the clock's
// Since(start)), time.Now().Sub(start),
// t.Sub(start), or a recorder that takes the start (metrics.MeasureSince(key,
// start)); defer metrics.MeasureSince(key, time.Now()) and other deferred
// calls given time.Now(); defer func(start time.Time) {…}(time.Now()); and
// t := prometheus.NewTimer(o) … t.ObserveDuration(), deferred or not; and
// timers of the service's own, recognised by what they do (in this package
// or, through facts, in another): a constructor that keeps time.Now() in a
// field of what it returns, by name or by position, with a method
// recording the time since it (a hand-written NewTimer/ObserveDuration, an
// OpenTelemetry-style Record of the time since a kept start), a function
// whose every return calls such a constructor, an interface method whose
// every implementation in its package starts one (sw :=
// scope.StartTimer(op) … defer sw.Stop()), a function recording the time since a
// time.Time parameter whatever its name, and a function returning the
// function that stops its measurement (defer track("op")()). A time.Time
// parameter named like a start and read against the clock in the function that declares it
// (time.Since(start) in func process(ctx, req, start time.Time)) is a start
// taken before the function's body: the function's waits are in the
// figure, and the finding has no fix (the start is the caller's). The end may
// run in a deferred closure, in a goroutine started after the wait, or in
// the function handed to a limited errgroup's Go. A goroutine the function
// starts once and then receives from before the end (go func() { done <-
// c.fetch(ctx) }() and a select on done) runs inside the span: its wait and
// the work after it are in the figure, without a fix.
//
// Admission waits are (*semaphore.Weighted).Acquire; (*rate.Limiter).Wait
// and WaitN, and sleeping a reservation's Delay(); a send to a channel used
// as a semaphore or a receive from a token channel, alone or in a select
// whose other cases only give up; Go on an errgroup that has a SetLimit
// (when the measured work is the function handed to Go); handing a job to a
// pool's unbuffered job channel and then receiving its result; a time.Sleep
// or time.After of a backoff; calls shaped like an acquire (Acquire or Take
// on a type that also releases and can block, a pacer's Take, Start on a
// gate, Wait(ctx) on a type named like a limiter); helpers whose main path
// performs one of these and then only returns (an unexported acquire that
// hands back its release, a limiter wrapper in another package: facts);
// and the calls listed in -waittiming.waits. Mutex locks count only with
// -waittiming.mutex. A request handed to a job queue (a buffered channel a
// goroutine of the package drains) whose reply the function receives is
// reported too, without a fix: the queue wait ends in the consumer.
//
// A measurement that spans a call of a function whose main path waits for
// admission and then works (an InnerWait fact, across packages: a client's
// Query doing c.lim.Wait(ctx) first, a pool's Run taking a slot and then
// running the job) is reported too, without a fix: the split belongs
// after the wait inside the callee. The fact also comes from handing jobs
// to a shared pool and waiting for them (jobs sent on a channel goroutines
// of the package drain, then wg.Wait() on a WaitGroup the jobs carry or a
// receive of their reply: tempodb's pool.RunJobs), from calling such a
// function on the main path (or in the first attempt of a loop of
// attempts), for an interface method, from an implementation its own
// package declares having it (the union: the fact names the one when not
// all do), for a call of a func-typed field or of a value of a func
// type the package declares, from a function the package hands to it, for
// a call of a func-typed parameter of an unexported function whose calls
// are all in view, from a function those calls hand it, and,
// for a call of another package's function that is handed one of the
// program's values as an interface of one method (req.RequestWith(ctx,
// cl)), from the value's method for it.
//
// A measurement that is the latency users see — from the top of an HTTP
// handler, a gRPC interceptor or a net/rpc-shaped endpoint to its end, or a
// figure named a total — should
// include the queueing: it is still reported, since no figure shows the wait
// apart, but its fix keeps the total and records the wait beside it.
//
// Category waittiming/deadline: a context.WithTimeout or WithDeadline
// derived right before an admission wait, whose context the work after the
// wait uses: queueing spends the work's budget. A DNS lookup queued behind
// 60 one-second jobs took 1,951 ms instead of 1.01 ms (asyncio); with a
// timeout started before the wait it fails as a DNS timeout. The same when
// the context travels in a job to a pool's workers (task{ctx: ctx} sent on
// their channel, buffered or not): the worker gets what the wait left.
// A deadline set up under a condition (if timeout > 0 { ctx, cancel =
// context.WithTimeout(ctx, timeout); defer cancel() }) covers the
// statements after the if, and is reported without a fix. Using the
// context before the wait for bookkeeping (a log or metrics call that takes
// it for its values, ctx.Err(), a select on ctx.Done() with a default)
// spends none of the budget, and the deadline is still reported.
//
// The check leaves alone what real services get right: timers that cover
// only the wait (that timer is the split); a start variable assigned again
// after the wait; any second timestamp, timer or measurement from the same
// start between the wait and the end; bookkeeping between them (logging,
// metrics, tracing spans, the recording statement's own calls, a method of
// a metrics interface that takes no context and returns nothing, a
// function of the package that only checks whether the context is done)
// that is not work; waits
// that occur only on an error branch or on a path that returns before the
// end; waits in a loop the start precedes (a batch timed as a whole); a
// semaphore the function made itself and acquires once; deferred
// measurements that also time paths returning a result before the wait (an
// end-to-end figure; error exits do not count); mutexes unless asked;
// receives from ctx.Done(), timers and tickers, selects with a default or
// that dispatch work; end-to-end timings of functions that contain no wait;
// deadlines created after the wait, used by other work before it, or used
// for the wait alone, and absolute deadlines the caller set.
//
// A deadline handed to a callee whose first use of that context is a wait
// on it (an InnerWait fact, across packages: Query doing c.lim.Wait(ctx)
// before its work; work before the wait that never sees the context does
// not count) is reported too, without a fix.
//
// Category waittiming/retrywait: a measurement around a retry loop (a for
// loop, or a label a goto returns to) whose attempts are separated by
// sleeps, timers or backoff waits, and that leaves on success or goes round
// on failure: under failure the figure is mostly waiting. A figure whose
// only work is a call of a function that retries so — itself or through
// wrappers whose only work is that call, of this package or, by a retries
// fact, of another (also through a func field assigned that one function,
// a func-typed parameter every call of its function hands that one
// function, or through a value handed to another package's function as an interface
// of one method, whose method retries) — is reported without a fix; a fallback run once the call failed is no
// other work. Batches paced between items, polls on an interval or a ticker,
// timings per attempt and figures that name their retries are left alone.
//
// Category waittiming/staletime: a timestamp taken before a wait and read
// as the current time after it (now.Sub(e.At), now.Add(ttl), an argument
// of expired(now, e)): the age, expiry or deadline computed from it is off
// by the wait. The waits are those above, condition loops (for
// q.l.Len() == 0 { q.cond.Wait() }, for inflight >= max { c.Wait() }) and
// calls of functions that wait so on their main path and then work (an
// InnerWait fact, across packages). The fix moves v := time.Now() below
// the wait.
//
// The fix takes the second timestamp right after the wait (and after the
// defer that releases it), started := time.Now() (a fresh name when started
// is taken), measures the run from
// started, and records the wait, started.Sub(start), the way the code
// already records the duration: a " (wait %v)" verb and argument for
// printf-style calls; a "wait" key-value pair for slog-style and other
// ...any calls; a sibling attribute (slog.Duration("wait", …)); the same
// *Vec observer with its stage label set to "wait"; a sibling recorder
// under a wait key (metrics.MeasureSince with "wait" appended to the key)
// for recorders that take the start. Deferred measurements and Prometheus
// timers move below the wait, and queued := time.Now() where they stood
// keeps the start of the wait; a deferred closure that reads the function's
// results stays, and started is declared before it and assigned after the
// wait. Where no recorder can carry a second figure, the wait goes to
// slog.Debug("waited for admission", "wait", …): it compiles anywhere,
// invents no metric name, and logs nothing by default. For deadline, the
// fix moves the context's derivation (and its defer cancel()) below the
// wait; when the wait used that context and its parent has no deadline of
// its own (context.Background(), a parameter), the wait keeps a bound of
// its own and the work gets a fresh budget. For retrywait, the fix sums the
// pauses, measures the figure without them, and records the sum beside it.
//
// Findings without a safe fix are reported without one, and a related note
// says why and what to do by hand (the check's page lists the shapes).
//
// Flags: -waittiming.waits=pkg/path.Func,pkg/path.Type.Method adds admission
// waits (a method may also be written (*pkg/path.Type).Method);
// -waittiming.mutex counts mutex locks as waits.
//
// Suppress one finding with a comment on its line or the line above:
//
//	//queuecheck:ignore waittiming reason why this timing is fine
package waittiming
