// Package recipients covers per-recipient buffers (an append in a range over
// the recipients, one item for each) and consumers that take the whole
// queue at once (x := q.items; q.items = nil, in a loop).
package recipients

import (
	"net"
	"sync"
)

type command struct{ key string }

// Positive: each live client's buffer gets the command, in a range over the
// clients; each client's writer dequeues from the front (tile38 live
// geofences).
type liveBuffer struct {
	key     string
	details []*command
	cond    *sync.Cond
}

type server struct {
	lcond  *sync.Cond
	lstack []*command
	lives  map[*liveBuffer]bool
	pubq   pubQueue
}

// processLives hands each command of the stack to every live client that
// watches its key, then waits for more: the wait paces the dispatcher, no
// caller waits with its item.
func (s *server) processLives() {
	s.lcond.L.Lock()
	defer s.lcond.L.Unlock()
	for {
		for len(s.lstack) > 0 {
			item := s.lstack[0]
			s.lstack = s.lstack[1:]
			for lb := range s.lives {
				lb.cond.L.Lock()
				if lb.key == item.key {
					lb.details = append(lb.details, item) // want `slice queue lb.details grows without bound: this append has no length check while \(\*server\).goLive dequeues from its front`
					lb.cond.Broadcast()
				}
				lb.cond.L.Unlock()
			}
		}
		s.lcond.Wait()
	}
}

// record appends under the dispatcher's lock, which the dispatcher holds
// while it hands the commands out: the producers keep its pace.
func (s *server) record(c *command) {
	s.lcond.L.Lock()
	s.lstack = append(s.lstack, c)
	s.lcond.Broadcast()
	s.lcond.L.Unlock()
}

func (s *server) goLive(conn net.Conn, lb *liveBuffer) {
	for {
		lb.cond.L.Lock()
		for len(lb.details) > 0 {
			d := lb.details[0]
			lb.details = lb.details[1:]
			lb.cond.L.Unlock()
			_, _ = conn.Write([]byte(d.key))
			lb.cond.L.Lock()
		}
		lb.cond.Wait()
		lb.cond.L.Unlock()
	}
}

// Positive: each subscriber's messages, appended in a range over the
// messages addressed to them; the subscriber's writer swaps the whole slice
// out and writes it (tile38 pubsub).
type subtarget struct {
	cond   *sync.Cond
	msgs   []submsg
	closed bool
}

type submsg struct {
	target  *subtarget
	message string
}

func publish(msgs []submsg) int {
	for _, msg := range msgs {
		msg.target.cond.L.Lock()
		msg.target.msgs = append(msg.target.msgs, msg) // want `slice queue msg.target.msgs grows without bound: this append has no length check while a function literal in subscribe takes all its items at once`
		msg.target.cond.Broadcast()
		msg.target.cond.L.Unlock()
	}
	return len(msgs)
}

func subscribe(conn net.Conn, target *subtarget) {
	go func() {
		target.cond.L.Lock()
		defer target.cond.L.Unlock()
		for {
			for len(target.msgs) > 0 {
				msgs := target.msgs
				target.msgs = nil
				target.cond.L.Unlock()
				for _, m := range msgs {
					_, _ = conn.Write([]byte(m.message))
				}
				target.cond.L.Lock()
			}
			if target.closed {
				break
			}
			target.cond.Wait()
		}
	}()
}

// Positive: a follower publish queue: appended under a sync.Cond, taken whole
// by a loop that writes it to every follower without the lock (tile38).
type pubQueue struct {
	cond    *sync.Cond
	entries []string
	closed  bool
}

func (s *server) sendPublishQueue(message string) {
	s.pubq.cond.L.Lock()
	if !s.pubq.closed {
		s.pubq.entries = append(s.pubq.entries, message) // want `slice queue s.pubq.entries grows without bound: .* \(\*server\).startPublishQueue takes all its items at once`
	}
	s.pubq.cond.Broadcast()
	s.pubq.cond.L.Unlock()
}

func (s *server) startPublishQueue(conns []net.Conn) {
	s.pubq.cond.L.Lock()
	for {
		for len(s.pubq.entries) > 0 {
			entries := s.pubq.entries
			s.pubq.entries = nil
			s.pubq.cond.L.Unlock()
			for _, e := range entries {
				for _, c := range conns {
					_, _ = c.Write([]byte(e))
				}
			}
			s.pubq.cond.L.Lock()
		}
		if s.pubq.closed {
			break
		}
		s.pubq.cond.Wait()
	}
	s.pubq.cond.L.Unlock()
}

