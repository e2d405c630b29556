// Package store declares the interfaces its users hold; the
// implementations live in other packages (limited, direct), which the
// program chooses between where it builds its values.
package store

import "context"

// Backend reads values.
type Backend interface {
	Get(ctx context.Context, key string) ([]byte, error)
}

// Index finds keys.
type Index interface {
	Find(ctx context.Context, prefix string) ([]string, error)
}
