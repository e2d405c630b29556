// Package pacing takes a timestamp after the wait that only paces a retry
// (a guard against spinning, as NATS's stream catch-up has): it splits no
// measurement, unlike a second timestamp that is recorded.
package pacing

import (
	"context"
	"log"
	"time"
)

type syncer struct{ sem chan struct{} }

func (s *syncer) request(ctx context.Context) error { return nil }

// CatchUp logs the time since a start taken before the semaphore; the
// timestamp after it only keeps the retries from spinning.
func (s *syncer) CatchUp(ctx context.Context) error {
	start := time.Now()
	s.sem <- struct{}{}
	defer func() { <-s.sem }()
	sent := time.Now()
	err := s.request(ctx)
	if err != nil {
		const minRetryWait = 2 * time.Second
		elapsed := time.Since(sent)
		if elapsed < minRetryWait {
			<-time.After(minRetryWait - elapsed)
		}
		return err
	}
	log.Printf("catch-up took %v", time.Since(start)) // want `the duration since start spans the wait in the send to semaphore channel sem and the work after it`
	return nil
}

// Split records the time since a second timestamp after the wait: wait and
// run time are measured apart.
func (s *syncer) Split(ctx context.Context) error {
	start := time.Now()
	s.sem <- struct{}{}
	defer func() { <-s.sem }()
	began := time.Now()
	err := s.request(ctx)
	log.Printf("request took %v", time.Since(began))
	log.Printf("catch-up took %v", time.Since(start)) // why: split-timestamp
	return err
}
