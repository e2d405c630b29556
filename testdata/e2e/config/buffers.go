// Package config has buffers that its queuecheck.toml judges.
package config

// Reported: 5000 items is over the module's max of 1000.
var events = make(chan int, 5000) // want:events

// Not reported: under it.
var small = make(chan int, 500)

// Len is the buffers' length.
func Len() int { return len(events) + len(small) }
