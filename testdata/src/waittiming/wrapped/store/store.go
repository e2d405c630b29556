// Package store runs queries through a retry helper with backoff, behind
// wrappers: an exported wrapper retries as the helper does, and carries a
// retries fact to the packages that call it.
package store

import (
	"context"
	"errors"
	"time"
)

type DB struct{ maxBackoff int }

func (db *DB) exec(ctx context.Context, q string) error { return errors.New("conflict") }

// withRetry runs fn until it succeeds, waiting a doubling backoff between
// attempts.
func (db *DB) withRetry(ctx context.Context, fn func() error) error {
	backoff := 1
	for {
		err := fn()
		if err == nil {
			return nil
		}
		backoff = min(2*backoff, db.maxBackoff)
		select {
		case <-time.After(time.Duration(backoff) * time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Exec wraps the retry helper: its only work is the helper's call.
func (db *DB) Exec(ctx context.Context, q string) error { // want Exec:"retries between a timer"
	return db.withRetry(ctx, func() error { return db.exec(ctx, q) })
}

// ExecWrapped wraps the wrapper, and wraps its error.
func (db *DB) ExecWrapped(ctx context.Context, q string) error { // want ExecWrapped:"retries between a timer"
	if err := db.Exec(ctx, q); err != nil {
		return errors.Join(errors.New("exec"), err)
	}
	return nil
}

// ExecOnce makes one attempt: no fact.
func (db *DB) ExecOnce(ctx context.Context, q string) error { return db.exec(ctx, q) }

// ExecAndAudit does more than the retrying call: not a wrapper, no fact.
func (db *DB) ExecAndAudit(ctx context.Context, q string) error {
	if err := db.Exec(ctx, q); err != nil {
		return err
	}
	return db.exec(ctx, "INSERT INTO audit VALUES ($1)")
}

// Loop calls itself: a wrapper of nothing that retries.
func (db *DB) Loop(ctx context.Context, q string) error { return db.Loop(ctx, q) }
