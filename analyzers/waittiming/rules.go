package waittiming

import (
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/report"
)

// The reasons waittiming does not report a measurement across a wait (at
// the wait, or at the measurement's end), a retry or a hand-off in one (at
// the loop, the send or the measurement's end), or a deadline set before a
// wait (at the call that derives it); and the one that skips a package.
var (
	ruleNoClock = report.NewRule("waittiming", "no-clock", "the package imports neither time, context nor the Prometheus client, and knows no timer helper: it can take no measurement and set no deadline")

	ruleRecordsQueueing  = report.NewRule("waittiming", "records-queueing", "the duration since a field stamped when its item was queued is recorded under a name that says it includes the queueing (total-words, queue-record-words): the time queued is the figure, not a hazard in it")
	ruleStartElsewhere   = report.NewRule("waittiming", "start-elsewhere", "the start of the duration is not a timestamp this function takes before the end, nor a parameter named like a start that it reads against the clock: a package variable, a timer held in a field, a parameter of an outer function, one named like an event (lastSeen: the time since is an age), or one only handed to a recorder named like a start (which may be a time range's bound), set by code whose waits the check does not follow")
	ruleStartInField     = report.NewRule("waittiming", "start-in-field", "the start is a time field of a value (time.Since(req.start)) that the check does not see stamped just before the value is sent on a channel that this function, or the one it hands the value to, takes it from")
	ruleEndElsewhere     = report.NewRule("waittiming", "end-elsewhere", "the measurement ends in a function literal that runs when something else calls it (a handler, a callback) or in one nested deeper: the span is not one call's work")
	ruleStartEndMismatch = report.NewRule("waittiming", "start-end-mismatch", "the end and the variable's last start before it do not pair: a timer ended by a stop of another timer type or helper, or a timestamp ended by a timer's stop")
	ruleEndUnlocated     = report.NewRule("waittiming", "end-unlocated", "where the measurement reads its end from the clock is not found: t2.Sub(start) with t2 no clock reading of this function before it (a parameter, a field), or an end outside any function")
	ruleNoWaitInSpan     = report.NewRule("waittiming", "no-wait-in-span", "no admission wait (a semaphore, limiter, pool, errgroup Go, a -waittiming.waits call) runs between the start and the end of the measurement")
	rulePoolKeepsStats   = report.NewRule("waittiming", "pool-keeps-wait-stats", "the wait is a checkout from a type whose name ends in pool (Get(ctx) of a connection, pool-words) whose body no fact knows as a wait: such pools keep their own wait statistics (a wait count and duration beside the figure), so the wait is measured apart; a deadline set before one is still reported")
	ruleFreshLimiter     = report.NewRule("waittiming", "fresh-limiter", "the wait is on a semaphore, limiter or group its own function created just before and waits on once: nobody else holds a slot, so it does not block")
	ruleWaitOutsideLit   = report.NewRule("waittiming", "wait-outside-literal", "the measurement ends in a goroutine or literal that the wait's own statement holds (a select case that starts it): the wait decides whether it starts, it does not delay the work inside")
	ruleReturnsBefore    = report.NewRule("waittiming", "returns-before-end", "the wait is on a branch that returns (or otherwise leaves) before the end of the measurement: that path records nothing")
	ruleBatchWait        = report.NewRule("waittiming", "batch-wait", "the wait is g.Wait() of a limited errgroup, not a Go that hands it the work: a batch timed around its Wait includes its own queueing")
	ruleWaitPerIteration = report.NewRule("waittiming", "wait-per-iteration", "the wait is in a loop that does not hold the start and is no loop of attempts that leaves once one succeeds: a wait per iteration of a batch the measurement spans")
	ruleErrorBranchWait  = report.NewRule("waittiming", "error-branch-wait", "the wait happens only on a branch taken when something failed (if err != nil)")
	ruleRetryPath        = report.NewRule("waittiming", "retry-path", "the wait is on a path that goes round again by goto and does not reach the end: a retry's")
	ruleNoWorkAfter      = report.NewRule("waittiming", "no-work-after", "no work runs between the wait and the end of the measurement: a timer of the wait alone is the split already")
	ruleSplitTimestamp   = report.NewRule("waittiming", "split-timestamp", "a second timestamp is taken after the wait: wait and run time are measured apart")
	ruleWorkTimedApart   = report.NewRule("waittiming", "work-timed-apart", "the work after the wait is calls of functions of this package that each take a timestamp before their own work and record the time since it: the figure less theirs is the wait")
	ruleEndToEnd         = report.NewRule("waittiming", "end-to-end", "the deferred measurement also times paths that return before the wait: an end-to-end figure of every path, not of the wait")
	ruleAbsoluteDeadline = report.NewRule("waittiming", "absolute-deadline", "context.WithDeadline at a time not read from the clock here: the caller's deadline, the budget of the whole call")
	ruleNamedForQueue    = report.NewRule("waittiming", "deadline-named-for-queue", "the timeout's name says it bounds the queue (maxQueueDuration, queueTimeout): a bound on the wait by design, when its context bounds no work after the wait")
	ruleAwaitsReply      = report.NewRule("waittiming", "awaits-reply", "the context goes with the job to a queue or pool, and the caller then waits for the reply under it: the whole call's budget, end to end")
	ruleUsedBeforeWait   = report.NewRule("waittiming", "used-before-wait", "the context (or its cancel) is used before the wait other than by bookkeeping (handed to a call that is work, stored, sent or captured): a budget for the work before the wait too")

	ruleNotLocalPair    = report.NewRule("waittiming", "deadline-not-local", "the derived context is not assigned, with its cancel, to local variables by a statement of its own (ctx, cancel := context.WithTimeout(…)): where it goes is out of this function's sight")
	ruleReassigned      = report.NewRule("waittiming", "context-reassigned", "the context variable is assigned again before the wait: the deadline does not reach it")
	ruleNoWaitAfter     = report.NewRule("waittiming", "no-wait-after-deadline", "no admission wait follows the deadline among the statements after it: it bounds the work alone")
	ruleCancelAtWait    = report.NewRule("waittiming", "cancel-at-wait", "the statement of the wait uses the cancel function too: the deadline is managed at the wait, not a budget for the work after it")
	ruleUnusedAfterWait = report.NewRule("waittiming", "unused-after-wait", "no work after the wait (and its error check) takes the context: the deadline bounds the wait alone")

	ruleRecordsWaiting  = report.NewRule("waittiming", "records-waiting", "the measurement's record names a figure of waiting or retrying (a readiness time, a time until, attempts): the pauses between attempts are what it measures")
	ruleNotOnEveryPath  = report.NewRule("waittiming", "not-on-every-path", "the retry loop, the send to a job queue or the retrying call does not run once on every path from the start to the end (it is in a loop the start precedes, an error branch, or a branch that leaves first)")
	ruleEndsInLoop      = report.NewRule("waittiming", "ends-in-loop", "the measurement ends inside the retry loop: it times attempts, not the retries")
	ruleNoReplyWait     = report.NewRule("waittiming", "no-reply-wait", "the request sent to the job queue carries no reply channel the function receives from before the end: it hands the job off and does not wait for the worker")
	ruleCalleeElsewhere = report.NewRule("waittiming", "callee-elsewhere", "the measurement's only work is a call of a function of another package that has no retries fact (its package was not analyzed, or its loop does not pause between attempts), is no library call that retries by option (-waittiming.retries), and is handed no value, as an interface of one method, whose method retries")
	ruleCalleeDynamic   = report.NewRule("waittiming", "callee-dynamic", "the measurement's only work is a call the check cannot name: an interface method with an implementation in reach that does not retry, or none known; a func value assigned more than one function, or none it sees")
	ruleCalleeWaitTotal = report.NewRule("waittiming", "callee-wait-total", "the measured call waits for admission inside before its work, and the measurement is the latency users see (it spans a handler's whole body, or is named a total): the figure should include the queueing")
	ruleTotalLatency    = report.NewRule("waittiming", "total-latency", "the measured call retries inside, and the measurement is the latency users see (it spans a handler's whole body, or is named a total): the figure should include the retries")
)

// silenceWait records that rule kept the wait at wcur from making a
// measurement across it a finding.
func (c *env) silenceWait(wcur inspector.Cursor, rule *report.Rule) {
	c.rep.Silence(wcur.Node(), rule)
}

// silenceMeasurement records that rule kept the measurement m from being a
// finding, where a finding about it would be.
func (c *env) silenceMeasurement(m *measurement, rule *report.Rule) {
	pos, end := measuredAt(m)
	c.rep.SilenceAt(pos, end, rule)
}
