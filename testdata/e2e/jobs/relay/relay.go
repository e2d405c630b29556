// Package relay forwards records to sinks and looks up peers. What its pools
// share is known only from the facts of packages sinks and retry.
package relay

import (
	"context"
	"net"
	"net/http"

	"queuecheck.example/jobs/retry"
	"queuecheck.example/jobs/sinks"
)

// Forward writes every record to every sink on four workers.
func Forward(records <-chan []byte, targets []sinks.Sink) {
	for range 4 {
		go func() {
			for rec := range records {
				for _, s := range targets {
					_ = s.Write(rec) // want:iface
				}
			}
		}()
	}
}

// A Prober looks up peers and syncs with them, sharing one limit.
type Prober struct {
	slots chan struct{}
}

// NewProber returns a prober of n slots.
func NewProber(n int) *Prober { return &Prober{slots: make(chan struct{}, n)} }

// Lookup resolves host in a slot.
func (p *Prober) Lookup(ctx context.Context, host string) error {
	p.slots <- struct{}{}
	defer func() { <-p.slots }()
	_, err := net.DefaultResolver.LookupHost(ctx, host)
	return err
}

// Sync retries a call to peer in a slot, sleeping between attempts.
func (p *Prober) Sync(peer string) error {
	p.slots <- struct{}{} // want:held
	defer func() { <-p.slots }()
	return retry.Do(3, func() error {
		resp, err := http.Get("http://" + peer + "/sync")
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}
