// Package metrics is a test stub with the go-metrics functions queuecheck's
// checks look at.
package metrics

import "time"

type Label struct{ Name, Value string }

func MeasureSince(key []string, start time.Time)                           {}
func MeasureSinceWithLabels(key []string, start time.Time, labels []Label) {}
func IncrCounter(key []string, val float32)                                {}
func AddSample(key []string, val float32)                                  {}
