// Package gen is generated code; an override turns chansize off here.
package gen

var frames = make(chan int, 5000)

// Len is the buffer's length.
func Len() int { return len(frames) }
