// Package credentials is a stub of the AWS SDK for Go v1's credentials:
// GetWithContext usually answers from its cache.
package credentials

import "context"

type Value struct{ AccessKeyID string }

type Credentials struct{}

func (c *Credentials) GetWithContext(ctx context.Context) (Value, error) { return Value{}, nil }
