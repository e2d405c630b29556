// Package scope is a service's own metrics scope, in the shape of the
// tally-based scopes of workflow engines: callers hold the Scope interface
// and time an operation with sw := scope.StartTimer(op); defer sw.Stop().
// Nothing here is named in a table of queuecheck: the admission facts say
// that every implementation of StartTimer starts a stopwatch, and so the
// interface method does, in every package that imports this one.
package scope

import (
	"log"
	"time"
)

// Stopwatch records the time since it was made. It is built without field
// names, as small value types often are.
type Stopwatch struct {
	start time.Time
	names []string
}

func NewStopwatch(names ...string) Stopwatch { return Stopwatch{time.Now(), names} } // want NewStopwatch:"starts timer .start"

// Stop records the time since NewStopwatch.
func (sw Stopwatch) Stop() { // want Stop:"stops timer .start"
	d := time.Since(sw.start)
	for _, n := range sw.names {
		log.Printf("%s took %v", n, d)
	}
}

// Scope is what callers hold.
type Scope interface {
	StartTimer(op string) Stopwatch // want StartTimer:"starts timer .start"
	Tagged(tag string) Scope
}

type scope struct {
	prefix string
	rollup bool
}

func New(prefix string) Scope { return &scope{prefix: prefix} }

// StartTimer picks the timers and starts a stopwatch over them: it starts
// a timer as NewStopwatch does, whichever branch returns.
func (s *scope) StartTimer(op string) Stopwatch { // want StartTimer:"starts timer .start"
	switch {
	case s.rollup:
		return NewStopwatch(s.prefix+op, op)
	default:
		return NewStopwatch(s.prefix + op)
	}
}

func (s *scope) Tagged(tag string) Scope { return &scope{prefix: s.prefix + tag + "."} }

// noop starts a stopwatch that records nowhere: a timer all the same.
type noop struct{}

func (noop) StartTimer(string) Stopwatch { return NewStopwatch() } // want StartTimer:"starts timer .start"

func (noop) Tagged(string) Scope { return noop{} }

// Lapse hands out the stopwatch a lap started long ago: not a timer it
// starts, so its interface's method starts none.
type Lapse interface {
	StartTimer(op string) Stopwatch
}

type lap struct{ sw Stopwatch }

func (l *lap) StartTimer(string) Stopwatch { return l.sw }

type freshLap struct{}

func (freshLap) StartTimer(op string) Stopwatch { return NewStopwatch(op) } // want StartTimer:"starts timer .start"

func NewLapse(fresh bool) Lapse {
	if fresh {
		return freshLap{}
	}
	return &lap{sw: NewStopwatch("lap")}
}

// Default is the process's scope; StartTimer starts a timer on it, as the
// interface method does: its fact comes from the method's, which the
// package learns after its functions' first round.
var Default Scope = New("")

func StartTimer(op string) Stopwatch { return Default.StartTimer(op) } // want StartTimer:"starts timer .start"

// Pick starts a stopwatch on one path and hands back a kept one on the
// other: no timer it starts.
func Pick(fresh bool, kept Stopwatch) Stopwatch {
	if fresh {
		return NewStopwatch()
	}
	return kept
}
