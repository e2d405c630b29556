package retrysend

import "testing"

// step plays one attempt of p's recurrence: what the loop does to its delay.
func (p progression) next(x int64) int64 {
	switch p.shape {
	case arithmetic:
		return x + p.step
	case geometric:
		return x * p.step
	case clamped:
		return min(x*p.step, p.limit)
	default: // overshooting
		if x < p.limit {
			return x * p.step
		}
		return x
	}
}

// TestProgressionClosedForms checks each closed form against the
// recurrence it stands for, played attempt by attempt.
func TestProgressionClosedForms(t *testing.T) {
	var cases []progression
	for _, a := range []int64{1, 3, 10, 20, 40} {
		for _, offset := range []int64{0, 1} {
			cases = append(cases,
				progression{shape: arithmetic, a: a, step: 0, offset: offset},
				progression{shape: arithmetic, a: a, step: 7, offset: offset},
				progression{shape: geometric, a: a, step: 2, offset: offset},
				progression{shape: geometric, a: a, step: 3, offset: offset},
			)
			for _, limit := range []int64{1, 25, 30, 50, 1000} {
				cases = append(cases,
					progression{shape: clamped, a: a, step: 2, limit: limit, offset: offset},
					progression{shape: overshooting, a: a, step: 2, limit: limit, offset: offset},
					progression{shape: overshooting, a: a, step: 3, limit: limit, offset: offset},
				)
			}
		}
	}
	for _, p := range cases {
		for n := int64(1); n <= 12; n++ {
			x := p.a
			if p.offset == 1 {
				x = p.next(x)
			}
			var total, first, last int64
			for j := range n {
				if j == 0 {
					first = x
				}
				total, last = total+x, x
				x = p.next(x)
			}
			gotTotal, gotFirst, gotLast, ok := p.attempts(n)
			if !ok || gotTotal != total || gotFirst != first || gotLast != last {
				t.Errorf("%+v over %d attempts: got total %d, %d to %d (ok %v); played: %d, %d to %d", p, n, gotTotal, gotFirst, gotLast, ok, total, first, last)
			}
		}
	}
}

// TestProgressionOverflow checks that a sum past int64 is not known, and
// that a capped progression over many attempts stays cheap and exact.
func TestProgressionOverflow(t *testing.T) {
	if _, _, _, ok := (progression{shape: geometric, a: 1e6, step: 2}).attempts(100); ok {
		t.Error("2^100 ms: known")
	}
	total, first, last, ok := (progression{shape: clamped, a: 1e6, step: 2, limit: 1e9}).attempts(1e9)
	if !ok || first != 1e6 || last != 1e9 {
		t.Fatalf("clamped over 1e9 attempts: %d, %d to %d (ok %v)", total, first, last, ok)
	}
	// 1+2+…+512 ms, then 1e9-10 attempts of 1s.
	if want := int64(1023e6) + (1e9-10)*1e9; total != want {
		t.Errorf("clamped over 1e9 attempts: total %d, want %d", total, want)
	}
}
