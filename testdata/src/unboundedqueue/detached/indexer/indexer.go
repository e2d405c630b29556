// Package indexer runs one index rebuild or import at a time and says
// whether one runs: the handlers that start its jobs turn requests away
// while it is busy.
package indexer

import (
	"context"
	"os"
	"sync/atomic"
)

var running atomic.Bool

// Running says whether a rebuild runs.
func Running() bool { return running.Load() }

// Rebuild reads the whole tree: blocking work.
func Rebuild(ctx context.Context, root string) error {
	if !running.CompareAndSwap(false, true) {
		return nil
	}
	defer running.Store(false)
	_, err := os.ReadDir(root)
	return err
}

type Status int

const (
	StatusIdle Status = iota
	StatusImporting
)

type Stats struct{ Status Status }

// Importer imports one file at a time.
type Importer struct{ status atomic.Int32 }

func (im *Importer) Stats() Stats { return Stats{Status: Status(im.status.Load())} }

// Session is one import.
type Session struct {
	im   *Importer
	path string
}

func (im *Importer) NewSession(path string) *Session { return &Session{im: im, path: path} }

// Start imports the file: blocking work.
func (s *Session) Start() {
	s.im.status.Store(int32(StatusImporting))
	defer s.im.status.Store(int32(StatusIdle))
	_, _ = os.ReadFile(s.path)
}
