package spawn

import (
	"go/ast"

	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// A rule is one reason the spawn kinds stay silent about a goroutine they
// looked at: a limit in force, a wait per item, a stream that bounds itself,
// a goroutine per entity rather than per message. Its [report.Rule] (of
// check unboundedqueue) names it for -why, the corpus counts and the docs.
type rule struct {
	*report.Rule

	// holds decides the rule for a candidate spawn; nil for the rules a
	// kind decides for a whole loop (not-a-listing, no-bounded-sibling)
	// and for not-per-item and not-in-loop, which say that no kind took the spawn.
	holds func(c *checker, x candidate) bool
}

// newRule registers a rule of the spawn kinds.
func newRule(name, doc string, holds func(c *checker, x candidate) bool) *rule {
	return &rule{Rule: report.NewRule("unboundedqueue", name, doc), holds: holds}
}

// The rules, in the order of Rules.
var (
	ruleConsumesHere     = newRule("consumes-here", "the function around a goroutine per send also receives from the channel: a blocking send there would deadlock", func(c *checker, x candidate) bool { return c.receivesIn(x.fn, x.ch) })
	ruleLockHeld         = newRule("lock-held", "the goroutine per send starts while a sync mutex is held: it may exist so the consumer, which takes the lock, cannot deadlock with the sender", func(c *checker, x candidate) bool { return c.locksHeldAt(x.cur, x.fn) })
	ruleOverflowDefault  = newRule("overflow-default", "the goroutine per send is the default case of a select that sends to the channel: retrysend reports and fixes that overflow", func(c *checker, x candidate) bool { return shared.InOverflowDefault(c.pass.TypesInfo, x.cur, x.ch) })
	rulePerSendFinding   = newRule("per-send-finding", "the go statement is reported as goroutinepersend, whose fix also bounds it", func(c *checker, x candidate) bool { g, ok := x.sp.stmt.(*ast.GoStmt); return ok && c.persend[g] })
	ruleNoIterationState = newRule("no-iteration-state", "the goroutine reads no variable the loop declares: it is not per item (go p.Kill() once a counter reaches a limit)", func(c *checker, x candidate) bool { return !c.usesIterationState(x.sp, x.loop) })
	ruleNoContext        = newRule("no-context", "the fan-out's work takes no context and does no blocking work: a goroutine per element that only computes reaches nothing outside the process", func(c *checker, x candidate) bool { return !c.takesContext(x.sp) && c.spawnWork(x.sp) == nil })
	ruleAcquiredBefore   = newRule("acquired-before", "a limiter is acquired before the spawn on its path (a semaphore send or token receive, Acquire, Wait, Take, a function that does one), or the spawn is Go on a limited errgroup", func(c *checker, x candidate) bool { return c.limitedBefore(x.loop, x.cur, x.recv) })
	ruleCountGuard       = newRule("count-guard", "an if between the loop and the spawn compares a count of work in flight with a limit (inflight < max), or skips the spawn at the limit", func(c *checker, x candidate) bool { return c.guardedByCount(x.loop, x.cur) })
	ruleWaitsEach        = newRule("waits-each", "after the spawn and before the next item the loop waits (a Wait, a receive of the result) or leaves the loop", func(c *checker, x candidate) bool { return c.waitsAfter(x.loop, x.cur) })
	ruleCounterCap       = newRule("counter-cap", "before the spawn the loop leaves once a counter it steps reaches a bound: it starts a bounded number of goroutines", func(c *checker, x candidate) bool { return c.cappedByCounter(x.loop, x.cur) })
	ruleEntityItems      = newRule("entity-items", "the items are connections, streams or other resources with a Close method, or hand one out, or components started with a context (a Start, Run or Serve method taking one: knowledge list lifecycle-methods): one goroutine per entity, not per message", func(c *checker, x candidate) bool { return c.entityItems(x.stream) })
	ruleLongLived        = newRule("long-lived", "the goroutine loops over a stream itself or in a function of the package it calls: one long-lived goroutine per entity", func(c *checker, x candidate) bool { return c.longLived(x.sp) })
	ruleLivesUntilStop   = newRule("lives-until-stop", "the goroutine ends by waiting for a stop signal the same for every item (<-quit, <-ctx.Done()): it lives as long as the entity it serves", func(c *checker, x candidate) bool { return c.untilStop(x.sp, x.loop) })
	ruleRestartsWorker   = newRule("restarts-worker", "the goroutine sends on the stream the loop reads, once and not in a loop: the items are the exits of the loop's own workers, and each spawn replaces one", func(c *checker, x candidate) bool { return c.restartsWorker(x.sp, x.stream) })
	ruleLimitedGroup     = newRule("limited-group", "errgroup.Go on a group that has or may get a limit: SetLimit(N), a field, package variable or parameter, a group per iteration, or one handed to other code", func(c *checker, x candidate) bool { return !c.unlimitedGroup(x.sp, x.loop, x.cur) })
	ruleAMQPPrefetch     = newRule("amqp-prefetch", "the stream carries AMQP deliveries of a consumer with manual acks and a non-zero Qos: the broker's prefetch count bounds the goroutines in flight", func(c *checker, x candidate) bool { return c.prefetchBounded(x.stream) })
	ruleLockstepReply    = newRule("lockstep-reply", "the loop reads requests with Recv and the goroutine sends the reply on the same stream: the peer sends the next request once it has the reply", func(c *checker, x candidate) bool { return c.repliesInLockstep(x.sp, x.stream, x.recv) })
	ruleFiniteStream     = newRule("finite-stream", "the stream is a channel this call makes and closes (or gets from a function of the package that does): one batch, not a service's input", func(c *checker, x candidate) bool { return c.finiteStream(x.stream, x.loop) })
	ruleNotListing       = newRule("not-a-listing", "the fan-out ranges over a value whose size the check cannot trace to the data (a literal, a configured field, a parameter no caller fills from the data): configured or unknown, so no evidence", nil)
	ruleNoBoundedSibling = newRule("no-bounded-sibling", "the package bounds no fan-out elsewhere (SetLimit, a semaphore channel), so nothing says its backend cannot take one call per element", nil)
	ruleNotInLoop        = newRule("not-in-loop", "the goroutine starts in no loop, and not as a detached goroutine of a request's or an event's handler (a go statement in the body of a declared function or a literal taking an *http.Request, a web framework's request context (knowledge list request-context-types), a request or a message, of a method of an RPC service's interface (FooServer, which RegisterFooServer registers), or of an event framework's callback: a literal given as a field of its handler struct, a method of its handler interface; not in a goroutine's literal): one goroutine per call of its function, which no spawn kind counts", nil)
	ruleNotPerItem       = newRule("not-per-item", "the go statement (or errgroup or WaitGroup Go) runs in a loop that takes no item from a stream (a range over a channel, an endless loop that receives or reads) and ranges over no slice or map, or deeper inside one: a counted, polling or retry loop, whose goroutines no spawn kind counts", nil)
)

// Rules lists every reason the spawn kinds stay silent about a spawn.
var Rules = rulesOf(
	ruleConsumesHere, ruleLockHeld, ruleOverflowDefault,
	rulePerSendFinding, ruleNoIterationState, ruleNoContext,
	ruleAcquiredBefore, ruleCountGuard, ruleWaitsEach, ruleCounterCap,
	ruleEntityItems, ruleLongLived, ruleLivesUntilStop, ruleRestartsWorker,
	ruleLimitedGroup, ruleAMQPPrefetch, ruleLockstepReply, ruleFiniteStream,
	ruleNotListing, ruleNoBoundedSibling, ruleNotPerItem, ruleNotInLoop,
	ruleNoBlockingWork, ruleFixedSet, ruleAcquiredInside, rulePerDestination, ruleReplacesEntry, rulePaidPerElement, // datasize.go
	ruleRequestContext, ruleWaitedByCaller, ruleLocalPipe, ruleGuardedStart, // detached.go
	ruleLifecycle,                                                                       // abandoned.go
	ruleHandlerNoWork,                                                                   // asyncwrap.go
	ruleNotPerKey, ruleNotOwnWork, ruleManagedEntry, ruleFixedRegistry, ruleRegistryCap, // perkey.go
)

func rulesOf(rs ...*rule) []*report.Rule {
	var out []*report.Rule
	for _, r := range rs {
		out = append(out, r.Rule)
	}
	return out
}
