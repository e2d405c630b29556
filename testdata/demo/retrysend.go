package demo

import (
	"context"
	"errors"
	"time"
)

// retrysendDoc is one document waiting to be indexed.
type retrysendDoc struct {
	ID   string
	Body []byte
}

// retrysendIndexer feeds documents to a fixed pool of index workers through
// a bounded channel. Each of its three entry points takes the bound back.
type retrysendIndexer struct {
	docs    chan retrysendDoc
	pending []retrysendDoc
}

var errRetrysendBusy = errors.New("indexer busy")

// Submit waits for a worker by polling: every 5ms it tries again, while the
// callers pile up behind it and ctx is never looked at (retryloop).
func (ix *retrysendIndexer) Submit(ctx context.Context, d retrysendDoc) error {
	for {
		select {
		case ix.docs <- d:
			return nil
		default:
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// TrySubmit gives the workers 30ms, in three polls, before rejecting the
// document (pollingsend).
func (ix *retrysendIndexer) TrySubmit(d retrysendDoc) error {
	for i := 0; i < 3; i++ {
		select {
		case ix.docs <- d:
			return nil
		default:
			time.Sleep(10 * time.Millisecond)
		}
	}
	return errRetrysendBusy
}

// Offer never blocks: when the workers are behind it parks the document in a
// slice that nothing bounds (overflow).
func (ix *retrysendIndexer) Offer(d retrysendDoc) {
	select {
	case ix.docs <- d:
	default:
		ix.pending = append(ix.pending, d)
	}
}
