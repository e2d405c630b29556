package helpers

import (
	"log"
	"time"
)

// Timer is prometheus.NewTimer written by hand.
type Timer struct {
	begin time.Time
	name  string
}

func NewTimer(name string) *Timer { // want NewTimer:"starts timer .begin"
	return &Timer{begin: time.Now(), name: name}
}

func (t *Timer) ObserveDuration() time.Duration { // want ObserveDuration:"stops timer .begin"
	d := time.Since(t.begin)
	log.Println(t.name, d)
	return d
}

// Since is go-metrics' MeasureSince under another name.
func Since(key string, t time.Time) { // want Since:"measures since param 1"
	log.Println(key, time.Now().Sub(t))
}

// Track returns the function that ends the measurement: defer Track("x")().
func Track(name string) func() { // want Track:"returns stop func"
	start := time.Now()
	return func() { log.Println(name, time.Since(start)) }
}

// Span sets its start by an assignment.
type Span struct {
	start, end time.Time
}

func StartSpan() Span { // want StartSpan:"starts timer .start"
	var s Span
	s.start = time.Now()
	return s
}

func (s Span) End() { // want End:"stops timer .start"
	log.Println(time.Since(s.start))
}

// Deadline keeps a time, but measures nothing since it.
func (s Span) Deadline() time.Time { return s.end.Add(time.Second) }

// Stamp returns a time it was given: not a timer.
func Stamp(t time.Time) time.Time { return t.Add(time.Second) }
