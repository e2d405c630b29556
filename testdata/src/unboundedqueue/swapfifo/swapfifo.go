// Package swapfifo holds slice queues whose consumer swaps the whole slice
// out and returns it: a queue all the same, bounded only if the appending
// side checks the length.
package swapfifo

import (
	"errors"
	"sync"

	"unboundedqueue/swapfifo/frame"
)

// Peer has the shape of emitter's cluster peer: Send appends every message
// for the remote peer, and a timer swaps the frame out and gossips it.
type Peer struct {
	sync.Mutex
	frame  frame.Frame
	active bool
}

func (p *Peer) Send(m *frame.Message) error {
	p.Lock()
	defer p.Unlock()
	if p.active {
		p.frame = append(p.frame, *m) // want `slice queue p.frame grows without bound: this append has no length check while \(\*Peer\).swap takes all its items`
	}
	return nil
}

// swap swaps the frame and returns the one to encode.
func (p *Peer) swap() (swapped frame.Frame) {
	p.Lock()
	defer p.Unlock()
	swapped = p.frame
	p.frame = frame.NewFrame(128)
	return
}

func (p *Peer) processSendQueue(gossip func(frame.Frame)) {
	if len(p.frame) == 0 {
		return
	}
	gossip(p.swap())
}

// A buffer taken by a local and returned.
type buffer struct {
	mu    sync.Mutex
	items []string
}

func (b *buffer) add(s string) {
	b.mu.Lock()
	b.items = append(b.items, s) // want `slice queue b.items grows without bound`
	b.mu.Unlock()
}

func (b *buffer) take() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	out, b.items = b.items, nil
	return out
}

// Not reported. A reset that keeps nothing: Close drops what is queued.
type closer struct {
	mu    sync.Mutex
	items []string
}

func (c *closer) add(s string) {
	c.mu.Lock()
	c.items = append(c.items, s)
	c.mu.Unlock()
}

func (c *closer) Close() {
	c.mu.Lock()
	c.items = nil
	c.mu.Unlock()
}

// A swap that returns how many it dropped, not the items.
func (c *closer) discard() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.items
	c.items = nil
	return len(old)
}

// A reset to a frame of zero messages filled by index is not emptied.
type slots struct {
	sync.Mutex
	frame frame.Frame
}

func (s *slots) add(m frame.Message) {
	s.Lock()
	s.frame = append(s.frame, m)
	s.Unlock()
}

func (s *slots) swap() (swapped frame.Frame) {
	s.Lock()
	defer s.Unlock()
	swapped = s.frame
	s.frame = frame.Preallocated(128)
	return
}

// The appending side checks the length: bounded.
var errFull = errors.New("frame full")

type bounded struct {
	sync.Mutex
	frame frame.Frame
}

func (b *bounded) Send(m frame.Message) error {
	b.Lock()
	defer b.Unlock()
	if len(b.frame) >= 1024 {
		return errFull
	}
	b.frame = append(b.frame, m)
	return nil
}

func (b *bounded) swap() (swapped frame.Frame) {
	b.Lock()
	defer b.Unlock()
	swapped = b.frame
	b.frame = frame.NewFrame(128)
	return
}

// A swap that hands the items back on one path only: another return
// gives nil, so the check does not call it a consumer.
type gated struct {
	sync.Mutex
	items []string
	ready bool
}

func (g *gated) add(s string) {
	g.Lock()
	g.items = append(g.items, s)
	g.Unlock()
}

func (g *gated) take() []string {
	g.Lock()
	defer g.Unlock()
	if !g.ready {
		return nil
	}
	out := g.items
	g.items = nil
	return out
}
