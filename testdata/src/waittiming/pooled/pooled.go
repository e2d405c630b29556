// Package pooled times operations of the MongoDB driver, which check a
// connection out of the client's pool before their work (knowledge list
// pooled-calls), directly and through a seam the package declares.
package pooled

import (
	"context"
	"log"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// Insert times an insert, pool checkout included.
func Insert(ctx context.Context, c *mongo.Collection, doc any) error {
	start := time.Now()
	_, err := c.InsertOne(ctx, doc)
	log.Printf("insert took %v", time.Since(start)) // want `the duration since start spans \(\*mongo.Collection\).InsertOne, which checks a connection out of its client's pool before its work`
	return err
}

// collection is the seam tests swap: the driver's collection, or a mock
// in a test-support file.
type collection interface {
	FindOne(ctx context.Context, filter any) *mongo.SingleResult
	InsertOne(ctx context.Context, doc any) (*mongo.InsertOneResult, error)
}

type store struct{ coll collection }

func newStore(c *mongo.Collection) *store { return &store{coll: c} }

// Find times a lookup through the seam.
func (s *store) Find(ctx context.Context, filter any) error {
	start := time.Now()
	err := s.coll.FindOne(ctx, filter).Err()
	log.Printf("find took %v", time.Since(start)) // want `spans \(pooled.collection\).FindOne via \(\*mongo.Collection\).FindOne, which checks a connection out`
	return err
}

// Total records the figure users see, named as such.
func Total(ctx context.Context, c *mongo.Collection, doc any) error {
	start := time.Now()
	_, err := c.InsertOne(ctx, doc)
	log.Printf("total insert time %v", time.Since(start)) // why: callee-wait-total, no-wait-in-span
	return err
}

// cache is a seam with an implementation of its own that keeps documents
// in memory: a call of it may take no connection.
type cache interface {
	FindOne(ctx context.Context, filter any) *mongo.SingleResult
}

type memory struct{}

func (memory) FindOne(ctx context.Context, filter any) *mongo.SingleResult { return nil }

// Cached times a lookup that may never reach the driver.
func Cached(ctx context.Context, c cache, filter any) {
	start := time.Now()
	_ = c.FindOne(ctx, filter)
	log.Printf("cached find took %v", time.Since(start)) // why: no-wait-in-span
}

var _, _ = newStore, memory{}

// Commit times the commit of a transaction, which checks a connection out
// like any other operation.
func Commit(ctx context.Context, s *mongo.Session) error {
	start := time.Now()
	err := s.CommitTransaction(ctx)
	log.Printf("commit took %v", time.Since(start)) // want `the duration since start spans \(\*mongo.Session\).CommitTransaction, which checks a connection out of its client's pool before its work`
	return err
}

// End times ending the session, which the driver does without a
// connection the caller waits for.
func End(ctx context.Context, s *mongo.Session) {
	start := time.Now()
	s.EndSession(ctx)
	log.Printf("end took %v", time.Since(start))
}
