package negative

import (
	"context"
	"log"
	"testing"
	"time"
)

// Test files are not production code.
func TestTiming(t *testing.T) {
	ctx := context.Background()
	start := time.Now()
	sem.Acquire(ctx, 1)
	work(ctx)
	sem.Release(1)
	log.Printf("took %v", time.Since(start))
}
