// Package sub has its own queuecheck.toml.
package sub

// Not reported: under sub's max of 50000.
var moderate = make(chan int, 5000)

// Reported: over it.
var huge = make(chan int, 60000) // want:huge

// Len is the buffers' length.
func Len() int { return len(moderate) + len(huge) }
