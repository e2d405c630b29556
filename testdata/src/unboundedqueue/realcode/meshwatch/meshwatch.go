// Package meshwatch is tailscale derp/derpserver broadcastPeerStateChangeLocked
// and sendMeshUpdates. Every client connect or disconnect appends one entry to
// the slice of every mesh watcher (a range over the watchers set, under the
// server mutex); each watcher's send loop takes the whole slice in a closure
// that resets it to lastBatch[:0] (re-using the previous batch's memory), and
// writes it out. A slow watcher's slice grows with client churn. The swap
// returns nil when the slice is empty: the queue, empty, all the same.
package meshwatch

import (
	"io"
	"sync"
)

type peerConnState struct {
	peer    [32]byte
	present bool
}

type Server struct {
	mu       sync.Mutex
	watchers map[*sclient]struct{}
}

type sclient struct {
	s               *Server
	w               io.Writer
	meshUpdate      chan struct{}
	peerStateChange []peerConnState
}

func (s *Server) broadcastPeerStateChangeLocked(peer [32]byte, present bool) {
	for w := range s.watchers {
		w.peerStateChange = append(w.peerStateChange, peerConnState{peer: peer, present: present}) // want `slice queue w.peerStateChange grows without bound: this append has no length check while a function literal in \(\*sclient\).sendMeshUpdates takes all its items at once`
		go w.requestMeshUpdate()
	}
}

func (s *Server) Register(peer [32]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.broadcastPeerStateChangeLocked(peer, true)
}

func (c *sclient) requestMeshUpdate() {
	select {
	case c.meshUpdate <- struct{}{}:
	default:
	}
}

func (c *sclient) sendMeshUpdates() error {
	var lastBatch []peerConnState
	takeAll := func() []peerConnState {
		c.s.mu.Lock()
		defer c.s.mu.Unlock()
		if len(c.peerStateChange) == 0 {
			return nil
		}
		batch := c.peerStateChange
		if cap(lastBatch) > 16 {
			lastBatch = nil
		}
		c.peerStateChange = lastBatch[:0]
		return batch
	}
	for {
		batch := takeAll()
		if len(batch) == 0 {
			return nil
		}
		for _, pcs := range batch {
			if _, err := c.w.Write(pcs.peer[:]); err != nil {
				return err
			}
		}
		lastBatch = batch
	}
}

func (c *sclient) sendLoop() error {
	for range c.meshUpdate {
		if err := c.sendMeshUpdates(); err != nil {
			return err
		}
	}
	return nil
}
