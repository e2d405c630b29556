// Package lib declares a helper that retries with a sleep between attempts:
// its retries fact travels to the packages that call it.
package lib

import (
	"context"
	"errors"
	"log"
	"time"

	"queuecheck.example/retries/pause"
)

// Fetch retries the call with a sleep between attempts.
func Fetch(call func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// FetchOnce makes one attempt.
func FetchOnce(call func() error) error { return call() }

// Placer places a key; its only implementation, unexported, retries with a
// pause of package pause between attempts. Importers see only the
// interface: the fact on Placer.Place says what every implementation does.
type Placer interface {
	Place(ctx context.Context, key string) error
}

type placer struct{ retryInterval time.Duration }

// NewPlacer returns the package's Placer.
func NewPlacer() Placer { return placer{retryInterval: time.Second} }

func (p placer) Place(ctx context.Context, key string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = put(key); err == nil {
			return nil
		}
		pause.Jitter(ctx, p.retryInterval)
	}
	return err
}

func put(key string) error { return errors.New("unavailable: " + key) }

// Timed times a call of the function it is handed and logs it: its timer
// helper fact (times a call of param 1) says so to the packages that call
// it, which hand it what it times.
func Timed(op string, call func() error) error {
	start := time.Now()
	err := call()
	log.Printf("%s took %v", op, time.Since(start))
	return err
}
