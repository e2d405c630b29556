// Package stats is a service's own metrics helpers, written by hand in the
// shapes of the libraries they imitate. Nothing here is named in a table of
// queuecheck: the admission facts say what each function does with time.
package stats

import (
	"context"
	"log"
	"time"
)

// Histogram takes observations in seconds.
type Histogram interface{ Observe(float64) }

// Timer is prometheus.NewTimer written by hand.
type Timer struct {
	begin time.Time
	h     Histogram
}

func NewTimer(h Histogram) *Timer { return &Timer{begin: time.Now(), h: h} }

// ObserveDuration records the time since NewTimer.
func (t *Timer) ObserveDuration() time.Duration {
	d := time.Since(t.begin)
	t.h.Observe(d.Seconds())
	return d
}

// Done is go-metrics' MeasureSince under a name that says nothing.
func Done(key string, t time.Time) {
	log.Println(key, time.Now().Sub(t))
}

// Track returns the function that records the time since it was called:
// defer stats.Track("op")().
func Track(name string) func() {
	began := time.Now()
	return func() { log.Printf("%s took %v", name, time.Since(began)) }
}

// Float64Histogram is the shape of an OpenTelemetry histogram.
type Float64Histogram interface {
	Record(ctx context.Context, v float64)
}

// Op records the duration of an operation with an OpenTelemetry-style
// histogram.
type Op struct {
	ctx   context.Context
	began time.Time
	hist  Float64Histogram
}

func Begin(ctx context.Context, hist Float64Histogram) Op {
	return Op{ctx: ctx, began: time.Now(), hist: hist}
}

func (o Op) End() { o.hist.Record(o.ctx, time.Since(o.began).Seconds()) }

// Session keeps when it was opened; Expired compares, it measures nothing.
type Session struct{ opened time.Time }

func Open() *Session { return &Session{opened: time.Now()} }

func (s *Session) Expired(ttl time.Duration) bool { return s.opened.Add(ttl).Before(time.Now()) }
