// Package metrictimer is loki's pkg/engine/internal/metrictimer: a Timer
// times one operation as named phases, buffers one row per phase, and Done
// emits the rows and empties the buffer. Its pushes never refuse and Done
// empties the store whole, so the type has a push fact; whether its callers
// are a queue's producers is decided there.
package metrictimer

import "time"

type Phase string

type Timer struct {
	emit    func(Phase, time.Duration)
	cur     Phase
	open    time.Time
	inPhase bool
	rows    []row
}

type row struct {
	phase Phase
	dur   time.Duration
}

func New(emit func(Phase, time.Duration)) *Timer {
	if emit == nil {
		return nil
	}
	return &Timer{emit: emit, rows: make([]row, 0, 4)}
}

// Phase closes the open interval and opens p.
func (t *Timer) Phase(p Phase) {
	if t == nil || t.emit == nil {
		return
	}
	now := time.Now()
	if t.inPhase {
		t.rows = append(t.rows, row{phase: t.cur, dur: now.Sub(t.open)})
	}
	t.cur, t.open, t.inPhase = p, now, true
}

// Done emits the buffered rows and renders t inert.
func (t *Timer) Done() {
	if t == nil || t.emit == nil {
		return
	}
	for _, r := range t.rows {
		t.emit(r.phase, r.dur)
	}
	t.emit = nil
	t.rows = t.rows[:0]
}
