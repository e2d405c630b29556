package cgo

// A file of a cgo package that does not import "C" is analyzed as usual.
var events = make(chan [4096]byte, 100000)

// Len reports the queue lengths.
func Len() int { return len(events) + len(cgoEvents) }
