// Package kmsg is a protocol package, as a client library splits its
// messages from its client: a request is issued through a Requestor the
// caller hands in, an interface of one method that this package never
// implements.
package kmsg

import "context"

// Requestor issues a request and returns its response.
type Requestor interface {
	Request(ctx context.Context, req string) (string, error)
}

// Doer has two methods: a callee handed one may call either.
type Doer interface {
	Do(ctx context.Context, req string) (string, error)
	Close() error
}

// CommitRequest is one request of the protocol.
type CommitRequest struct{ Group string }

// RequestWith issues the request through r.
func (v *CommitRequest) RequestWith(ctx context.Context, r Requestor) (string, error) {
	return r.Request(ctx, v.Group)
}

// DoWith issues the request through d.
func (v *CommitRequest) DoWith(ctx context.Context, d Doer) (string, error) {
	return d.Do(ctx, v.Group)
}

// Describe returns the request's name; it calls nothing it is handed.
func Describe(ctx context.Context, v *CommitRequest) string { return v.Group }
