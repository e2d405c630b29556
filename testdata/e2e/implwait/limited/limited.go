// Package limited implements store.Backend behind a bound on the reads in
// flight: Get waits for a slot, then reads.
package limited

import (
	"context"
	"os"
	"path/filepath"
)

// Backend reads files, a bounded number at once.
type Backend struct {
	slots chan struct{}
	dir   string
}

// New returns a Backend reading from dir, four files at once.
func New(dir string) *Backend { return &Backend{slots: make(chan struct{}, 4), dir: dir} }

// Get waits for a slot, then reads the key's file.
func (b *Backend) Get(ctx context.Context, key string) ([]byte, error) {
	select {
	case b.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-b.slots }()
	return os.ReadFile(filepath.Join(b.dir, key))
}
