// Package store declares the interface its users hold; package limited
// implements it.
package store

import "context"

// Backend reads values.
type Backend interface {
	Get(ctx context.Context, key string) ([]byte, error)
}
