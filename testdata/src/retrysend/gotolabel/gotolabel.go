// Package gotolabel retries sends in two loops, the second labeled as the
// target of a goto in the first: the fix must keep the label.
package gotolabel

import (
	"context"
	"time"
)

type item struct{ n int }

func pushTwo(ctx context.Context, a, b chan item, v item) error {
	for { // want `loop retries a non-blocking send on a until it succeeds`
		select {
		case a <- v:
			goto next
		default:
			time.Sleep(time.Millisecond)
		}
	}
next:
	for { // want `loop retries a non-blocking send on b until it succeeds`
		select {
		case b <- v:
			return nil
		default:
			time.Sleep(time.Millisecond)
		}
	}
}
