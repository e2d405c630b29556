// Package limited implements package store's interfaces behind a bound on
// the reads in flight: each method waits for a slot, then reads.
package limited

import (
	"context"
	"os"
	"path/filepath"

	"golang.org/x/sync/semaphore"
)

// Backend reads files, a bounded number at once.
type Backend struct {
	slots *semaphore.Weighted
	dir   string
}

// New returns a Backend reading from dir.
func New(dir string) *Backend { return &Backend{slots: semaphore.NewWeighted(4), dir: dir} }

// Get waits for a slot, then reads the key's file.
func (b *Backend) Get(ctx context.Context, key string) ([]byte, error) {
	if err := b.slots.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer b.slots.Release(1)
	return os.ReadFile(filepath.Join(b.dir, key))
}

// Find waits for a slot, then lists the directory.
func (b *Backend) Find(ctx context.Context, prefix string) ([]string, error) {
	if err := b.slots.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer b.slots.Release(1)
	return filepath.Glob(filepath.Join(b.dir, prefix+"*"))
}

// Next waits for a slot, then reads the next file: a Source too.
func (b *Backend) Next(ctx context.Context) ([]byte, error) {
	if err := b.slots.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	defer b.slots.Release(1)
	return os.ReadFile(filepath.Join(b.dir, "next"))
}
