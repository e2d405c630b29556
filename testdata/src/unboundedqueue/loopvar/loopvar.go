//go:build go1.21

// Before Go 1.22 a range loop reuses its variables: the fix copies them
// before the goroutine that reads them later.
package loopvar

type item struct{ n int }

func handle(k string, it item) {}

func consume(in <-chan item, key string) {
	for it := range in {
		go handle(key, it) // want `goroutine per item received from in`
	}
}

func keyed(in <-chan map[string]item) {
	for batch := range in {
		for k, it := range batch {
			_, _ = k, it
		}
		go func(b map[string]item) { println(len(b)) }(batch) // want `goroutine per item received from in`
	}
}
