// Package cgo uses cgo; the suite analyzes the files the build compiles.
package cgo

/*
static int twice(int x) { return 2 * x; }
*/
import "C"

// Twice doubles x in C.
func Twice(x int) int { return int(C.twice(C.int(x))) }

// A hazard in a file that imports "C" is not reported: the build compiles a
// copy that cmd/cgo generated, and a fix cannot be mapped back to this file.
var cgoEvents = make(chan [4096]byte, 100000)
