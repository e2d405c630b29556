// Package metrics is a test stub with the go-metrics functions queuecheck's
// checks look at.
package metrics

import "time"

type Label struct{ Name, Value string }

// The recorders read their start, as the real ones do: a start a body never
// reads measures nothing.
func MeasureSince(key []string, start time.Time)                           { _ = start }
func MeasureSinceWithLabels(key []string, start time.Time, labels []Label) { _ = start }
func IncrCounter(key []string, val float32)                                {}
func AddSample(key []string, val float32)                                  {}
