// Package implwait holds values of package store's interfaces, built from
// the implementations of packages limited and direct. A call of an
// interface method whose declaring package has no implementation runs one
// of the implementations the program declares elsewhere: in view here are
// those of the packages this one imports.
package implwait

import (
	"context"
	"log"
	"time"

	"waittiming/implwait/direct"
	"waittiming/implwait/limited"
	"waittiming/implwait/store"
)

// App reads through a Backend and finds through an Index.
type App struct {
	be  store.Backend
	idx store.Index
}

// New builds an App on the bounded backend, and an index that is either.
func New(dir string, bounded bool) *App {
	a := &App{be: limited.New(dir), idx: direct.Index{Dir: dir}}
	if bounded {
		a.idx = limited.New(dir)
	}
	return a
}

// Lookup times a read: the only Backend in view waits for a slot first.
func (a *App) Lookup(ctx context.Context, key string) []byte {
	start := time.Now()
	v, err := a.be.Get(ctx, key)
	log.Printf("lookup %s took %v: %v", key, time.Since(start), err) // want `the duration since start spans \(\*limited.Backend\).Get via a.be.Get, which waits for admission \(\(\*semaphore.Weighted\).Acquire, limited.go:\d+\) before its work`
	return v
}

// List times a find: one Index in view waits, the other lists at once, so
// the call may queue or not, and nothing is said.
func (a *App) List(ctx context.Context, prefix string) []string {
	start := time.Now()
	keys, _ := a.idx.Find(ctx, prefix)
	log.Printf("list %s took %v", prefix, time.Since(start)) // why: no-wait-in-span
	return keys
}

// Fetch bounds a read by 100ms: the slot's queue eats the budget before
// the read sees it.
func (a *App) Fetch(key string) []byte {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond) // want `the 100ms timeout from context.WithTimeout is handed to \(\*limited.Backend\).Get via a.be.Get, whose first step waits on it \(\(\*semaphore.Weighted\).Acquire, limited.go:\d+\)`
	defer cancel()
	v, _ := a.be.Get(ctx, key)
	return v
}

// Drain times a Next of a Source whose own package implements it: that
// package's implementations (Empty does nothing) say what a call runs, and
// the bounded one in view does not decide it.
func Drain(ctx context.Context, src store.Source) {
	start := time.Now()
	_, _ = src.Next(ctx)
	log.Printf("next took %v", time.Since(start)) // why: no-wait-in-span
}
