// Package prometheus is a test stub with the parts of the Prometheus client
// API that queuecheck's checks look at.
package prometheus

import "time"

type Labels map[string]string

type Observer interface{ Observe(float64) }

type ObserverFunc func(float64)

func (f ObserverFunc) Observe(v float64) { f(v) }

type Timer struct {
	begin    time.Time
	observer Observer
}

func NewTimer(o Observer) *Timer { return &Timer{time.Now(), o} }

func (t *Timer) ObserveDuration() time.Duration {
	d := time.Since(t.begin)
	if t.observer != nil {
		t.observer.Observe(d.Seconds())
	}
	return d
}

type HistogramOpts struct {
	Namespace, Subsystem, Name, Help string
	Buckets                          []float64
}

type Histogram interface {
	Observer
}

type histogram struct{}

func (histogram) Observe(float64) {}

func NewHistogram(opts HistogramOpts) Histogram { return histogram{} }

type HistogramVec struct{ labels []string }

func NewHistogramVec(opts HistogramOpts, labelNames []string) *HistogramVec {
	return &HistogramVec{labelNames}
}

func (v *HistogramVec) WithLabelValues(lvs ...string) Observer { return histogram{} }
func (v *HistogramVec) With(labels Labels) Observer            { return histogram{} }

type SummaryOpts struct {
	Namespace, Subsystem, Name, Help string
}

type Summary interface {
	Observer
}

func NewSummary(opts SummaryOpts) Summary { return histogram{} }

type SummaryVec struct{ labels []string }

func NewSummaryVec(opts SummaryOpts, labelNames []string) *SummaryVec {
	return &SummaryVec{labelNames}
}

func (v *SummaryVec) WithLabelValues(lvs ...string) Observer { return histogram{} }
func (v *SummaryVec) With(labels Labels) Observer            { return histogram{} }

func MustRegister(cs ...any) {}
