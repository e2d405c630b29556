// Package app times calls of retrylib, a library of another module: only
// its retries fact, which standalone needs -deps to compute, shows that one
// of them is mostly sleeps under failure.
package app

import (
	"log"
	"net"
	"time"

	"queuecheck.example/retrylib"
)

func lookup(host string) error {
	_, err := net.LookupHost(host)
	return err
}

func fetched(host string) error {
	start := time.Now()
	err := retrylib.Fetch(func() error { return lookup(host) })
	log.Printf("fetch took %v", time.Since(start)) // want:waittiming
	return err
}

func fetchedOnce(host string) error {
	start := time.Now()
	err := retrylib.FetchOnce(func() error { return lookup(host) })
	log.Printf("fetch took %v", time.Since(start))
	return err
}
