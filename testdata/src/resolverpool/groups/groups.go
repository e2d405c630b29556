// Package groups exercises errgroup pools.
package groups

import (
	"context"
	"net"
	"os/exec"
	"time"

	"golang.org/x/sync/errgroup"
)

func lookup(ctx context.Context, host string) error {
	_, err := net.DefaultResolver.LookupHost(ctx, host)
	return err
}

func render(path string) error {
	return exec.Command("convert", path, path+".png").Run()
}

// mixed waits for the group's error.
func mixed(ctx context.Context, hosts, paths []string) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(10)
	for _, h := range hosts {
		g.Go(func() error { return lookup(ctx, h) })
	}
	for _, p := range paths {
		g.Go(func() error { return render(p) }) // want `errgroup g of 10 runs slow work \(render → exec.Cmd.Run\) beside work that resolves hostnames \(lookup → net.Resolver.LookupHost\), so lookups wait behind it; give the slow work a pool of its own`
	}
	return g.Wait()
}

// statement waits in a statement; the slow task is a function value.
func statement(hosts []string, limit int) {
	var g errgroup.Group
	g.SetLimit(limit)
	for _, h := range hosts {
		g.TryGo(func() error { return lookup(context.Background(), h) })
	}
	g.Go(pause) // want `errgroup g runs slow work \(pause → time.Sleep\)`
	g.Wait()
}

func pause() error {
	time.Sleep(time.Second)
	return nil
}

// Negative cases.

// unlimited has no SetLimit: every task runs at once.
func unlimited(hosts, paths []string) error {
	var g errgroup.Group
	for _, h := range hosts {
		g.Go(func() error { return lookup(context.Background(), h) })
	}
	for _, p := range paths {
		g.Go(func() error { return render(p) })
	}
	return g.Wait()
}

// unlimitedAgain removes the limit.
func unlimitedAgain(hosts, paths []string) error {
	var g errgroup.Group
	g.SetLimit(-1)
	for _, h := range hosts {
		g.Go(func() error { return lookup(context.Background(), h) })
	}
	g.Go(pause)
	return g.Wait()
}

// allResolving is a fan-out limiter.
func allResolving(ctx context.Context, hosts []string) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(32)
	for _, h := range hosts {
		g.Go(func() error { return lookup(ctx, h) })
	}
	return g.Wait()
}

// both resolves and renders in one task: its lookups do not wait behind
// another task's rendering.
func both(ctx context.Context, hosts []string) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for _, h := range hosts {
		g.Go(func() error {
			if err := lookup(ctx, h); err != nil {
				return err
			}
			return render(h)
		})
	}
	return g.Wait()
}
