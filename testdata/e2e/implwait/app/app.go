// Package app holds a store.Backend built from package limited: only the
// facts of limited show that a read through the interface queues for a
// slot first, since store declares no implementation.
package app

import (
	"context"
	"log"
	"time"

	"queuecheck.example/implwait/limited"
	"queuecheck.example/implwait/store"
)

// App reads through a Backend.
type App struct{ be store.Backend }

// New builds an App on the bounded backend.
func New(dir string) *App { return &App{be: limited.New(dir)} }

func (a *App) lookup(ctx context.Context, key string) {
	start := time.Now()
	_, err := a.be.Get(ctx, key)
	log.Printf("lookup took %v: %v", time.Since(start), err) // want:waittiming
}

func (a *App) fetch(key string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond) // want:waittiming
	defer cancel()
	_, err := a.be.Get(ctx, key)
	return err
}
