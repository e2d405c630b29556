// Package app times calls of lib: only lib's retries fact shows that one of
// them is mostly sleeps under failure.
package app

import (
	"context"
	"log"
	"net"
	"time"

	"queuecheck.example/retries/lib"
)

func lookup(host string) error {
	_, err := net.LookupHost(host)
	return err
}

func fetched(host string) error {
	start := time.Now()
	err := lib.Fetch(func() error { return lookup(host) })
	log.Printf("fetch took %v", time.Since(start)) // want:waittiming
	return err
}

func fetchedOnce(host string) error {
	start := time.Now()
	err := lib.FetchOnce(func() error { return lookup(host) })
	log.Printf("fetch took %v", time.Since(start))
	return err
}

func placed(ctx context.Context, p lib.Placer, key string) error {
	start := time.Now()
	err := p.Place(ctx, key)
	log.Printf("place took %v", time.Since(start)) // want:waittiming
	return err
}

// timed hands lib.Timed a literal that retries with a sleep between
// attempts: what Timed records is mostly the sleeps under failure. The twin
// hands it one attempt.
func timed(host string) error {
	return lib.Timed("lookup", func() error { // want:waittiming
		var err error
		for i := 0; i < 3; i++ {
			if err = lookup(host); err == nil {
				return nil
			}
			time.Sleep(time.Second)
		}
		return err
	})
}

func timedOnce(host string) error {
	return lib.Timed("lookup", func() error { return lookup(host) })
}
