// Package quotas has a rate limiter interface of a service's own.
package quotas

import "context"

type RateLimiter interface {
	Allow() bool
	Wait(ctx context.Context) error
	WaitN(ctx context.Context, n int) error
}
