package retrysend

import "github.com/queuecheck/queuecheck/analyzers/internal/report"

// The reasons retrysend does not report a non-blocking send, a loop around
// one or the store in its default. Each is decided in one place: the
// rules of a retry loop around a select in retryLoop (through retryShape),
// those of a loop around a try-send helper in helperLoop, those of a store
// in the default in overflow (through storeOf), those of a spin in
// spinLoops.
var (
	ruleCoalesces      = report.NewRule("retrysend", "coalescing-wakeup", "the send carries no data, only a wake-up (a struct{} or bool): a full channel already holds the news, so dropping, retrying or parking one grows no queue")
	ruleBoundedSpin    = report.NewRule("retrysend", "bounded-spin", "the loop tries the send a fixed number of times without sleeping: it gives up within microseconds, so it sheds and adds neither latency nor a backlog")
	ruleCappedStore    = report.NewRule("retrysend", "capped-store", "the function that stores the item in the default also measures the container (len, cap, Len) or shrinks, resets or deletes from it: the store has a cap")
	ruleLoopClauses    = report.NewRule("retrysend", "loop-clauses", "the loop around the non-blocking send has an init or post statement, or a condition that calls a function: a counted or paced loop, not one that spins")
	ruleBlocksWhenIdle = report.NewRule("retrysend", "blocks-when-idle", "when no channel is ready, the loop blocks (a select without default, a receive, a sleep, a call) or leaves: it does not spin")

	ruleNoRetryLoop        = report.NewRule("retrysend", "no-retry-loop", "the select is not a statement of a loop's body whose header a retry takes (none, !flag, ctx.Err() == nil, a count from a constant, range n, a deadline): nothing tries the send again")
	ruleDefaultLeaves      = report.NewRule("retrysend", "default-leaves", "a failed send leaves the loop or skips the rest of the attempt (the default returns, breaks or panics): the loop gives up at a full channel, which sheds")
	ruleWorksBetween       = report.NewRule("retrysend", "works-between-attempts", "the loop does more between attempts than wait, count, log or keep its books (a call, a store, a receive): its sleep is the poll interval of other work")
	ruleInnerBranch        = report.NewRule("retrysend", "inner-branch", "the send case holds a break, continue or goto before its last statement: out of the loop it would change its target, so the evidence of a retry is incomplete")
	ruleChangingItem       = report.NewRule("retrysend", "changing-item", "the channel or the item (or the helper's receiver or arguments) calls a function or changes between attempts: each attempt sends something new, which produces rather than retries")
	ruleSendStays          = report.NewRule("retrysend", "send-stays", "a successful send stays in the loop: the loop sends one item per iteration (a producer, or a spin the spin rules judge), it does not retry one")
	ruleFlagNotSend        = report.NewRule("retrysend", "flag-not-send", "the flag the loop's condition reads (for !sent) is not set by the send case alone, or the send case continues the loop: the loop ends for reasons other than the send")
	ruleNotHelperRetry     = report.NewRule("retrysend", "not-helper-retry", "the loop calls a try-send helper but does not retry it until it succeeds: it leaves when the try fails, its if does not leave on success, or the call is not the loop's condition or first test")
	ruleHelperWorksBetween = report.NewRule("retrysend", "helper-works-between-attempts", "the loop around a try-send helper does more between attempts than wait, count, log or keep its books, or leaves: its sleep is the poll interval of other work")
	ruleDefaultSheds       = report.NewRule("retrysend", "default-sheds", "the default keeps the item nowhere that grows: it returns, drops, counts, logs, does the work inline, or hands it to a goroutine that does the work or gives up")
	ruleLocalBatch         = report.NewRule("retrysend", "local-batch", "the default appends the item to a local variable, not a field or package variable: a batch the function hands back or drops, not a store that outlives the call")
	ruleLatestPerKey       = report.NewRule("retrysend", "latest-per-key", "the default stores the item in a map under a key other than its identity (v.Topic, not v.ID): the latest item per key, which the number of keys bounds")
)
