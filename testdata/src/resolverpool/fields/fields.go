// Package fields exercises pools held in struct fields and package variables.
package fields

import (
	"context"
	"net"
	"os"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

// Crawler limits its fetches and its writes with one semaphore.
type Crawler struct {
	sem  *semaphore.Weighted // shared by every task
	name string
}

func NewCrawler(name string) *Crawler {
	return &Crawler{
		sem:  semaphore.NewWeighted(8),
		name: name,
	}
}

func (c *Crawler) Resolve(ctx context.Context, host string) error { // want Resolve:"resolves: fields.Crawler.Resolve → net.LookupHost"
	if err := c.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer c.sem.Release(1)
	_, err := net.LookupHost(host)
	return err
}

func (c *Crawler) Save(ctx context.Context, path string, data []byte) error { // want Save:"slow: fields.Crawler.Save → os.WriteFile"
	if err := c.sem.Acquire(ctx, 1); err != nil { // want `semaphore sem of 8 runs slow work \(os.WriteFile\) beside work that resolves hostnames \(net.LookupHost\)`
		return err
	}
	defer c.sem.Release(1)
	return os.WriteFile(path, data, 0o644)
}

// Server runs background tasks on a limited group.
type Server struct {
	group *errgroup.Group
	addr  string
}

func NewServer(addr string) *Server {
	s := &Server{addr: addr}
	s.group = new(errgroup.Group)
	s.group.SetLimit(4)
	return s
}

func (s *Server) Probe() { // want Probe:"resolves: fields.Server.Probe → fields.Server.probe → net.DialTimeout"
	s.group.Go(s.probe)
}

func (s *Server) probe() error {
	c, err := net.DialTimeout("tcp", s.addr, time.Second)
	if err != nil {
		return err
	}
	return c.Close()
}

func (s *Server) Backoff() { // want Backoff:"slow: fields.Server.Backoff → time.Sleep"
	s.group.Go(func() error { // want `errgroup group of 4 runs slow work \(time.Sleep\) beside work that resolves hostnames \(Server.probe → net.DialTimeout\)`
		time.Sleep(time.Second)
		return nil
	})
}

func (s *Server) Close() error {
	return s.group.Wait()
}

// Package-level pools.
var (
	slots = make(chan struct{}, 2)
	label = "x"
)

func lookupAll(hosts []string) {
	for _, h := range hosts {
		slots <- struct{}{}
		_, _ = net.LookupIP(h)
		<-slots
	}
}

func sleepy() {
	slots <- struct{}{} // want `token channel slots of 2 runs slow work \(time.Sleep\)`
	defer func() { <-slots }()
	time.Sleep(time.Second)
}

// Pool is generic: its field is one pool across instantiations.
type Pool[T any] struct {
	sem   *semaphore.Weighted
	items []T
}

func NewPool[T any]() *Pool[T] {
	p := &Pool[T]{}
	p.sem = semaphore.NewWeighted(3)
	return p
}

func (p *Pool[T]) Dial(ctx context.Context, addr string) error { // want Dial:"resolves: fields.Pool.Dial → net.Dialer.DialContext"
	_ = p.sem.Acquire(ctx, 1)
	defer p.sem.Release(1)
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	return c.Close()
}

func (p *Pool[T]) Dump(ctx context.Context) { // want Dump:"slow: fields.Pool.Dump → os.ReadDir"
	_ = p.sem.Acquire(ctx, 1) // want `semaphore sem of 3 runs slow work \(os.ReadDir\)`
	_, _ = os.ReadDir(".")
	p.sem.Release(1)
}

func use(ctx context.Context) {
	a := NewPool[int]()
	b := NewPool[string]()
	_ = a.Dial(ctx, "x:1")
	b.Dump(ctx)
}
