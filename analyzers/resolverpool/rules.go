package resolverpool

import "github.com/queuecheck/queuecheck/analyzers/internal/report"

// The reasons resolverpool does not report work a pool runs, in the order
// shared decides them.
var (
	ruleNoLookups            = report.NewRule("resolverpool", "pool-of-one-kind", "the pool runs slow work but no task of it resolves hostnames: a disk I/O semaphore, a pool of programs, one kind of work")
	ruleNoOtherLookups       = report.NewRule("resolverpool", "no-other-lookups", "the task retries holding its slot, but no other task of the pool resolves hostnames: only its own lookups wait behind its pauses")
	ruleRetriesBesideRetries = report.NewRule("resolverpool", "retries-beside-retries", "the task retries holding its slot, and so does every other task of the pool that resolves: retries of calls to peers, one kind of work")
)
