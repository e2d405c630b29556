// Package generics is generics-heavy code the suite must not trip on.
package generics

import (
	"context"
	"sync"
	"time"
)

type Number interface{ ~int | ~int64 | ~float64 }

type Pipeline[In, Out any] struct {
	mu    sync.Mutex
	stage func(In) Out
	out   chan Out
	buf   []In
}

func NewPipeline[In, Out any](f func(In) Out, n int) *Pipeline[In, Out] {
	return &Pipeline[In, Out]{stage: f, out: make(chan Out, n)}
}

func (p *Pipeline[In, Out]) Run(ctx context.Context, in <-chan In) {
	for v := range in {
		select {
		case p.out <- p.stage(v):
		case <-ctx.Done():
			return
		}
	}
}

func Sum[T Number](xs ...T) (s T) {
	for _, x := range xs {
		s += x
	}
	return s
}

type Tree[K comparable, V any] struct {
	Left, Right *Tree[K, V]
	Key         K
	Val         V
}

func (t *Tree[K, V]) Walk(yield func(K, V) bool) bool {
	if t == nil {
		return true
	}
	return t.Left.Walk(yield) && yield(t.Key, t.Val) && t.Right.Walk(yield)
}

func Timed[T any](f func() T) (T, time.Duration) {
	start := time.Now()
	v := f()
	return v, time.Since(start)
}
