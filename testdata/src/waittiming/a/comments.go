package a

import (
	"context"
	"log"
	"time"
)

// Commented ends its wait's lines with comments: they stay on their lines,
// and the second timestamp goes below them.
func Commented(ctx context.Context) error {
	start := time.Now()
	if err := sem.Acquire(ctx, 1); err != nil { // queue for a slot
		return err
	}
	defer sem.Release(1) // give the slot back
	err := fetch(ctx)
	log.Printf("fetch took %v", time.Since(start)) // want `the duration since start spans the wait`
	return err
}
