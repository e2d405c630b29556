// Package variadic is headscale hscontrol/mapper (node_conn.go appendPending,
// prependPending, drainPending; batcher.go addToBatch, processBatchedChanges).
// Every change in the tailnet is appended to the pending slice of every
// connected node through a variadic helper (one or a few changes per call);
// a ticker takes each node's whole slice and hands it to a worker, but skips
// nodes whose previous bundle is still in flight, and undeliverable changes
// are put back in front. A slow or not-yet-ready node's slice grows with the
// tailnet's churn, with nothing capping it.
package variadic

import (
	"sync"
	"sync/atomic"
	"time"
)

type Change struct {
	NodeID int
	Kind   int
}

type nodeConn struct {
	pendingMu sync.Mutex
	pending   []Change
	inFlight  atomic.Bool
}

func (mc *nodeConn) appendPending(changes ...Change) {
	mc.pendingMu.Lock()
	mc.pending = append(mc.pending, changes...) // want `slice queue mc.pending grows without bound: this append has no length check while \(\*nodeConn\).drainPending takes all its items at once, so overload piles up in memory; reject or drop items beyond a limit, by hand: this call adds several items at once`
	mc.pendingMu.Unlock()
}

func (mc *nodeConn) prependPending(changes ...Change) {
	mc.pendingMu.Lock()
	mc.pending = append(changes, mc.pending...)
	mc.pendingMu.Unlock()
}

func (mc *nodeConn) drainPending() []Change {
	mc.pendingMu.Lock()
	p := mc.pending
	mc.pending = nil
	mc.pendingMu.Unlock()
	return p
}

type Batcher struct {
	mu     sync.Mutex
	nodes  map[int]*nodeConn
	workCh chan []Change
}

// AddToBatch runs for every change event.
func (b *Batcher) AddToBatch(c Change) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, nc := range b.nodes {
		nc.appendPending(c)
	}
}

func (b *Batcher) tick() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, nc := range b.nodes {
		if nc.inFlight.Load() {
			continue
		}
		pending := nc.drainPending()
		if len(pending) == 0 {
			continue
		}
		nc.inFlight.Store(true)
		b.workCh <- pending
	}
}

func (b *Batcher) Run() {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for range t.C {
		b.tick()
	}
}

func (b *Batcher) deliver(nc *nodeConn, changes []Change, send func([]Change) error) {
	if err := send(changes); err != nil {
		nc.prependPending(changes...)
	}
	nc.inFlight.Store(false)
}

// Negative: a spread of a slice the function was given as a batch (not its
// variadic parameter): a constructor's fill, bounded by its input.
type preloaded struct {
	mu    sync.Mutex
	items []Change
}

func (p *preloaded) load(batch []Change) {
	p.mu.Lock()
	p.items = append(p.items, batch...)
	p.mu.Unlock()
}

func (p *preloaded) next() Change {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.items[0]
	p.items = p.items[1:]
	return c
}
