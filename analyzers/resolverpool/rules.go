package resolverpool

import (
	"github.com/queuecheck/queuecheck/analyzers/internal/pools"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
)

// The reasons resolverpool does not report work a pool runs: those that
// skip the whole package, in the order run decides them, then those that
// keep a candidate from being a pool at all (the pool finder decides them,
// rejectRules names them), then those of one task, in the order shared
// decides them.
var (
	ruleStandardLibrary = report.NewRule("resolverpool", "standard-library", "the package is part of the standard library: its calls are what the tables describe, and it runs no pools anyone could fix")
	ruleNoResolving     = report.NewRule("resolverpool", "package-resolves-nothing", "no call of the package, nor of a function it calls, resolves hostnames: no pool there runs a lookup for slow work to hold up")
	ruleNoSlowWork      = report.NewRule("resolverpool", "package-has-no-slow-work", "no call of the package, nor of a function it calls, is slow blocking work or waits between attempts: nothing there holds a pool's slot for long")

	ruleAcquiredTwoWays = report.NewRule("resolverpool", "pool-acquired-two-ways", "the semaphore is acquired both through a helper that waits and directly: not one pool the check understands, so it looks at none of its tasks")
	ruleNoLimit         = report.NewRule("resolverpool", "group-without-limit", "the errgroup's SetLimit removes the limit (SetLimit(-1)): an unbounded group is no pool, and its tasks hold no slot")
	ruleWorkersDiffer   = report.NewRule("resolverpool", "workers-differ", "the workers that receive from the channel run what they receive in different ways (one calls it, another dispatches on its data): not one pool the check understands")
	ruleNoRelease       = report.NewRule("resolverpool", "no-paired-release", "no acquire of the semaphore pairs with a release the check finds in the acquiring function (in its body or a literal it returns): what holds the slot cannot be told, so no task is known")

	ruleQuickTask     = report.NewRule("resolverpool", "quick-task", "the task (or the implementation it may run) neither resolves hostnames nor does slow work: it holds its slot briefly")
	ruleResolvingTask = report.NewRule("resolverpool", "resolving-task", "the task resolves hostnames and holds no slot between attempts: it is the lookup that may wait, reported (if at all) where the slow work beside it is")

	ruleNoLookups            = report.NewRule("resolverpool", "pool-of-one-kind", "the pool runs slow work but no task of it resolves hostnames: a disk I/O semaphore, a pool of programs, one kind of work")
	ruleNoOtherLookups       = report.NewRule("resolverpool", "no-other-lookups", "the task retries holding its slot, but no other task of the pool resolves hostnames: only its own lookups wait behind its pauses")
	ruleRetriesBesideRetries = report.NewRule("resolverpool", "retries-beside-retries", "the task retries holding its slot, and so does every other task of the pool that resolves: retries of calls to peers, one kind of work")
)

// rejectRules names, per reason the pool finder rejects a candidate, the
// rule said at its uses.
var rejectRules = map[pools.Reject]*report.Rule{
	pools.AcquiredTwoWays: ruleAcquiredTwoWays,
	pools.NoLimit:         ruleNoLimit,
	pools.WorkersDiffer:   ruleWorkersDiffer,
	pools.NoRelease:       ruleNoRelease,
}
