// Package bwg is a WaitGroup whose Add takes a slot of a buffered channel
// first (tempo's pkg/boundedwaitgroup; remeh/sizedwaitgroup is the same
// shape with a select on ctx.Done): Add blocks once capacity goroutines
// run, so a loop that calls Add before each go statement is bounded.
package bwg

import "sync"

type BoundedWaitGroup struct {
	wg sync.WaitGroup
	ch chan struct{}
}

func New(capacity uint) BoundedWaitGroup {
	return BoundedWaitGroup{ch: make(chan struct{}, capacity)}
}

func (bwg *BoundedWaitGroup) Add(delta int) {
	for i := 0; i > delta; i-- {
		<-bwg.ch
	}
	for i := 0; i < delta; i++ {
		bwg.ch <- struct{}{}
	}
	bwg.wg.Add(delta)
}

func (bwg *BoundedWaitGroup) Done() { bwg.Add(-1) }

func (bwg *BoundedWaitGroup) Wait() { bwg.wg.Wait() }
