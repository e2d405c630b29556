package nomin

type item struct{ payload [64]byte }

// backlog also sizes a batch: its declaration stays.
const backlog = 100000

var batch [backlog / 1000]item

// min is this package's own function, not the builtin: no fix can cap the
// constant here.
func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

var shadowed = make(chan item, backlog) // want `channel buffer of 100000 items of 64 B \(up to 6.1 MiB\) stores overload instead of pushing back; bound it by acceptable wait × consumer rate; by hand, write that bound in place of backlog \(min, which the fix uses, is not available in this file\)`

var _ = min(1, 2)
