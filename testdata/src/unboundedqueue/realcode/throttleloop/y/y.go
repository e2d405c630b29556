// Package y is a throttle as a storage engine writes one: Do takes a slot
// in a loop that also hands back the errors workers reported, Done gives
// it back.
package y

import "sync"

type Throttle struct {
	wg    sync.WaitGroup
	ch    chan struct{}
	errCh chan error
}

func NewThrottle(max int) *Throttle {
	return &Throttle{ch: make(chan struct{}, max), errCh: make(chan error, max)}
}

func (t *Throttle) Do() error {
	for {
		select {
		case t.ch <- struct{}{}:
			t.wg.Add(1)
			return nil
		case err := <-t.errCh:
			if err != nil {
				return err
			}
		}
	}
}

func (t *Throttle) Done(err error) {
	if err != nil {
		t.errCh <- err
	}
	select {
	case <-t.ch:
	default:
		panic("Throttle Do Done mismatch")
	}
	t.wg.Done()
}

func (t *Throttle) Finish() error {
	t.wg.Wait()
	return nil
}
