// Package metrics times the functions it is handed: Time reads the clock,
// runs f and logs the time since. What it times is its callers' business.
package metrics

import (
	"log"
	"time"
)

func Time(op string, f func() error) error {
	start := time.Now()
	err := f()
	log.Printf("%s took %v", op, time.Since(start))
	return err
}

// Run is no wrapper that times: it runs f and logs, with no clock.
func Run(op string, f func() error) error {
	err := f()
	log.Printf("%s done: %v", op, err)
	return err
}
