package spawn

import (
	"go/ast"

	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// A Rule is one reason the spawn kinds stay silent about a goroutine they
// looked at: a limit in force, a wait per item, a stream that bounds itself,
// a goroutine per entity rather than per message. Its Name is stable
// (kebab-case, for a -why flag, the corpus counts and the docs); its Doc is
// one line.
type Rule struct {
	Name string
	Doc  string

	// holds decides the rule for a candidate spawn; nil for the rules a
	// kind decides for a whole loop (not-a-listing, no-bounded-sibling).
	holds func(c *checker, x candidate) bool
}

// The rules, in the order of Rules.
var (
	ruleConsumesHere     = &Rule{Name: "consumes-here", Doc: "the function around a goroutine per send also receives from the channel: a blocking send there would deadlock", holds: func(c *checker, x candidate) bool { return c.receivesIn(x.fn, x.ch) }}
	ruleLockHeld         = &Rule{Name: "lock-held", Doc: "the goroutine per send starts while a sync mutex is held: it may exist so the consumer, which takes the lock, cannot deadlock with the sender", holds: func(c *checker, x candidate) bool { return c.locksHeldAt(x.cur, x.fn) }}
	ruleOverflowDefault  = &Rule{Name: "overflow-default", Doc: "the goroutine per send is the default case of a select that sends to the channel: retrysend reports and fixes that overflow", holds: func(c *checker, x candidate) bool { return shared.InOverflowDefault(c.pass.TypesInfo, x.cur, x.ch) }}
	rulePerSendFinding   = &Rule{Name: "per-send-finding", Doc: "the go statement is reported as goroutinepersend, whose fix also bounds it", holds: func(c *checker, x candidate) bool { g, ok := x.sp.stmt.(*ast.GoStmt); return ok && c.persend[g] }}
	ruleNoIterationState = &Rule{Name: "no-iteration-state", Doc: "the goroutine reads no variable the loop declares: it is not per item (go p.Kill() once a counter reaches a limit)", holds: func(c *checker, x candidate) bool { return !c.usesIterationState(x.sp, x.loop) }}
	ruleNoContext        = &Rule{Name: "no-context", Doc: "the fan-out's work takes no context: a goroutine per element that only computes reaches nothing outside the process", holds: func(c *checker, x candidate) bool { return !c.takesContext(x.sp) }}
	ruleAcquiredBefore   = &Rule{Name: "acquired-before", Doc: "a limiter is acquired before the spawn on its path (a semaphore send or token receive, Acquire, Wait, Take, a function that does one), or the spawn is Go on a limited errgroup", holds: func(c *checker, x candidate) bool { return c.limitedBefore(x.loop, x.cur, x.recv) }}
	ruleCountGuard       = &Rule{Name: "count-guard", Doc: "an if between the loop and the spawn compares a count of work in flight with a limit (inflight < max), or skips the spawn at the limit", holds: func(c *checker, x candidate) bool { return c.guardedByCount(x.loop, x.cur) }}
	ruleWaitsEach        = &Rule{Name: "waits-each", Doc: "after the spawn and before the next item the loop waits (a Wait, a receive of the result) or leaves the loop", holds: func(c *checker, x candidate) bool { return c.waitsAfter(x.loop, x.cur) }}
	ruleCounterCap       = &Rule{Name: "counter-cap", Doc: "before the spawn the loop leaves once a counter it steps reaches a bound: it starts a bounded number of goroutines", holds: func(c *checker, x candidate) bool { return c.cappedByCounter(x.loop, x.cur) }}
	ruleEntityItems      = &Rule{Name: "entity-items", Doc: "the items are connections, streams or other resources with a Close method, or hand one out: one goroutine per entity, not per message", holds: func(c *checker, x candidate) bool { return c.entityItems(x.stream) }}
	ruleLongLived        = &Rule{Name: "long-lived", Doc: "the goroutine loops over a stream itself or in a function of the package it calls: one long-lived goroutine per entity", holds: func(c *checker, x candidate) bool { return c.longLived(x.sp) }}
	ruleLivesUntilStop   = &Rule{Name: "lives-until-stop", Doc: "the goroutine ends by waiting for a stop signal the same for every item (<-quit, <-ctx.Done()): it lives as long as the entity it serves", holds: func(c *checker, x candidate) bool { return c.untilStop(x.sp, x.loop) }}
	ruleRestartsWorker   = &Rule{Name: "restarts-worker", Doc: "the goroutine sends on the stream the loop reads: the items are the exits of the loop's own workers, and each spawn replaces one", holds: func(c *checker, x candidate) bool { return c.restartsWorker(x.sp, x.stream) }}
	ruleLimitedGroup     = &Rule{Name: "limited-group", Doc: "errgroup.Go on a group that has or may get a limit: SetLimit(N), a field, package variable or parameter, a group per iteration, or one handed to other code", holds: func(c *checker, x candidate) bool { return !c.unlimitedGroup(x.sp, x.loop, x.cur) }}
	ruleAMQPPrefetch     = &Rule{Name: "amqp-prefetch", Doc: "the stream carries AMQP deliveries of a consumer with manual acks and a non-zero Qos: the broker's prefetch count bounds the goroutines in flight", holds: func(c *checker, x candidate) bool { return c.prefetchBounded(x.stream) }}
	ruleLockstepReply    = &Rule{Name: "lockstep-reply", Doc: "the loop reads requests with Recv and the goroutine sends the reply on the same stream: the peer sends the next request once it has the reply", holds: func(c *checker, x candidate) bool { return c.repliesInLockstep(x.sp, x.stream, x.recv) }}
	ruleFiniteStream     = &Rule{Name: "finite-stream", Doc: "the stream is a channel this call makes and closes (or gets from a function of the package that does): one batch, not a service's input", holds: func(c *checker, x candidate) bool { return c.finiteStream(x.stream, x.loop) }}
	ruleNotListing       = &Rule{Name: "not-a-listing", Doc: "the fan-out ranges over a value no call in the function returned with an error (a field, a parameter, a literal): its size is configured, not data"}
	ruleNoBoundedSibling = &Rule{Name: "no-bounded-sibling", Doc: "the package bounds no fan-out elsewhere (SetLimit, a semaphore channel), so nothing says its backend cannot take one call per element"}
)

// Rules lists every reason the spawn kinds stay silent about a spawn.
var Rules = []*Rule{
	ruleConsumesHere, ruleLockHeld, ruleOverflowDefault,
	rulePerSendFinding, ruleNoIterationState, ruleNoContext,
	ruleAcquiredBefore, ruleCountGuard, ruleWaitsEach, ruleCounterCap,
	ruleEntityItems, ruleLongLived, ruleLivesUntilStop, ruleRestartsWorker,
	ruleLimitedGroup, ruleAMQPPrefetch, ruleLockstepReply, ruleFiniteStream,
	ruleNotListing, ruleNoBoundedSibling,
}
