package waittiming

import (
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/report"
)

// The reasons waittiming does not report a measurement across a wait (at
// the wait, or at the measurement's end) or a deadline set before one (at
// the call that derives it).
var (
	ruleBatchWait        = report.NewRule("waittiming", "batch-wait", "the wait is g.Wait() of a limited errgroup, not a Go that hands it the work: a batch timed around its Wait includes its own queueing")
	ruleWaitPerIteration = report.NewRule("waittiming", "wait-per-iteration", "the wait is in a loop that does not hold the start: a wait per iteration of a batch the measurement spans")
	ruleErrorBranchWait  = report.NewRule("waittiming", "error-branch-wait", "the wait happens only on a branch taken when something failed (if err != nil)")
	ruleRetryPath        = report.NewRule("waittiming", "retry-path", "the wait is on a path that goes round again by goto and does not reach the end: a retry's")
	ruleNoWorkAfter      = report.NewRule("waittiming", "no-work-after", "no work runs between the wait and the end of the measurement: a timer of the wait alone is the split already")
	ruleSplitTimestamp   = report.NewRule("waittiming", "split-timestamp", "a second timestamp is taken after the wait: wait and run time are measured apart")
	ruleEndToEnd         = report.NewRule("waittiming", "end-to-end", "the deferred measurement also times paths that return before the wait: an end-to-end figure of every path, not of the wait")
	ruleAbsoluteDeadline = report.NewRule("waittiming", "absolute-deadline", "context.WithDeadline at a time not read from the clock here: the caller's deadline, the budget of the whole call")
	ruleNamedForQueue    = report.NewRule("waittiming", "deadline-named-for-queue", "the timeout's name says it bounds the queue (maxQueueDuration, queueTimeout): a bound on the wait by design")
	ruleAwaitsReply      = report.NewRule("waittiming", "awaits-reply", "the context goes with the job to a queue or pool, and the caller then waits for the reply under it: the whole call's budget, end to end")
	ruleUsedBeforeWait   = report.NewRule("waittiming", "used-before-wait", "the context (or its cancel) is used before the wait: a budget for the work before the wait too")
)

// silenceWait records that rule kept the wait at wcur from making a
// measurement across it a finding; a nil rule is a rejection with no name.
func (c *env) silenceWait(wcur inspector.Cursor, rule *report.Rule) {
	if rule != nil {
		c.rep.Silence(wcur.Node(), rule)
	}
}

// silenceMeasurement records that rule kept the measurement m from being a
// finding, where a finding about it would be.
func (c *env) silenceMeasurement(m *measurement, rule *report.Rule) {
	pos, end := measuredAt(m)
	c.rep.SilenceAt(pos, end, rule)
}
