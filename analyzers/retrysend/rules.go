package retrysend

import "github.com/queuecheck/queuecheck/analyzers/internal/report"

// The reasons retrysend does not report a non-blocking send, a loop around
// one or the store in its default.
var (
	ruleCoalesces      = report.NewRule("retrysend", "coalescing-wakeup", "the send carries no data, only a wake-up (a struct{} or bool): a full channel already holds the news, so dropping, retrying or parking one grows no queue")
	ruleBoundedSpin    = report.NewRule("retrysend", "bounded-spin", "the loop tries the send a fixed number of times without sleeping: it gives up within microseconds, so it sheds and adds neither latency nor a backlog")
	ruleCappedStore    = report.NewRule("retrysend", "capped-store", "the function that stores the item in the default also measures the container (len, cap, Len) or shrinks, resets or deletes from it: the store has a cap")
	ruleLoopClauses    = report.NewRule("retrysend", "loop-clauses", "the loop around the non-blocking send has an init or post statement, or a condition that calls a function: a counted or paced loop, not one that spins")
	ruleBlocksWhenIdle = report.NewRule("retrysend", "blocks-when-idle", "when no channel is ready, the loop blocks (a select without default, a receive, a sleep, a call) or leaves: it does not spin")
)
