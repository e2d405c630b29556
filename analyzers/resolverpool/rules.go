package resolverpool

import "github.com/queuecheck/queuecheck/analyzers/internal/report"

// The reasons resolverpool does not report work a pool runs: those that
// skip the whole package, in the order run decides them, then those of one
// task, in the order shared decides them.
var (
	ruleStandardLibrary = report.NewRule("resolverpool", "standard-library", "the package is part of the standard library: its calls are what the tables describe, and it runs no pools anyone could fix")
	ruleNoResolving     = report.NewRule("resolverpool", "package-resolves-nothing", "no call of the package, nor of a function it calls, resolves hostnames: no pool there runs a lookup for slow work to hold up")
	ruleNoSlowWork      = report.NewRule("resolverpool", "package-has-no-slow-work", "no call of the package, nor of a function it calls, is slow blocking work or waits between attempts: nothing there holds a pool's slot for long")

	ruleQuickTask     = report.NewRule("resolverpool", "quick-task", "the task (or the implementation it may run) neither resolves hostnames nor does slow work: it holds its slot briefly")
	ruleResolvingTask = report.NewRule("resolverpool", "resolving-task", "the task resolves hostnames and holds no slot between attempts: it is the lookup that may wait, reported (if at all) where the slow work beside it is")

	ruleNoLookups            = report.NewRule("resolverpool", "pool-of-one-kind", "the pool runs slow work but no task of it resolves hostnames: a disk I/O semaphore, a pool of programs, one kind of work")
	ruleNoOtherLookups       = report.NewRule("resolverpool", "no-other-lookups", "the task retries holding its slot, but no other task of the pool resolves hostnames: only its own lookups wait behind its pauses")
	ruleRetriesBesideRetries = report.NewRule("resolverpool", "retries-beside-retries", "the task retries holding its slot, and so does every other task of the pool that resolves: retries of calls to peers, one kind of work")
)
