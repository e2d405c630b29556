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
//     field the worker calls): a task is what is sent on the channel;
//   - workers that receive data and decide what to do with it: a switch on a
//     field of the job (switch j.Kind) or on its type (switch j := j.(type)),
//     in the loop or in a function the job is handed to: each case is a kind
//     of work, with the code the worker runs for every job.
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
// A function handed to a call (lib.Retry(3, ping)) counts as resolving when
// it resolves, never as slow.
//
// A call of an interface method (t.Send(ev), store.Save(rec)) runs one of
// its implementations: the concrete types converted to the interface in this
// package and in the analyzed packages it depends on, which record theirs in
// a package fact (only types whose methods resolve or are slow, and only
// interfaces outside the standard library, so the facts stay small). A task
// that does not resolve on its own is one kind of work per implementation;
// when the implementations are unknown, the call counts as neither.
//
// The check reports, at the submission of each slow task (at the case of a
// slow kind of job, at the interface call for implementations in a worker's
// loop), a pool whose work includes resolving work and slow work that does
// not resolve; the related position is resolving work, and the message names
// both call chains:
//
//	semaphore sem of 8 runs slow work (compress → os.WriteFile) beside work
//	that resolves hostnames (fetch → http.Client.Do), so lookups wait behind
//	it; give the slow work a pool of its own
//
// It also reports a task that retries resolving work and waits between
// attempts (time.Sleep, a timer in a select that may also watch ctx.Done(),
// a helper that only pauses, a retry helper such as lib.Retry) while it holds
// its slot, in a pool where another task resolves without such waits: the
// other task's lookups queue behind the wait.
//
// It leaves alone pools whose work is all of one kind (an HTTP fan-out
// limiter, a disk I/O semaphore, retries beside retries), tasks that resolve
// and also do slow work once, work done before the acquire or after the
// release (a release through a method of the package ends the task),
// goroutines a task starts without handing them its release, kinds of job no
// send selects when every send names its kind, interface calls whose
// implementations are unknown, loops driven by a ticker, and unrelated pools
// in the same function.
//
// The suggested fix gives the slow work its own pool: it declares a sibling
// beside the shared pool with the same constructor and limit (a second
// semaphore.NewWeighted, a second errgroup.Group with the same SetLimit and a
// Wait beside each Wait, a second token channel filled the same way, a second
// channel with the same workers started for it, closed where the first is),
// and routes the slow submission, its acquire and its release to it; for
// jobs dispatched on their kind, it routes every send of the slow kind. When
// no such fix would compile, the finding has none and its message says what
// to do by hand instead: the pool is an exported field, a parameter or
// created outside the package; the task's release happens outside its own
// code; the workers cannot be copied; a send does not name its job's kind;
// the slow work is one implementation of an interface; the pool is declared
// or created in a generated file.
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
