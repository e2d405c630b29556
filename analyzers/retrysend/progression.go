package retrysend

import (
	"go/ast"
	"math"
	"math/bits"
)

// A shape is how the sleep of a counted loop changes from one attempt to
// the next, among the shapes real retry loops take.
type shape uint8

const (
	// arithmetic: x(j) = a + j×step. A constant sleep (step 0), a sleep
	// linear in the counter (time.Duration(attempt) * unit), a delay the
	// loop adds a constant to.
	arithmetic shape = iota
	// geometric: x(j) = a × step^j. A delay the loop doubles, a unit shifted
	// by the counter (time.Millisecond << i).
	geometric
	// clamped: x(0) = a, x(j) = min(a × step^j, limit). A delay the loop
	// multiplies and caps: delay = min(delay*2, max), or delay *= 2 then
	// if delay > max { delay = max }.
	clamped
	// overshooting: x(j) = a × step^min(j, m), m the first j at which
	// a × step^j reaches limit. A delay the loop multiplies while it is
	// below the cap: if delay < max { delay *= 2 }, which may pass it once.
	overshooting
)

// A progression is the sleep of attempt j of a counted loop in closed form:
// x(j+offset) as shape and its parameters say, in units of base (in
// nanoseconds when base is nil: a, step and limit are then constants).
// offset is 1 when an attempt changes the delay before it sleeps.
type progression struct {
	shape   shape
	a, step int64
	limit   int64 // clamped, overshooting
	base    ast.Expr
	offset  int64
}

// A calc does checked int64 arithmetic: once a result overflows, ok is
// false and the results that follow are meaningless.
type calc struct{ ok bool }

func (c *calc) add(x, y int64) int64 {
	s := x + y
	if (s > x) != (y > 0) {
		c.ok = false
	}
	return s
}

func (c *calc) sub(x, y int64) int64 {
	if y == math.MinInt64 {
		c.ok = false
		return 0
	}
	return c.add(x, -y)
}

func (c *calc) mul(x, y int64) int64 {
	if x == 0 || y == 0 {
		return 0
	}
	if x == math.MinInt64 || y == math.MinInt64 {
		c.ok = false
		return 0
	}
	hi, lo := bits.Mul64(uint64(abs(x)), uint64(abs(y)))
	if hi != 0 || lo > math.MaxInt64 {
		c.ok = false
		return 0
	}
	if (x < 0) != (y < 0) {
		return -int64(lo)
	}
	return int64(lo)
}

// pow returns r^n for n ≥ 0; with |r| ≥ 2 it overflows within 63 steps.
func (c *calc) pow(r, n int64) int64 {
	switch {
	case n == 0 || r == 1:
		return 1
	case r == 0:
		return 0
	}
	p := int64(1)
	for range n {
		if p = c.mul(p, r); !c.ok {
			return 0
		}
	}
	return p
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// reach returns the first j ≥ from at which a × r^j reaches limit (a > 0,
// r ≥ 2: at most 63 steps).
func reach(a, r, limit, from int64) int64 {
	c := &calc{ok: true}
	j := from
	for x := c.mul(a, c.pow(r, from)); c.ok && x < limit; j++ {
		x = c.mul(x, r)
	}
	return j
}

// valid reports whether the progression's parameters are ones its closed
// forms hold for.
func (p progression) valid() bool {
	switch p.shape {
	case arithmetic:
		return true
	case geometric:
		return p.a >= 0 && p.step >= 1
	}
	return p.base == nil && p.a > 0 && p.step >= 2 && p.limit > 0
}

// at returns x(j), the value of the delay after j attempts.
func (p progression) at(c *calc, j int64) int64 {
	switch p.shape {
	case arithmetic:
		return c.add(p.a, c.mul(j, p.step))
	case geometric:
		return c.mul(p.a, c.pow(p.step, j))
	case clamped:
		if j == 0 {
			return p.a
		}
		if j >= reach(p.a, p.step, p.limit, 1) {
			return p.limit
		}
		return c.mul(p.a, c.pow(p.step, j))
	default: // overshooting
		return c.mul(p.a, c.pow(p.step, min(j, reach(p.a, p.step, p.limit, 0))))
	}
}

// sum returns x(0) + … + x(n-1).
func (p progression) sum(c *calc, n int64) int64 {
	if n <= 0 {
		return 0
	}
	// geomSum is a × (r^k − 1)/(r − 1), the first k terms of a × r^j.
	geomSum := func(a, r, k int64) int64 {
		if r == 1 {
			return c.mul(a, k)
		}
		return c.mul(a, c.sub(c.pow(r, k), 1)/(r-1))
	}
	switch p.shape {
	case arithmetic:
		// n×a + step × n(n−1)/2, halving the even factor first.
		var pairs int64
		if n%2 == 0 {
			pairs = c.mul(n/2, n-1)
		} else {
			pairs = c.mul(n, (n-1)/2)
		}
		return c.add(c.mul(n, p.a), c.mul(p.step, pairs))
	case geometric:
		return geomSum(p.a, p.step, n)
	case clamped:
		m := reach(p.a, p.step, p.limit, 1)
		grown := c.sub(geomSum(p.a, p.step, min(n, m)), p.a) // x(1)…x(min(n,m)−1)
		return c.add(c.add(p.a, grown), c.mul(max(0, n-m), p.limit))
	default: // overshooting
		m := reach(p.a, p.step, p.limit, 0)
		top := c.mul(p.a, c.pow(p.step, m))
		return c.add(geomSum(p.a, p.step, min(n, m+1)), c.mul(max(0, n-m-1), top))
	}
}

// attempts returns, for n failed attempts, the total of their sleeps and
// the first and last sleep; ok is false when a value overflows or a sleep
// is negative.
func (p progression) attempts(n int64) (total, first, last int64, ok bool) {
	c := &calc{ok: true}
	total = c.sub(p.sum(c, c.add(p.offset, n)), p.sum(c, p.offset))
	first, last = p.at(c, p.offset), p.at(c, c.add(p.offset, n-1))
	// Every shape is monotonic: the ends bound every sleep.
	return total, first, last, c.ok && n > 0 && first >= 0 && last >= 0 && total > 0
}
