// Package unboundedqueue defines an Analyzer that reports queues that grow
// without a bound.
//
// # Analyzer unboundedqueue
//
// unboundedqueue: report queues that grow without a bound
//
// A queue without a bound stores overload instead of pushing back on the
// producer. In a measurement with Python's asyncio (producer 1,000 items/s of
// 10 KB, consumer about 460/s), an unbounded queue grew by about 464 items and
// 4.5 MiB every second: 22.5 MiB and 2.4 s of wait per item after 5 s. With a
// bound of 100 it held 100 items and 1.0 MiB, items waited 220 ms, and the
// producer slowed to the consumer's pace. A bound is a promise about waiting:
// bound = acceptable wait × consumer rate (0.25 s × 460/s → 115).
//
// The check reports four shapes, each its own category.
//
// unboundedqueue/slicefifo: a slice field or package variable that one
// function appends to (q = append(q, x)) while another dequeues from its
// front (q = q[1:], q = q[n:], x, q = q[0], q[1:], copy(q, q[1:]) followed by
// a shrink, q = slices.Delete(q, 0, k), q = append(q[:0], q[1:]...)), with no
// comparison of len(q) in the appending function. Only shared state counts: a
// field or package variable that a function filling or draining it touches
// under a sync.Mutex, RWMutex or Cond, or from a goroutine of its own.
//
// unboundedqueue/listfifo: the same with a container/list List, filled with
// PushBack and drained with Remove(Front()) (or PushFront and Remove(Back())),
// with no Len() comparison in the filling function.
//
// unboundedqueue/goroutinepersend: go func() { ch <- v }() whose goroutine
// only sends a value computed before it started, to a channel held in a field
// or package variable. Each parked goroutine holds one item: an unbounded
// queue in disguise in front of a bounded channel.
//
// unboundedqueue/goroutineperitem: a loop that consumes a stream (for v :=
// range ch, or for {} with v := <-ch or a select case receiving an item) and
// starts a goroutine per item (go, errgroup.Group.Go without SetLimit,
// sync.WaitGroup.Go) without first acquiring a limiter. The loop always
// takes the next item at once, so the channel never fills and its bound never
// pushes back.
//
// What the check leaves alone, because real code is full of it:
//
//   - local queues (a BFS worklist dies with its call), queues nothing shares
//     between goroutines, and functions that fill and drain the same queue;
//   - parser cursors: buf = buf[n:] on byte slices;
//   - "keep the last N" trimming (q = q[len(q)-n:], or any re-slice of the
//     queue in the appending function): the trim is the bound;
//   - queues that advance an index, and appends bounded by len(q), cap(q),
//     q.Len() or a counter field (q.n >= q.max) in the appending function, in
//     a function it calls (for q.full() { cond.Wait() }) or in its callers
//     (Submit checks the length, then calls push);
//   - appends of several items or of a spread slice, and appends in a range
//     over a slice, map or integer (batches bounded by their input, such as a
//     constructor filling the queue from its configuration);
//   - an append or push that is a statement of the default case of a select
//     with a send: the overflow of a non-blocking send, which the retrysend
//     check reports;
//   - PushBack whose element is kept (an index of elements would go stale if
//     the fix dropped the oldest), and lists whose Remove takes any element;
//   - go func() { errc <- run() }() (the goroutine does the work), sends in a
//     select that also waits on ctx.Done() or a timer, sends to a channel made
//     in the function or passed in (a one-shot result, a future its caller
//     drains after the call returns), sends from a function that receives from
//     the same channel or holds a mutex (a blocking send could deadlock),
//     signal and tick channels, and the overflow branch of a select (the
//     retrysend check reports that);
//   - loops over slices, maps and integers (bounded by their input), and over
//     ticks, signals and ctx.Done();
//   - spawns preceded by any blocking acquire in the loop: sem <- struct{}{}
//     on a semaphore channel (also in a select with ctx.Done()), a receive
//     from a pre-filled token channel, (*semaphore.Weighted).Acquire,
//     TryAcquire with an inline fallback, (*rate.Limiter).Wait, Take() on a
//     token bucket or pacer, Start() on a gate, or a call of a function of the
//     package that does one of these;
//   - spawns guarded by a count of work in flight (if inflight.Load() < max,
//     else the loop does the work itself), and spawns after which the loop
//     waits (wg.Wait(), <-done) or ends (return, break) before the next item;
//   - errgroups with SetLimit, errgroups created per iteration or handed in
//     by the caller (who may have set a limit), and SetLimit on types that
//     are not errgroups;
//   - goroutines that read nothing the iteration declares (go p.Kill() once
//     a counter reaches a limit): they are not per item;
//   - per-entity goroutines: the goroutine itself loops over a stream (one
//     reader per subscription or connection), or the items are channels.
//
// The fixes:
//
//   - slicefifo and listfifo: a length guard before the append, with the limit
//     as a new named constant. Where the function (a declared function or
//     method, not a literal) returns an error, the guard rejects the item
//     with a sentinel error the fix declares (and unlocks a mutex the
//     function locked by hand); otherwise it drops the oldest item.
//   - goroutinepersend: the blocking send in place of the goroutine.
//   - goroutineperitem: a semaphore, sem := make(chan struct{}, N) before the
//     loop, sem <- struct{}{} before the spawn, defer func() { <-sem }() in the
//     goroutine. A plain go f(x) or g.Go(f) is wrapped in a function literal;
//     arguments that do work or read variables that change before the
//     goroutine runs are evaluated first, as the go statement did, and loop
//     variables are copied in files older than Go 1.22.
//
// Flags:
//
//	-unboundedqueue.bound N     the length limit the slicefifo and listfifo fixes declare (default 1024)
//	-unboundedqueue.inflight N  the semaphore size the goroutineperitem fix uses (default 64)
//	-unboundedqueue.acquire L   further blocking acquire calls, comma-separated, as pkg/path.Func,
//	                            pkg/path.Type.Method or (*pkg/path.Type).Method:
//	                            (*example.com/pool.Pool).Get,example.com/gate.Enter
//
// Suppress one finding with a comment on its line or the line above:
//
//	//queuecheck:ignore unboundedqueue reason why this queue is bounded
package unboundedqueue
