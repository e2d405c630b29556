// Package cgo uses cgo; the suite analyzes the files the build compiles.
package cgo

/*
static int twice(int x) { return 2 * x; }
*/
import "C"

// Twice doubles x in C.
func Twice(x int) int { return int(C.twice(C.int(x))) }

// A hazard in a file that imports "C" is reported at this line, from the copy
// cmd/cgo generated, without a fix: its edits would land in the copy.
var cgoEvents = make(chan [4096]byte, 100000)
