// Package caller calls the helper's functions, some of which start one
// goroutine per call (their per-call facts). A call per element of a
// collection whose size comes from the data is a fan-out; beside it are its
// safe twins: a call once at startup, a call over a literal slice, a
// callee that takes a semaphore slot before go, a callee that waits for its goroutine
// or only computes.
package caller

import (
	"context"

	"unboundedqueue/spawncall/helper"
)

type store interface {
	ListURLs(ctx context.Context) ([]string, error)
}

// A listing: one goroutine per URL the store returns, started by Refresh.
func refreshAll(ctx context.Context, s store, c *helper.Client) error {
	urls, err := s.ListURLs(ctx)
	if err != nil {
		return err
	}
	for _, u := range urls {
		c.Refresh(u) // want `\(\*helper.Client\).Refresh starts a goroutine per call \(its go statement at helper.go:22 does blocking work, c.hc.Get, and it returns without waiting\), and it is called per element of urls, whose size comes from the data \(returned by s.ListURLs\): nothing bounds how many run at once; by hand: give \(\*helper.Client\).Refresh a limit \(a semaphore acquired before its go statement, or a bounded worker\), or call a variant that waits and bound the loop`
	}
	return nil
}

// The same through a package function.
func saveAll(ctx context.Context, s store, c *helper.Client) error {
	urls, err := s.ListURLs(ctx)
	if err != nil {
		return err
	}
	for _, u := range urls {
		helper.Save(c, u) // want `helper.Save starts a goroutine per call`
	}
	return nil
}

// The twin: called once, at startup.
func start(c *helper.Client, url string) {
	c.Refresh(url)
}

// The twin: over a literal slice, fixed by the program.
func refreshFixed(c *helper.Client) {
	for _, u := range []string{"a", "b"} {
		c.Refresh(u) // why: not-a-listing
	}
}

// The twin: the callee takes a semaphore slot before go.
func refreshLimited(ctx context.Context, s store, c *helper.Client) error {
	urls, err := s.ListURLs(ctx)
	if err != nil {
		return err
	}
	for _, u := range urls {
		c.RefreshLimited(u)
	}
	return nil
}

// The twins: the callee waits for its goroutine, or its goroutine only
// computes.
func refreshWaiting(ctx context.Context, s store, c *helper.Client) error {
	urls, err := s.ListURLs(ctx)
	if err != nil {
		return err
	}
	var n int64
	for _, u := range urls {
		c.RefreshWait(u)
		helper.Count([]int{len(u)}, &n)
	}
	return nil
}
