// Package mongo is a stub of the MongoDB driver's collection API: each
// operation checks a connection out of the client's pool first.
package mongo

import "context"

// Collection is a handle to a collection.
type Collection struct{}

// InsertOneResult is what InsertOne returns.
type InsertOneResult struct{ InsertedID any }

// SingleResult is what FindOne returns.
type SingleResult struct{ err error }

// Err returns the result's error.
func (r *SingleResult) Err() error { return r.err }

// InsertOne inserts doc.
func (c *Collection) InsertOne(ctx context.Context, doc any) (*InsertOneResult, error) {
	return &InsertOneResult{}, nil
}

// FindOne finds one document.
func (c *Collection) FindOne(ctx context.Context, filter any) *SingleResult {
	return &SingleResult{}
}

// Session is a client session, for transactions.
type Session struct{}

// CommitTransaction commits the session's transaction.
func (s *Session) CommitTransaction(ctx context.Context) error { return nil }

// AbortTransaction aborts the session's transaction.
func (s *Session) AbortTransaction(ctx context.Context) error { return nil }

// EndSession ends the session; it sends nothing the caller waits for.
func (s *Session) EndSession(ctx context.Context) {}
