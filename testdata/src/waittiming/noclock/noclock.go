// Package noclock reads a clock of its own, through no package waittiming
// knows: it imports neither time, context nor the Prometheus client.
package noclock // why: no-clock

// A Clock is the service's clock.
type Clock interface{ Now() int64 }

func handle(c Clock, work func()) int64 {
	start := c.Now()
	work()
	return c.Now() - start
}
