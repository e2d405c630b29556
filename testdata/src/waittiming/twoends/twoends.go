// Package twoends records one whole-call measurement twice, after work: both
// records include the wait, and the fix splits both.
package twoends

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

var sem = make(chan struct{}, 4)

func fetch(ctx context.Context) error { return ctx.Err() }

func Handle(ctx context.Context) error {
	start := time.Now()
	sem <- struct{}{}
	defer func() { <-sem }()
	err := fetch(ctx)
	slog.Info("done", "took", time.Since(start)) // want `spans the wait`
	fmt.Printf("took %v\n", time.Since(start))   // want `spans the wait`
	return err
}

// A timer of the wait alone, then the whole call: the split is there.
func Split(ctx context.Context) error {
	start := time.Now()
	sem <- struct{}{}
	defer func() { <-sem }()
	slog.Info("admitted", "wait", time.Since(start))
	err := fetch(ctx)
	fmt.Printf("took %v\n", time.Since(start))
	return err
}
