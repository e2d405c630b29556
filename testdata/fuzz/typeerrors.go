package fuzz

import "time"

// Type errors everywhere: the suite must not crash on them.
var bad = make(chan undefinedType, 1<<30)

func broken(ch chan int) {
	for {
		select {
		case ch <- notDeclared:
			return
		default:
			time.Sleep(nope)
		}
	}
	start := time.Now()
	x := <-missing
	_ = time.Since(start) + x
	go func() { ch <- "string" }()
	var q []int
	q = append(q, "x")
	q = q[1:]
}
