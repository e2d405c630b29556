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
// The check reports nine shapes, each its own category.
//
// unboundedqueue/slicefifo: a slice field or package variable that one
// function appends to (q = append(q, x)) while another dequeues from its
// front (q = q[1:], q = q[n:], x, q = q[0], q[1:], copy(q, q[1:]) followed by
// a shrink, q = slices.Delete(q, 0, k), q = append(q[:0], q[1:]...)) or
// takes it whole (x := q; q = nil, or x, q = q, nil) in a loop or in a
// function that returns x (swapped = p.frame; p.frame =
// message.NewFrame(n); return, where NewFrame only returns a new empty
// slice, in this package or, through a fact, another), with no
// comparison of len(q) in the appending function. Only shared state counts: a
// field or package variable that a function filling or draining it touches
// under a sync.Mutex, RWMutex or Cond, or from a goroutine of its own. An
// append in a range over recipients (the queue depends on the iteration:
// lb.details for each lb) adds one item to each queue and counts.
//
// unboundedqueue/pump: the "infinite channel": a loop whose select receives
// an item and appends it to a slice in one case, and sends the slice's head
// and re-slices it in another, or hands the head to a request it receives
// there (a reader's buffer: the pull form of a UDP session). The pump always
// accepts, so the bound of the channel it reads never pushes back.
//
// unboundedqueue/putback: a batch taken from a shared queue and put back in
// front of it (q = append(batch, q...)) while other functions append to the
// queue: it grows for as long as delivery fails.
//
// unboundedqueue/listfifo: the same as slicefifo with a container/list List,
// filled with PushBack and drained with Remove(Front()) (or PushFront and
// Remove(Back())), or with a deque of any package (a type with Len, PushBack
// and PopFront, as gammazero/deque's), with no Len() comparison in the
// filling function.
//
// unboundedqueue/mapfifo: a map filled at an advancing counter
// (items[tail] = x; tail++) and deleted at another (delete(items, head);
// head++) in another function, with no comparison of its length or counters.
//
// unboundedqueue/ringfifo: a ring buffer indexed by counters whose storing
// function makes it larger when it is full instead of overwriting the oldest
// item or rejecting, while another function reads it at an advancing head.
//
// unboundedqueue/goroutinepersend: go func() { ch <- v }() whose goroutine
// only sends a value computed before it started, to a channel held in a field
// or package variable, also through a helper whose body is that send (go
// s.enqueue(v), go func() { s.enqueue(v) }(), of this package or another),
// or in a select whose other cases only wait for the service's stop channel.
// Each parked goroutine holds one item: an unbounded queue in disguise in
// front of a bounded channel.
//
// unboundedqueue/goroutineperitem: a loop that consumes a stream (for v :=
// range ch, or for {} with v := <-ch, a select case receiving an item, or a
// read of the next datagram or message: conn.ReadFromUDP(buf),
// r.ReadMessage(ctx), stream.Recv()) and starts a goroutine per item (go,
// errgroup.Group.Go without SetLimit, sync.WaitGroup.Go) without first
// acquiring a limiter, also in a range over the item's own parts (for _, p
// := range msg.Parts { go … }). The loop always takes the next item at once,
// so the channel never fills and its bound never pushes back; a pulled
// stream never makes its sender wait. A goroutine per item that sends
// several items back into the stream, in a loop (a traversal worker's
// subdirectories), holds the channel's overflow: reported without a fix.
//
// unboundedqueue/fanout: a goroutine per element of a collection whose size
// the data decides (a listing or query returned with an error, a decoded
// request or message, a request's field, a map stored into as tenants or
// streams arrive, a channel drained into a slice; followed through
// assignments, the package's helpers, callers and fields), each doing
// blocking work (the work fact: I/O, RPCs, waits, in the function or the
// functions it calls), with nothing bounding how many run at once; also in
// a package that bounds the same kind of fan-out elsewhere, whose bound the
// message then names. A collection of unknown or fixed size (a literal, a
// configured list, the peers or replicas of a cluster) is left alone.
// Nested fan-outs say outer × inner. The fix limits the group (SetLimit)
// or takes a semaphore, with a named constant.
//
// unboundedqueue/detached: a function that serves a request or a message
// (an HTTP handler, an RPC method, a message callback) starts a goroutine
// that does blocking work and outlives it: not waited for, not under the
// request's context, no slot taken, no claim of shared state guarding it.
// Reported without a fix: the message says what to do by hand. A
// streaming RPC method (given a stream with grpc.ServerStream's methods)
// serves one call too, and a goroutine it starts that parks on a channel
// of shared state, while the method returns on another goroutine's report,
// outlives it as well. An informer's event callback (knowledge list
// event-handler-types) serves one event like a handler. Any function but
// main and init that starts goroutines ranging over a channel it made and
// nothing closes leaves them parked for good, a set more per call. A
// function that returns one starting its handler parameter in a goroutine
// per call (AsyncHandler(f) returning func(m) { go f(m) }) makes whatever
// calls the result per event spawn per event: its callers whose handler
// does blocking work are reported, across packages through a fact.
//
// unboundedqueue/perkey: a method of a type starts a goroutine that does
// blocking work or lives long, and the values of the type are the entries
// of a map or sync.Map field filled at run time, a key per key the data
// brings (a sender per destination, a worker per room), with nothing
// capping the keys. Reported without a fix.
//
// unboundedqueue/queuetype: a call, from another package, of a queue type's
// push that never refuses (an append or PushBack with no length check that
// refuses, a pop that drains), known by a fact, with no bound in force at
// the call (a length check through the type's methods, a limit taken before
// the push, a blocking caller). A pop that empties the store whole makes
// the type a FIFO only when a consumer other than the producer runs it (a
// goroutine, a for loop of another function); otherwise it is a batch
// builder, emptied by the owner that fills it, and silent. Reported without
// a fix.
//
// What the check leaves alone, because real code is full of it:
//
//   - local queues (a BFS worklist dies with its call), queues nothing shares
//     between goroutines, and functions that fill and drain the same queue;
//   - parser cursors: buf = buf[n:] on byte slices;
//   - "keep the last N" trimming (q = q[len(q)-n:], or any re-slice of the
//     queue in the appending function): the trim is the bound;
//   - appends bounded by len(q), cap(q), q.Len() (but not a test for
//     emptiness) or a counter field compared before the append (q.n >=
//     q.max) in the appending function, in a function it calls (for q.full()
//     { cond.Wait() }) or in its callers up to two calls up, also through a
//     method that returns the length (Submit checks, then calls push);
//   - queues every caller of whose filling function also drains them (a
//     one-pass work list, a consumer putting back what it took), pools
//     filled up front by a counting loop (a free list of ports), and
//     consumers that drain under the producers' lock, releasing it only in a
//     sync.Cond's Wait;
//   - appends of several items or of a spread slice, and appends to one
//     queue in a range over a slice, map or integer (batches bounded by their
//     input, such as a constructor filling the queue from its configuration);
//   - pumps whose receive case is disabled when the buffer is full, or that
//     compare its length otherwise (dropping the oldest, flushing on size);
//     batching loops that send the whole batch; merges that do not buffer;
//   - put-backs guarded by a length, age or attempt check, or into queues
//     nothing else fills; rings that overwrite or grow only up to a limit;
//     maps deleted by key rather than at an advancing head;
//   - an append or push that is a statement of the default case of a select
//     with a send: the overflow of a non-blocking send, which the retrysend
//     check reports;
//   - PushBack whose element is kept (an index of elements would go stale if
//     the fix dropped the oldest), and lists whose Remove takes any element;
//   - go func() { errc <- run() }() (the goroutine does the work), sends in a
//     select that also waits on a per-call ctx.Done() or a timer, sends to a
//     channel made in the function or passed in (a one-shot result, a future
//     its caller drains after the call returns), sends from a function that
//     receives from the same channel or holds a mutex (a blocking send could
//     deadlock),
//     signal and tick channels, and the overflow branch of a select (the
//     retrysend check reports that);
//   - loops over slices, maps and integers (bounded by their input), over
//     ticks, signals and ctx.Done(), and over a channel the call makes and
//     closes for one batch (itself, or through a function that returns it);
//   - spawns preceded by any blocking acquire in the loop: sem <- struct{}{}
//     on a semaphore channel (also in a select with ctx.Done()), a receive
//     from a pre-filled token channel, (*semaphore.Weighted).Acquire,
//     TryAcquire with an inline fallback, (*rate.Limiter).Wait, Take() on a
//     token bucket or pacer, Start() on a gate, or a call of a function of the
//     package that does one of these; also an acquire guarded by n > 0 on a
//     parameter every caller makes positive (a positive constant, or
//     if n < 1 { n = runtime.NumCPU() * 2 } before the call);
//   - spawns guarded by a count of work in flight (if inflight.Load() < max,
//     else the loop does the work itself; or the same check first, doing the
//     work and continuing at the limit), and spawns after which the loop
//     waits (wg.Wait(), <-done) or ends (return, break) before the next item;
//   - errgroups with SetLimit, errgroups created per iteration or handed in
//     by the caller (who may have set a limit), and SetLimit on types that
//     are not errgroups;
//   - goroutines that read nothing the iteration declares (go p.Kill() once
//     a counter reaches a limit): they are not per item;
//   - per-entity goroutines: the goroutine itself loops over a stream (one
//     reader per subscription or connection, also through a function
//     literal held in a local variable), or ends waiting for a stop signal
//     the loop's function provides (<-quit, <-ctx.Done(): one listener per
//     forwarded port), or the items are channels or connections, hold one
//     or hand one out (Conn() net.Conn), or are streams to accept (an
//     ssh.NewChannel, whose Accept returns a ReadWriteCloser);
//   - restarts: the goroutine sends on the channel the loop receives from,
//     replacing the worker whose exit it received;
//   - loops that leave once a counter they step (up or down) reaches a
//     bound, before each spawn (if n == len(readers) { break }), whatever
//     the comparison;
//   - fan-outs over configured, static or caller-given slices, integers,
//     goroutines that only compute, and listings in a package with no bounded
//     sibling.
//
// The fixes:
//
//   - slicefifo, listfifo and mapfifo: a length guard before the append,
//     with the limit as a new named constant. Where the function (a declared
//     function or method, not a literal) returns an error, the guard rejects
//     the item with a sentinel error the fix declares (and unlocks a mutex
//     the function locked by hand); otherwise it drops the oldest item.
//   - ringfifo: where the function returns an error, a rejection at the top
//     of the branch that grows the ring.
//   - pump: a copy of the received channel (of each, for a pump fed by
//     several) before the select, nil while the buffer holds a named limit,
//     so the pump stops receiving.
//   - putback: after the put-back, keep the newest items up to a named limit.
//   - goroutinepersend: the blocking send (or the helper's call) in place of
//     the goroutine.
//   - goroutineperitem: g.SetLimit(N) after the declaration of an errgroup
//     made in view whose Go calls are all in the loop; otherwise a semaphore,
//     sem := make(chan struct{}, N) before the loop (one per loop), sem <-
//     struct{}{} before the spawn (in a select with ctx.Done() that leaves as
//     the loop does, where the loop watches it, and then before a wg.Add that
//     counts the spawn), defer func() { <-sem }() in
//     the goroutine. A plain go f(x) or g.Go(f) is wrapped in a function
//     literal; arguments that do work or read variables that change before
//     the goroutine runs are evaluated first, as the go statement did, and
//     loop variables are copied in files older than Go 1.22.
//   - fanout: the same, with the sibling's bound.
//
// Where no edit is safe (urgent items in a list that cannot reject, a ring
// in a function without an error, a loop that watches ctx.Done() without
// leaving on it, statements that share a line, a goto that would jump over
// the variable the fix declares), the finding has no fix and its message
// says what to do by hand.
//
// Flags:
//
//	-unboundedqueue.bound N     the length limit the queue and pump fixes declare (default 1024)
//	-unboundedqueue.inflight N  the semaphore size or SetLimit the goroutineperitem fix uses (default 64)
//	-unboundedqueue.acquire L   further blocking acquire calls, comma-separated, as pkg/path.Func,
//	                            pkg/path.Type.Method or (*pkg/path.Type).Method:
//	                            (*example.com/pool.Pool).Get,example.com/gate.Enter
//
// Suppress one finding with a comment on its line or the line above:
//
//	//queuecheck:ignore unboundedqueue reason why this queue is bounded
package unboundedqueue
