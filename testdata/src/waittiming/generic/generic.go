// Package generic has measurements in generic code.
package generic

import (
	"context"
	"log"
	"time"

	"golang.org/x/sync/semaphore"
)

// Do times f from before the wait for a slot.
func Do[T any](ctx context.Context, sem *semaphore.Weighted, f func() T) (T, error) {
	start := time.Now()
	var zero T
	if err := sem.Acquire(ctx, 1); err != nil {
		return zero, err
	}
	defer sem.Release(1)
	v := f()
	log.Printf("do took %v", time.Since(start)) // want `the duration since start spans the wait in \(\*semaphore\.Weighted\)\.Acquire`
	return v, nil
}

// Pool runs functions of one result type on a semaphore channel.
type Pool[T any] struct {
	slots chan struct{}
}

func NewPool[T any](n int) *Pool[T] { return &Pool[T]{slots: make(chan struct{}, n)} }

// Run times f from before the wait for a slot.
func (p *Pool[T]) Run(f func() T) T {
	start := time.Now()
	p.slots <- struct{}{}
	defer func() { <-p.slots }()
	v := f()
	log.Printf("run took %v", time.Since(start)) // want `spans the wait in the send to semaphore channel slots`
	return v
}
