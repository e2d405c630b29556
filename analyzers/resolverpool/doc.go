// Package resolverpool defines an Analyzer that reports slow blocking work
// sharing a bounded pool with work that resolves hostnames.
//
// # Analyzer resolverpool
//
// resolverpool: report slow work that shares a pool with DNS resolution
//
// A bounded pool is a queue of tasks. When tasks that resolve hostnames share
// it with slow blocking work, every lookup waits for a slot behind that work
// and shows up as a connection timeout to an unrelated host. Measured in
// Python's asyncio: a lookup queued in the same pool behind 60 one-second jobs
// took 1,951 ms instead of 1.01 ms; with the jobs on a pool of their own it
// took 0.23 ms.
//
// Pools are recognised by the variable or struct field that holds them:
//
//   - a *semaphore.Weighted: a task is the code between Acquire (or a
//     successful TryAcquire) and Release;
//   - an errgroup.Group with SetLimit: a task is a function passed to Go or
//     TryGo;
//   - a buffered channel used as a semaphore: a send that acquires and a
//     receive that releases (sem <- struct{}{} … <-sem), or a receive from a
//     pre-filled token channel that acquires and a send that gives the token
//     back;
//   - workers that receive tasks from a channel and run them (for f := range
//     work { f() }, a select receive in a loop, or jobs whose method or func
//     field the worker calls): a task is what is sent on the channel.
//
// Resolving work is a call of net.Lookup*, (*net.Resolver).Lookup*, net.Dial,
// net.DialTimeout, (*net.Dialer).Dial*, net.Resolve{IP,TCP,UDP}Addr,
// tls.Dial*, http.Get/Head/Post/PostForm, (*http.Client).Do/Get/Head/Post/
// PostForm, (*http.Transport).RoundTrip, net/rpc and net/smtp dials. Slow work
// is time.Sleep, file I/O (os.ReadFile, os.WriteFile, os.ReadDir, reads,
// writes and Sync of an *os.File), running a program with os/exec, and
// database/sql queries and execs. Both are transitive: a function that calls
// one, in this package or another, counts. Each function's classification,
// with one example call chain, travels to other packages as a fact.
// Calls of interface methods and function values count as neither, unless the
// task itself names the function. A function handed to a call
// (lib.Retry(3, ping)) counts as resolving when it resolves, never as slow:
// a retry helper that sleeps between attempts at a network call does not make
// its caller slow work.
//
// The check reports, at the submission of each slow task, a pool whose tasks
// include resolving work and slow work that does not resolve; the related
// position is a resolving task, and the message names both call chains:
//
//	semaphore sem of 8 runs slow work (compress → os.WriteFile) beside work
//	that resolves hostnames (fetch → http.Client.Do), so lookups wait behind
//	it; give the slow work a pool of its own
//
// It leaves alone pools whose tasks are all of one kind (an HTTP fan-out
// limiter, a disk I/O semaphore), tasks that resolve and also sleep (a retry
// of the same network call is still resolving work), work done before the
// acquire or after the release, goroutines a task starts without handing them
// its release, and unrelated pools in the same function.
//
// The suggested fix gives the slow work its own pool: it declares a sibling
// beside the shared pool with the same constructor and limit (a second
// semaphore.NewWeighted, a second errgroup.Group with the same SetLimit and a
// Wait beside each Wait, a second token channel filled the same way, a second
// channel with the same workers started for it, closed where the first is),
// and routes the slow submission, its acquire and its release to it. When no
// such fix would compile (the pool arrives as a parameter, a release happens
// in another function, workers run in a method), the check stays silent.
//
// Flags:
//
//	-resolverpool.resolve  extra resolving functions, comma-separated
//	-resolverpool.slow     extra slow functions, comma-separated
//
// Both take "pkg/path.Func", and "pkg/path.Type.Method" or
// "(*pkg/path.Type).Method", for example "example.com/dns.Client.Query".
//
// Categories: resolverpool/semaphore, resolverpool/errgroup,
// resolverpool/tokenchan, resolverpool/workers. Suppress one finding with a
// comment on its line or the line above:
//
//	//queuecheck:ignore resolverpool reason why this pool is fine
package resolverpool
