package chansize

import "github.com/queuecheck/queuecheck/analyzers/internal/report"

// The reasons chansize does not report a buffered make(chan T, N), in the
// order oversized decides them.
var (
	ruleUnbuffered   = report.NewRule("chansize", "unbuffered", "the channel has no buffer (make(chan T) or a capacity of 0): a send waits for a receiver, nothing is held")
	ruleNotConstant  = report.NewRule("chansize", "not-constant", "the capacity is not a constant (len(items), runtime.NumCPU(), a configured value): it is sized by something real")
	ruleZeroSize     = report.NewRule("chansize", "zero-size-element", "the element type takes no memory (chan struct{}): the buffer holds no data, only a count")
	ruleWithinLimits = report.NewRule("chansize", "within-limits", "the buffer holds fewer elements than -chansize.max and takes less memory than -chansize.maxbytes")
)
