// Package dominance has an acquire that bounds only some spawns: one in a
// case of a switch does not bound a go statement after the switch.
package dominance

func handle(v int) {}

func partly(ch <-chan int) {
	sem := make(chan struct{}, 8)
	for v := range ch {
		switch {
		case v > 0:
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				handle(v)
			}()
		}
		go handle(v) // want `goroutine per item received from ch`
	}
}
