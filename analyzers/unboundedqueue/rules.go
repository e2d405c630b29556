package unboundedqueue

import "github.com/queuecheck/queuecheck/analyzers/internal/report"

// The reasons the queue kinds do not report an enqueue of a slice or list
// queue, in the order queueSiteBounded asks them, then those of the pumps,
// put-backs, map queues and rings; then those that keep an append to a
// shared slice or a push on a shared list from being an enqueue at all, and
// the one that skips a package. The spawn kinds' rules are in package
// spawn.
var (
	rulePrefilledPool        = report.NewRule("unboundedqueue", "prefilled-pool", "one enqueue of the queue appends the counter of a counting loop: a pool of resources filled up front, whose puts give back what a get took")
	rulePumped               = report.NewRule("unboundedqueue", "pumped", "the append is the buffer of an infinite-channel pump, reported (and bounded) as kind pump")
	ruleBatchFill            = report.NewRule("unboundedqueue", "batch-fill", "the append runs in a loop over a slice, array, map, string or integer: a batch copied from its input into the queue, not a producer's rate")
	ruleQueueOverflowDefault = report.NewRule("unboundedqueue", "queue-overflow-default", "the append is in the default case of a non-blocking send: retrysend reports and fixes that overflow")
	ruleSameFunction         = report.NewRule("unboundedqueue", "same-function", "no function other than the one that appends dequeues from the queue: a local work list (a BFS), filled and drained by one function")
	ruleNotShared            = report.NewRule("unboundedqueue", "not-shared", "no function that fills or drains the queue holds a mutex or sync.Cond or runs in a goroutine of its own: not a queue between goroutines")
	ruleLengthCheck          = report.NewRule("unboundedqueue", "length-check", "the function that appends compares the queue's length (or a counter kept with it) with a limit, or trims it to keep the last N")
	ruleEmptiedAfter         = report.NewRule("unboundedqueue", "emptied-after", "the function that appends empties the queue later (q = q[:0], q = nil): what it adds does not outlive the call")
	ruleMirrorsChannel       = report.NewRule("unboundedqueue", "mirrors-channel", "the append runs only once a send on a buffered job channel has gone through, and a consumer of the queue receives from that channel: the slice holds what the channel holds and what its worker has in hand, so the channel's buffer bounds it")
	ruleCallerWaits          = report.NewRule("unboundedqueue", "caller-waits", "the function blocks after the enqueue (a channel operation, a select, sync.Cond.Wait): each queued item has a caller parked with it")
	ruleSorted               = report.NewRule("unboundedqueue", "sorted", "the package sorts the queue, or the append is the Push of a heap.Interface type: a timer or priority list, not a FIFO")
	ruleDrainedByCallers     = report.NewRule("unboundedqueue", "drained-by-callers", "every caller of the function that appends also drains the queue: a consumer putting back what it took, or one pass that fills a work list and drains it")
	ruleDrainsUnderLock      = report.NewRule("unboundedqueue", "drains-under-lock", "every consumer drains the queue in a loop holding the producers' mutex, released only in sync.Cond.Wait: the lock keeps producers at the consumer's pace")

	rulePumpLimit    = report.NewRule("unboundedqueue", "pump-limit", "the function of the pump's loop compares the buffer's length with a limit (not an emptiness test), or a counter with anything: it stops taking items when full")
	ruleNotPutBack   = report.NewRule("unboundedqueue", "not-a-put-back", "the slice put in front of the queue (q = append(batch, q...)) is not a local variable its function took from the queue before (batch := q, batch, q = q, nil): a prepend of other items, which the queue kinds do not count as a put-back")
	rulePutBackOnly  = report.NewRule("unboundedqueue", "put-back-only", "no function other than the one that puts items back fills the queue: a retry of its own batch, not a second producer")
	rulePutBackLimit = report.NewRule("unboundedqueue", "put-back-limit", "the put-back is bounded: its function compares the queue's or the batch's length with a limit, counts attempts, checks an age, or trims the queue")
	ruleClearsSlot   = report.NewRule("unboundedqueue", "clears-slot", "the store into the ring puts the zero value (r.buf[r.head] = T{}): a reader clearing the slot it took, not an enqueue")
	ruleFixedRing    = report.NewRule("unboundedqueue", "fixed-ring", "no function that stores into the ring (nor one it calls) makes its slice larger: a ring of a fixed size, which overwrites or rejects when full")
	ruleNoRingReader = report.NewRule("unboundedqueue", "no-ring-reader", "no function other than the one that stores into the ring reads it at a counter it advances: not a queue between a producer and a consumer")
	ruleRingLimit    = report.NewRule("unboundedqueue", "ring-limit", "the function that stores into the ring, or the one that grows it, compares its size with a limit of its own (if len(r.buf) >= r.maxSize { return errFull })")
	ruleCallersCheck = report.NewRule("unboundedqueue", "callers-check", "a caller of the function that stores into the ring bounds it (compares its length with a limit before the call)")

	ruleLocalValue   = report.NewRule("unboundedqueue", "local-value", "the slice is a field of a struct value the function holds in a local variable (r.Topics of var r Fetch): the function's own value, not shared state")
	ruleByteBuffer   = report.NewRule("unboundedqueue", "byte-buffer", "the slice holds bytes: a buffer that parsers consume (buf = buf[n:]), not a queue of items")
	ruleBatchAppend  = report.NewRule("unboundedqueue", "batch-append", "the append adds several items, or spreads a slice other than its function's own variadic parameter fed by this package: a batch, which a limit checked per item would not bound")
	ruleKeepsLastN   = report.NewRule("unboundedqueue", "keeps-last-n", "the only re-slices of the slice keep its last N items (q = q[len(q)-n:]): a window with a bound, not a FIFO")
	ruleNotFIFO      = report.NewRule("unboundedqueue", "not-a-fifo", "no dequeue the queue kinds know takes items from the other end (q = q[1:], slices.Delete(q, 0, n), a consumer's take-all and reset, Remove(l.Front()), PopFront, delete(m, head) with head++ beside m[tail] = x with tail++): to them a stack or a list that only grows, not a FIFO queue")
	ruleKeepsElement = report.NewRule("unboundedqueue", "keeps-element", "the push keeps the element it returns (e := l.PushBack(x)) for an index (a map, a slice, the item, a result), not only as the list's own read cursor: dropping the oldest item would leave that element stale (an LRU's list)")

	ruleNoSpawn        = report.NewRule("unboundedqueue", "no-spawn", "the package has no go statement and imports neither errgroup nor sync: none of its loops starts a goroutine, so the spawn kinds look at none")
	ruleNothingToQueue = report.NewRule("unboundedqueue", "nothing-to-queue", "the package has no go statement, no front re-slice (q = q[1:]), no list or deque call, no map or ring store and no reset of a shared slice: nothing in it can queue")
)

// An appendSite is an append to a shared slice, q = append(q, …), with
// what decides whether the queue kinds take it as an enqueue.
type appendSite struct {
	localValue bool // q is a field of a struct value in a local variable
	bytes      bool // q holds bytes
	batch      bool // it appends several items, or spreads a slice
	dequeued   bool // something takes items from the front of q
	trimmed    bool // a re-slice keeps q's last N items
}

// notEnqueue returns the rule that keeps the append from being an enqueue
// of a slice queue, or nil when it is one.
func (s appendSite) notEnqueue() *report.Rule {
	switch {
	case s.localValue:
		return ruleLocalValue
	case s.bytes:
		return ruleByteBuffer
	case s.batch:
		return ruleBatchAppend
	case s.dequeued:
		return nil
	case s.trimmed:
		return ruleKeepsLastN
	}
	return ruleNotFIFO
}
