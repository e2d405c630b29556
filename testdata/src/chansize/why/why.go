// Package why is chansize's -why case: run with -chansize.why=all, every
// buffered channel chansize does not report says which rule kept it quiet.
package why

import "runtime"

var work = make(chan *int, 4096) // want `not reported: within-limits: `

var done = make(chan struct{}, 1<<24) // want `not reported: zero-size-element: `

var byCPU = make(chan int, runtime.NumCPU()) // want `not reported: not-constant: `

var unbuffered = make(chan int) // want `not reported: unbuffered: `

var zero = make(chan int, 0) // want `not reported: unbuffered: `
