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
