// Package shadowed sheds the overflow of a channel in a function whose
// parameter is called errors. The sentinel error the fix returns is declared
// at the top level, the only place that names package errors, so the
// parameter does not stand in the way of the fix.
package shadowed

import "sync"

type event struct{ id int }

type bus struct {
	mu      sync.Mutex
	out     chan event
	backlog []event
}

// Emit tells errors it has started, then publishes.
func (b *bus) Emit(e event, errors chan<- error) error {
	errors <- nil
	select {
	case b.out <- e:
	default:
		b.mu.Lock()
		b.backlog = append(b.backlog, e) // want `default of a non-blocking send on b.out appends the item to b.backlog`
		b.mu.Unlock()
	}
	return nil
}
