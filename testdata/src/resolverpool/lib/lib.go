// Package lib holds helpers whose classification other packages see as facts.
package lib

import (
	"context"
	"net"
	"net/http"
	"os"
	"time"
)

var client = &http.Client{Timeout: 5 * time.Second}

// Fetch resolves through an unexported helper.
func Fetch(url string) error { // want Fetch:"resolves: lib.Fetch → lib.get → http.Client.Do"
	return get(url)
}

func get(url string) error {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Archive is slow: it writes a file.
func Archive(path string, data []byte) error { // want Archive:"slow: lib.Archive → os.WriteFile"
	return os.WriteFile(path, data, 0o644)
}

// Even and Odd are mutually recursive; Odd sleeps at the bottom.
func Even(n int) bool { // want Even:"slow: lib.Even → lib.Odd → time.Sleep"
	if n == 0 {
		return true
	}
	return Odd(n - 1)
}

func Odd(n int) bool { // want Odd:"slow: lib.Odd → time.Sleep"
	if n == 0 {
		time.Sleep(time.Millisecond)
		return false
	}
	return Even(n - 1)
}

// Resolve looks a host up with a context.
func Resolve(ctx context.Context, host string) ([]string, error) { // want Resolve:"resolves: lib.Resolve → net.Resolver.LookupHost"
	return net.DefaultResolver.LookupHost(ctx, host)
}

// Cache is generic; its methods carry facts on the generic origin.
type Cache[K comparable, V any] struct {
	m map[K]V
}

// Load reads a file into the cache.
func (c *Cache[K, V]) Load(path string) error { // want Load:"slow: lib.Cache.Load → os.ReadFile"
	_, err := os.ReadFile(path)
	return err
}

// Get does nothing slow.
func (c *Cache[K, V]) Get(k K) V { return c.m[k] }

// Spawn starts a goroutine that resolves: the caller does not wait for it.
func Spawn(host string) {
	go func() { _, _ = net.LookupHost(host) }()
}

// Run calls what it is given: a function value is not classified.
func Run(f func() error) error { return f() }

// Retry calls f until it succeeds, sleeping between attempts.
func Retry(attempts int, f func() error) error { // want Retry:"slow: lib.Retry → time.Sleep"
	var err error
	for range attempts {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}
