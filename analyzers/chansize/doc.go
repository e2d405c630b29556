// Package chansize defines an Analyzer that reports channel buffers so large
// that they store overload instead of pushing back on the producer.
//
// # Analyzer chansize
//
// chansize: report oversized channel buffers
//
// A channel buffer absorbs bursts; it cannot absorb a sustained difference
// between how fast items arrive and how fast they are consumed. A huge buffer
// behaves like an unbounded queue until it fills: minutes of latency and
// gigabytes of memory before anything fails, where a small bound would have
// slowed the producer to the consumer's pace at once.
//
// The check reports make(chan T, N) where N is a constant and either
//
//   - N × sizeof(T) is at least -chansize.maxbytes (default 1 MiB), or
//   - N is at least -chansize.max (default 65536), whatever the size of T
//     (as long as T is not zero-sized).
//
// For pointer-like elements (pointers, slices, maps, strings, interfaces, ...)
// the memory bound counts only the element itself, so the message says "plus
// what each element references". When the make sits in a loop or in an HTTP
// handler the message says so: the cost is paid per iteration or per request.
//
// The check leaves alone capacities that are not constants (len(items), the
// number of senders, runtime.NumCPU(), a configuration value) and channels of
// zero-size elements such as chan struct{}. Constants are evaluated by the
// type checker, so a local variable that shadows a package constant of the
// same name is never mistaken for it.
//
// The suggested fix bounds the buffer within the limits, at the largest power
// of two up to 1024 that fits them. Where the capacity is an unexported
// constant of the package used only as channel capacities, the fix edits the
// constant's declaration instead of the make call. Where the capacity names
// any other constant (exported, used for something else here or in a file
// the build leaves out, declared in a generated file, another package's, one
// whose value a later constant of its block repeats, or one whose value
// names an imported package), the fix caps it at the make call,
// make(chan T, min(Const, 1024)): the constant stays used and keeps saying
// where the number came from. In a file that
// cannot use the builtin min (older than Go 1.21, or min declared by the
// package) such a finding has no fix, and its message says to write the
// bound in place of the constant by hand. The real bound is a promise about
// waiting: acceptable wait × consumer rate (0.25 s × 460 items/s → 115).
//
// Categories: chansize/memory (the byte limit), chansize/count (the count
// limit). Suppress one finding with a comment on its line or the line above:
//
//	//queuecheck:ignore chansize reason why this buffer is fine
package chansize
