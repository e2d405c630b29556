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

// session is a seam over the driver's session; tracedSession implements it
// too, by handing each call to the session it wraps: a decorator, which
// adds no implementation of its own.
type session interface {
	CommitTransaction(ctx context.Context) error
	EndSession(ctx context.Context)
}

type tracedSession struct{ session session }

// CommitTransaction times the commit of the session it wraps.
func (t *tracedSession) CommitTransaction(ctx context.Context) error {
	start := time.Now()
	err := t.session.CommitTransaction(ctx)
	log.Printf("commit took %v", time.Since(start)) // want `spans \(pooled.session\).CommitTransaction via \(\*mongo.Session\).CommitTransaction, which checks a connection out`
	return err
}

func (t *tracedSession) EndSession(ctx context.Context) { t.session.EndSession(ctx) }

// bufferedSession commits on its own (it delegates nothing) and ends no
// session: it implements committer, not session.
type bufferedSession struct{}

func (bufferedSession) CommitTransaction(ctx context.Context) error { return nil }

// committer is a narrower seam, which bufferedSession implements too: a
// call of it may take no connection.
type committer interface {
	CommitTransaction(ctx context.Context) error
}

// CommitAny times a commit through the narrower seam.
func CommitAny(ctx context.Context, c committer) error {
	start := time.Now()
	err := c.CommitTransaction(ctx)
	log.Printf("commit took %v", time.Since(start)) // why: no-wait-in-span
	return err
}

var (
	_ session   = &tracedSession{}
	_ committer = bufferedSession{}
)
