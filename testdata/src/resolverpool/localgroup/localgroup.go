// Package localgroup limits an errgroup in a local and stores it in a
// field, the usual constructor: the field is a pool all the same.
package localgroup

import (
	"net"
	"os"

	"golang.org/x/sync/errgroup"
)

type Crawler struct{ g *errgroup.Group }

func NewCrawler(n int) *Crawler {
	g := &errgroup.Group{}
	g.SetLimit(n)
	return &Crawler{g: g}
}

func (c *Crawler) resolve(host string) {
	c.g.Go(func() error { _, err := net.LookupHost(host); return err })
}

func (c *Crawler) save(path string, b []byte) {
	c.g.Go(func() error { return os.WriteFile(path, b, 0o644) }) // want `errgroup g runs slow work \(os.WriteFile\) beside work that resolves hostnames \(net.LookupHost\), so lookups wait behind it; by hand, have the code that creates g create a second pool with the same limit for the slow work, and move the slow work to it`
}

// Negative: a limited pool whose tasks all resolve.
type Resolver struct{ g *errgroup.Group }

func NewResolver(n int) *Resolver {
	g := &errgroup.Group{}
	g.SetLimit(n)
	return &Resolver{g: g}
}

func (r *Resolver) resolve(host string) {
	r.g.Go(func() error { _, err := net.LookupHost(host); return err })
}

func (r *Resolver) dial(addr string) {
	r.g.Go(func() error {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err
	})
}

// Negative: the same without SetLimit: no pool.
type Unlimited struct{ g *errgroup.Group }

func NewUnlimited() *Unlimited {
	g := &errgroup.Group{}
	return &Unlimited{g: g}
}

func (u *Unlimited) resolve(host string) {
	u.g.Go(func() error { _, err := net.LookupHost(host); return err })
}

func (u *Unlimited) save(path string, b []byte) {
	u.g.Go(func() error { return os.WriteFile(path, b, 0o644) })
}
