// Package batchwriter is headscale's NodeStore (hscontrol/state/node_store.go):
// each write is handed to one batching writer over an unbuffered channel
// and the caller waits for the result. The writer takes each item at once
// and applies the batch on size or on a tick, so the send returns before
// the wait is over: the batch is the queue, and a split at the send would
// leave the wait for the batch in the run figure. Reported, as temporal's
// task writers, without a fix.
package batchwriter

import (
	"log"
	"time"
)

type work struct {
	id     int
	result chan struct{}
}

type Store struct {
	writeQueue chan work
	stopped    chan struct{}
}

func observe(op string, d time.Duration) { log.Printf("op %s took %v", op, d) } // want observe:"bookkeeping"

func (s *Store) PutNode(id int) {
	start := time.Now()
	w := work{id: id, result: make(chan struct{})}
	select {
	case s.writeQueue <- w:
	case <-s.stopped:
		return
	}
	<-w.result
	observe("put", time.Since(start)) // want `the duration since start spans the queue of writeQueue and the work of the goroutine that drains it`
}

func (s *Store) processWrite() {
	t := time.NewTicker(time.Millisecond)
	var batch []work
	for {
		select {
		case w := <-s.writeQueue:
			batch = append(batch, w)
			if len(batch) >= 16 {
				s.apply(batch)
				batch = batch[:0]
			}
		case <-t.C:
			s.apply(batch)
			batch = batch[:0]
		case <-s.stopped:
			return
		}
	}
}

func (s *Store) apply(b []work) {
	for _, w := range b {
		close(w.result)
	}
}

func (s *Store) Start() {
	s.writeQueue = make(chan work)
	s.stopped = make(chan struct{})
	go s.processWrite()
}

// The same writer ranging over its channel.
type RangeStore struct {
	writeQueue chan work
}

func (s *RangeStore) PutNode(id int) {
	start := time.Now()
	w := work{id: id, result: make(chan struct{})}
	s.writeQueue <- w
	<-w.result
	observe("put", time.Since(start)) // want `the duration since start spans the queue of writeQueue and the work of the goroutine that drains it`
}

func (s *RangeStore) processWrite() {
	var batch []work
	for w := range s.writeQueue {
		batch = append(batch, w)
		if len(batch) >= 16 {
			for _, b := range batch {
				close(b.result)
			}
			batch = batch[:0]
		}
	}
}

func (s *RangeStore) Start() {
	s.writeQueue = make(chan work)
	go s.processWrite()
}
