// Package kmsg is a protocol package: a request is issued through a
// Requestor the caller hands in, an interface of one method that this
// package never implements.
package kmsg

import "context"

// Requestor issues a request and returns its response.
type Requestor interface {
	Request(ctx context.Context, req string) (string, error)
}

// CommitRequest is one request of the protocol.
type CommitRequest struct{ Group string }

// RequestWith issues the request through r.
func (v *CommitRequest) RequestWith(ctx context.Context, r Requestor) (string, error) {
	return r.Request(ctx, v.Group)
}
