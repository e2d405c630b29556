// Package direct implements package store's Index with no bound: Find
// reads the directory at once.
package direct

import (
	"context"
	"os"
	"path/filepath"
)

// Index lists files.
type Index struct{ Dir string }

// Find checks the directory and lists it at once.
func (x Index) Find(ctx context.Context, prefix string) ([]string, error) {
	if _, err := os.Stat(x.Dir); err != nil {
		return nil, err
	}
	return filepath.Glob(filepath.Join(x.Dir, prefix+"*"))
}