// Positive: the swap in one statement, in a ticker loop.
type batcher struct {
	mu      sync.Mutex
	pending []string
}

func (b *batcher) Add(s string) {
	b.mu.Lock()
	b.pending = append(b.pending, s) // want `slice queue b.pending grows without bound`
	b.mu.Unlock()
}

func (b *batcher) flushLoop(tick <-chan struct{}, write func([]string)) {
	for range tick {
		b.mu.Lock()
		var batch []string
		batch, b.pending = b.pending, nil
		b.mu.Unlock()
		write(batch)
	}
}

// Negatives.

// A batch copied into one queue from the configuration: bounded by its
// input.
type router struct {
	mu     sync.Mutex
	routes []string
}

func (r *router) load(cfg []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range cfg {
		r.routes = append(r.routes, c)
	}
}

func (r *router) serve(tick <-chan struct{}) {
	for range tick {
		r.mu.Lock()
		routes := r.routes
		r.routes = nil
		r.mu.Unlock()
		_ = routes
	}
}

// Each recipient's buffer is bounded where it is appended.
type client struct {
	mu  sync.Mutex
	out []string
}

func broadcast(clients []*client, m string) {
	for _, c := range clients {
		c.mu.Lock()
		if len(c.out) < 256 {
			c.out = append(c.out, m)
		}
		c.mu.Unlock()
	}
}

func (c *client) writer(conn net.Conn) {
	for {
		c.mu.Lock()
		out := c.out
		c.out = nil
		c.mu.Unlock()
		for _, m := range out {
			_, _ = conn.Write([]byte(m))
		}
	}
}

// A swap outside a loop closes what was registered: not a consumer.
type registry struct {
	mu    sync.Mutex
	conns []net.Conn
}

func (r *registry) add(c net.Conn) {
	r.mu.Lock()
	r.conns = append(r.conns, c)
	r.mu.Unlock()
}

func (r *registry) Close() {
	r.mu.Lock()
	conns := r.conns
	r.conns = nil
	r.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}
}

// A reset in a loop that does not take the items first: not a consumer.
type stats struct {
	mu      sync.Mutex
	samples []int
}

func (s *stats) record(v int) {
	s.mu.Lock()
	s.samples = append(s.samples, v)
	s.mu.Unlock()
}

func (s *stats) forget(tick <-chan struct{}) {
	for range tick {
		s.mu.Lock()
		s.samples = nil
		s.mu.Unlock()
	}
}

// The consumer drains under the producers' lock, releasing it only in
// Wait: producers keep its pace.
type events struct {
	cond  *sync.Cond
	stack []string
}

func (e *events) record(s string) {
	e.cond.L.Lock()
	e.stack = append(e.stack, s)
	e.cond.Broadcast()
	e.cond.L.Unlock()
}

func (e *events) deliver(hand func(string)) {
	e.cond.L.Lock()
	defer e.cond.L.Unlock()
	for {
		for len(e.stack) > 0 {
			stack := e.stack
			e.stack = nil
			for _, s := range stack {
				hand(s)
			}
		}
		e.cond.Wait()
	}
}

// A waiter that retries in a loop parks after appending itself, in the same
// loop: the callers bound the queue.
type limiter struct {
	mu      sync.Mutex
	free    int
	waiters []chan struct{}
}

func (l *limiter) acquire() {
	for {
		l.mu.Lock()
		if l.free > 0 {
			l.free--
			l.mu.Unlock()
			return
		}
		w := make(chan struct{})
		l.waiters = append(l.waiters, w)
		l.mu.Unlock()
		<-w
	}
}

func (l *limiter) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.free++
	if len(l.waiters) > 0 {
		close(l.waiters[0])
		l.waiters = l.waiters[1:]
	}
}

// A waiter queued on every key it needs, in a range over the keys, then
// parked until all are granted: the callers bound the queues.
type lockTable struct {
	mu      sync.Mutex
	waiters map[string]*keyWaiters
}

type keyWaiters struct {
	queue []chan struct{}
}

func (t *lockTable) lockAll(keys []string) {
	w := make(chan struct{}, len(keys))
	t.mu.Lock()
	for _, k := range keys {
		kw := t.waiters[k]
		kw.queue = append(kw.queue, w)
	}
	t.mu.Unlock()
	for range keys {
		<-w
	}
}

func (t *lockTable) unlock(k string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	kw := t.waiters[k]
	if len(kw.queue) > 0 {
		kw.queue[0] <- struct{}{}
		kw.queue = kw.queue[1:]
	}
}
