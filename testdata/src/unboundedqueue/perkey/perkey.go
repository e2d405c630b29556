// Package perkey starts a goroutine per key of a registry that grows with
// the data: a sender per destination created the first time an event is
// addressed to it, a worker per room stored with LoadOrStore. Beside them,
// the registries that stay silent: one filled from the configuration, one
// capped by its length, one of connections, and work that only computes.
package perkey

import (
	"context"
	"sync"
	"sync/atomic"
)

type Client interface {
	Send(ctx context.Context, dest string, batch []string) error
}

// Queues holds a sender per destination.
type Queues struct {
	mu     sync.Mutex
	queues map[string]*destQueue
	client Client
}

type destQueue struct {
	dest    string
	client  Client
	running atomic.Bool
	pending []string
}

func NewQueues(c Client) *Queues { return &Queues{queues: make(map[string]*destQueue), client: c} }

// getQueue creates the destination's queue the first time it is asked.
func (q *Queues) getQueue(dest string) *destQueue {
	q.mu.Lock()
	defer q.mu.Unlock()
	oq, ok := q.queues[dest]
	if !ok {
		oq = &destQueue{dest: dest, client: q.client}
		q.queues[dest] = oq
	}
	return oq
}

func (q *Queues) SendEvent(ev string, dests []string) {
	for _, d := range dests {
		q.getQueue(d).wake()
	}
}

// One sender per destination, deduplicated by a CompareAndSwap: as many as
// the destinations the data brings.
func (oq *destQueue) wake() {
	if !oq.running.Load() {
		go oq.backgroundSend() // want `goroutine started by \(\*destQueue\).wake per destQueue, an entry of q.queues that \(\*Queues\).getQueue adds at run time for each new key: it does blocking work \(oq.backgroundSend\), and nothing caps the keys or the goroutines running at once`
	}
}

func (oq *destQueue) backgroundSend() {
	if !oq.running.CompareAndSwap(false, true) {
		return
	}
	defer oq.running.Store(false)
	_ = oq.client.Send(context.Background(), oq.dest, oq.pending)
}

// Rooms holds a worker per room, stored with LoadOrStore.
type Rooms struct {
	workers sync.Map // room ID -> *roomWorker
	inputs  chan string
}

type roomWorker struct {
	room   string
	inputs chan string
	client Client
}

func (r *Rooms) startWorker(room string, c Client) {
	v, loaded := r.workers.LoadOrStore(room, &roomWorker{room: room, inputs: make(chan string), client: c})
	if !loaded {
		v.(*roomWorker).start()
	}
}

func (w *roomWorker) start() {
	go w.run() // want `goroutine started by \(\*roomWorker\).start per roomWorker, an entry of r.workers that \(\*Rooms\).startWorker adds at run time for each new key: it does blocking work \(w.run\)`
}

func (w *roomWorker) run() {
	for in := range w.inputs {
		_ = w.client.Send(context.Background(), w.room, []string{in})
	}
}

// Negative: the registry is filled from the configured peers when the
// service starts: a goroutine per configured key.
type Peers struct {
	peers  map[string]*peer
	config []string
	client Client
}

type peer struct {
	addr    string
	client  Client
	running atomic.Bool
}

func (p *Peers) Start() {
	for _, addr := range p.config {
		p.peers[addr] = &peer{addr: addr, client: p.client}
	}
}

func (pe *peer) heartbeat() {
	if pe.running.CompareAndSwap(false, true) {
		go func() { // why: fixed-registry
			defer pe.running.Store(false)
			_ = pe.client.Send(context.Background(), pe.addr, nil)
		}()
	}
}

// Negative: the registry is capped by its length before a key is added.
type Tenants struct {
	mu      sync.Mutex
	tenants map[string]*tenant
	client  Client
}

type tenant struct {
	id      string
	client  Client
	running atomic.Bool
}

const maxTenants = 1000

func (t *Tenants) add(id string) *tenant {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.tenants) >= maxTenants {
		return nil
	}
	tn := &tenant{id: id, client: t.client}
	t.tenants[id] = tn
	return tn
}

func (tn *tenant) flush() {
	if tn.running.CompareAndSwap(false, true) {
		go func() { // why: registry-cap
			defer tn.running.Store(false)
			_ = tn.client.Send(context.Background(), tn.id, nil)
		}()
	}
}

// Negative: the entries are connections, each served by its goroutine
// (the accept loop decides how many).
type Conns struct {
	mu    sync.Mutex
	conns map[string]*conn
}

type conn struct {
	id      string
	client  Client
	running atomic.Bool
}

func (c *conn) Close() error { return nil }

func (cs *Conns) register(id string, cl Client) *conn {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	c := &conn{id: id, client: cl}
	cs.conns[id] = c
	return c
}

func (c *conn) serve() {
	if c.running.CompareAndSwap(false, true) {
		go func() { // why: entity-items
			_ = c.client.Send(context.Background(), c.id, nil)
		}()
	}
}

// Negative: the goroutine per key only computes.
type Counters struct {
	byKey map[string]*counter
}

type counter struct{ n int }

func (cs *Counters) inc(k string) {
	c := &counter{}
	cs.byKey[k] = c
	c.bump()
}

func (c *counter) bump() {
	done := make(chan struct{})
	go func() { // why: no-blocking-work
		c.n++
		close(done)
	}()
	<-done
}

// Streams holds streams a client created through the API, each stopped
// through it.
type Streams struct {
	mu      sync.Mutex
	streams map[string]*stream
	client  Client
}

type stream struct {
	name   string
	client Client
	msgs   chan string
}

func (ss *Streams) Create(name string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	st := &stream{name: name, client: ss.client, msgs: make(chan string)}
	ss.streams[name] = st
	st.start()
}

// Negative: an entity the API creates and stops.
func (st *stream) start() {
	go st.deliver() // why: managed-entry
}

func (st *stream) deliver() {
	for m := range st.msgs {
		_ = st.client.Send(context.Background(), st.name, []string{m})
	}
}

func (st *stream) stop() { close(st.msgs) }

// Negative: a one-off goroutine per call of a method of an entry, neither
// its worker nor claimed once per entry: one per call, not per key.
func (oq *destQueue) report() {
	go func() { // why: not-per-key
		_ = oq.client.Send(context.Background(), "stats", nil)
	}()
}

// Negative: the entry's method starts a worker that is not the entry's:
// an errand for another value.
func (oq *destQueue) evict(other Client) {
	go func() { // why: not-own-work
		for {
			if other.Send(context.Background(), "evict", nil) == nil {
				return
			}
		}
	}()
}
