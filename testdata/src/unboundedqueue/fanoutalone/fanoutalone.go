// Package fanoutalone fans out over a listing with no bounded sibling. The
// sibling rule needs one as evidence that the backend needs a limit; the
// data-sized rule does not: the listing's size comes from the data and each
// goroutine calls the backend.
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
		go func() { _ = c.Get(ctx, n) }() // want `goroutine per element of names, whose size comes from the data \(returned by c.List\), each doing blocking work \(c.Get\)`
	}
	return nil
}
