// Package fanoutalone fans out over a listing with no bounded sibling: the
// package gives no evidence that the backend needs a limit, and the check
// stays silent.
package fanoutalone

import "context"

type api interface {
	List(ctx context.Context) ([]string, error)
	Get(ctx context.Context, name string) error
}

func refresh(ctx context.Context, c api) error {
	names, err := c.List(ctx)
	if err != nil {
		return err
	}
	for _, n := range names {
		go func() { _ = c.Get(ctx, n) }()
	}
	return nil
}
