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

// Source yields values; the package implements it itself (Empty), as io
// implements its readers: a call of Next is left to this package's fact.
type Source interface {
	Next(ctx context.Context) ([]byte, error)
}

// Empty is a Source with nothing in it.
type Empty struct{}

// Next returns nothing.
func (Empty) Next(ctx context.Context) ([]byte, error) { return nil, nil }
