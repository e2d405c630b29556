package slicefifo

import (
	"slices"
	"sort"
	"sync"
)

type job struct{ id int }

// Positive: a mutex-guarded queue, appended by Submit, drained by worker.
type server struct {
	mu   sync.Mutex
	jobs []job
}

func (s *server) Submit(j job) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.jobs = append(s.jobs, j) // want `slice queue s.jobs grows without bound: this append has no length check while \(\*server\).worker dequeues from its front, so overload piles up in memory; reject or drop items beyond a limit`
}

func (s *server) worker() {
	for {
		s.mu.Lock()
		if len(s.jobs) == 0 {
			s.mu.Unlock()
			continue
		}
		j := s.jobs[0]
		s.jobs = s.jobs[1:]
		s.mu.Unlock()
		_ = j
	}
}

// Positive: the appending function returns an error, and unlocks by hand.
type mailer struct {
	mu      sync.Mutex
	pending []string
}

func (m *mailer) Send(to string) error {
	m.mu.Lock()
	m.pending = append(m.pending, to) // want `slice queue m.pending grows without bound`
	m.mu.Unlock()
	return nil
}

func (m *mailer) next() (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.pending) == 0 {
		return "", false
	}
	var to string
	to, m.pending = m.pending[0], m.pending[1:]
	return to, true
}

// Positive: a generic queue with a sync.Cond, results with a type parameter.
type Queue[T any] struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items []T
}

func (q *Queue[T]) Put(x T) (int, T, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, x) // want `slice queue q.items grows without bound`
	q.cond.Signal()
	return 0, x, nil
}

func (q *Queue[T]) Get() T {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 {
		q.cond.Wait()
	}
	x := q.items[0]
	copy(q.items, q.items[1:])
	q.items = q.items[:len(q.items)-1]
	return x
}

// Positive: the queue lives in an embedded struct.
type base struct {
	mu     sync.Mutex
	events []*job
}

type Hub struct {
	base
	name string
}

func (h *Hub) Publish(e *job) {
	h.mu.Lock()
	h.events = append(h.events, e) // want `slice queue h.events grows without bound`
	h.mu.Unlock()
}

func (h *Hub) drain() *job {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.events) == 0 {
		return nil
	}
	e := h.events[0]
	h.events = slices.Delete(h.events, 0, 1)
	return e
}

// Positive: a package variable filled by a producer goroutine and drained by
// another, without a mutex (the goroutines make it shared).
var backlog []job

func produce(c chan job) {
	go func() {
		for j := range c {
			backlog = append(backlog, j) // want `slice queue backlog grows without bound`
		}
	}()
}

func consume() {
	for len(backlog) > 0 {
		backlog = append(backlog[:0], backlog[1:]...)
	}
}

func start() { go consume() }

// Negatives.

// A local BFS queue dies with the call.
func bfs(root int, edges map[int][]int) []int {
	var order []int
	queue := []int{root}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		order = append(order, n)
		queue = append(queue, edges[n]...)
	}
	return order
}

// A parser cursor on bytes.
type conn struct {
	mu  sync.Mutex
	buf []byte
}

func (c *conn) feed(b byte) {
	c.mu.Lock()
	c.buf = append(c.buf, b) // why: byte-buffer
	c.mu.Unlock()
}

func (c *conn) parse() {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 4
	c.buf = c.buf[n:]
}

// "Keep the last N": the trim after the append is the bound.
type history struct {
	mu    sync.Mutex
	lines []string
}

func (h *history) add(l string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lines = append(h.lines, l)
	if len(h.lines) > 100 {
		h.lines = h.lines[len(h.lines)-100:]
	}
}

func (h *history) pop() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	l := h.lines[0]
	h.lines = h.lines[1:]
	return l
}

// An index-advancing queue with a limit.
type ring struct {
	mu    sync.Mutex
	items []job
	head  int
	limit int
}

func (r *ring) push(j job) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.items)-r.head >= r.limit {
		return false
	}
	r.items = append(r.items, j)
	return true
}

func (r *ring) pop() job {
	r.mu.Lock()
	defer r.mu.Unlock()
	j := r.items[r.head]
	r.head++
	if r.head > 64 {
		r.items = r.items[r.head:]
		r.head = 0
	}
	return j
}

// An append guarded by len(q) >= max.
type guarded struct {
	mu sync.Mutex
	q  []job
}

const maxGuarded = 10

func (g *guarded) put(j job) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.q) >= maxGuarded {
		return false
	}
	g.q = append(g.q, j)
	return true
}

func (g *guarded) take() job {
	g.mu.Lock()
	defer g.mu.Unlock()
	j := g.q[0]
	g.q = g.q[1:]
	return j
}

// A sync.Cond bounded queue that waits while full.
type bounded struct {
	mu      sync.Mutex
	notFull *sync.Cond
	items   []job
	max     int
}

func (b *bounded) full() bool { return len(b.items) >= b.max }

func (b *bounded) put(j job) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.full() {
		b.notFull.Wait()
	}
	b.items = append(b.items, j)
}

func (b *bounded) take() job {
	b.mu.Lock()
	defer b.mu.Unlock()
	j := b.items[0]
	b.items = b.items[1:]
	b.notFull.Signal()
	return j
}

// The length check is in the caller of the appending helper.
type checked struct {
	mu sync.Mutex
	q  []job
}

func (c *checked) Submit(j job) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.q) >= 100 {
		return false
	}
	c.push(j)
	return true
}

func (c *checked) push(j job) { c.q = append(c.q, j) }

func (c *checked) pop() job {
	c.mu.Lock()
	defer c.mu.Unlock()
	j := c.q[0]
	c.q = c.q[1:]
	return j
}

// A counter bounds the queue.
type counted struct {
	mu    sync.Mutex
	q     []job
	n     int
	limit int
}

func (c *counted) put(j job) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n >= c.limit {
		return false
	}
	c.n++
	c.q = append(c.q, j)
	return true
}

func (c *counted) take() job {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n--
	j := c.q[0]
	c.q = c.q[1:]
	return j
}

// Not shared: no mutex, no goroutine (a single-threaded worklist in a struct).
type walker struct{ todo []int }

func (w *walker) push(n int) { w.todo = append(w.todo, n) }

func (w *walker) pop() int {
	n := w.todo[0]
	w.todo = w.todo[1:]
	return n
}

// Filled and drained by the same function.
type batcher struct {
	mu  sync.Mutex
	buf []job
}

func (b *batcher) add(j job) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, j)
	for len(b.buf) > 8 {
		b.buf = b.buf[1:]
	}
}

// Batches appended with a spread are not single-item enqueues.
type spread struct {
	mu sync.Mutex
	q  []job
}

func (s *spread) addAll(js []job) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.q = append(s.q, js...) // why: batch-append
}

func (s *spread) take() job {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.q[0]
	s.q = s.q[1:]
	return j
}

// A semaphore bounds the producers.
type admitted struct {
	mu  sync.Mutex
	sem chan struct{}
	q   []job
}

func (a *admitted) put(j job) {
	a.sem <- struct{}{}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.q = append(a.q, j)
}

func (a *admitted) take() job {
	a.mu.Lock()
	defer a.mu.Unlock()
	j := a.q[0]
	a.q = a.q[1:]
	<-a.sem
	return j
}

// A queue of waiters: each caller parks until it is handed the lock, so the
// callers bound the queue.
type fileLock struct {
	mu     sync.Mutex
	queue  []chan struct{}
	locked bool
}

func (l *fileLock) lock() {
	l.mu.Lock()
	if !l.locked {
		l.locked = true
		l.mu.Unlock()
		return
	}
	wait := make(chan struct{})
	l.queue = append(l.queue, wait)
	l.mu.Unlock()
	<-wait
}

func (l *fileLock) unlock() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.queue) == 0 {
		l.locked = false
		return
	}
	close(l.queue[0])
	l.queue = l.queue[1:]
}

// A sorted list of timers is not a FIFO.
type timer struct {
	at int64
	fn func()
}

type clock struct {
	mu     sync.Mutex
	timers []timer
}

func (c *clock) afterFunc(at int64, fn func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timers = append(c.timers, timer{at, fn}) // why: not-a-fifo
}

func (c *clock) advance(now int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sort.Slice(c.timers, func(i, j int) bool { return c.timers[i].at < c.timers[j].at })
	for len(c.timers) > 0 && c.timers[0].at <= now {
		c.timers[0].fn()
		c.timers = c.timers[1:]
	}
}

// A sliding window evicts by age: bounded by the window, not a work queue.
type sample struct {
	at int64
	v  float64
}

type window struct {
	mu      sync.Mutex
	samples []sample
}

func (w *window) observe(s sample) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.samples = append(w.samples, s)
}

func (w *window) expire(cutoff int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.samples) > 0 && w.samples[0].at < cutoff {
		w.samples = w.samples[1:]
	}
}

// The consumer puts back an item it could not handle: a retry does not grow
// the queue. (Submit is reported; requeue is not.)
type retrier struct {
	mu    sync.Mutex
	tasks []job
}

func (r *retrier) Submit(j job) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tasks = append(r.tasks, j) // want `slice queue r.tasks grows without bound`
}

func (r *retrier) requeue(j job) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tasks = append(r.tasks, j)
}

func (r *retrier) run() {
	for {
		r.mu.Lock()
		if len(r.tasks) == 0 {
			r.mu.Unlock()
			return
		}
		j := r.tasks[0]
		r.tasks = r.tasks[1:]
		r.mu.Unlock()
		if j.id < 0 {
			r.requeue(j)
		}
	}
}

// A batch copied from its input (a constructor filling from configuration):
// bounded by the input, like an append of a spread slice.
type preloaded struct {
	mu    sync.Mutex
	items []job
}

func newPreloaded(initial []job) *preloaded {
	p := new(preloaded)
	for _, j := range initial {
		p.items = append(p.items, j)
	}
	return p
}

func (p *preloaded) take() job {
	p.mu.Lock()
	defer p.mu.Unlock()
	j := p.items[0]
	p.items = p.items[1:]
	return j
}

// A function literal that returns an error drops rather than rejects: its
// error goes to whoever runs it.
type collector struct {
	mu   sync.Mutex
	seen []string
}

func (c *collector) start(run func(func(string) error)) {
	run(func(s string) error {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.seen = append(c.seen, s) // want `slice queue c.seen grows without bound`
		return nil
	})
}

func (c *collector) next() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.seen[0]
	c.seen = c.seen[1:]
	return s
}

// The default case of a non-blocking send that keeps the item is the
// retrysend check's overflow.
type spiller struct {
	mu      sync.Mutex
	out     chan job
	backlog []job
}

func (s *spiller) publish(j job) {
	select {
	case s.out <- j:
	default:
		s.mu.Lock()
		s.backlog = append(s.backlog, j)
		s.mu.Unlock()
	}
}

func (s *spiller) drain() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.backlog) > 0 {
		s.out <- s.backlog[0]
		s.backlog = s.backlog[1:]
	}
}

// Trailing comments aligned across the append: the fix realigns them as
// gofmt would, so that the fixed file stays gofmt-clean.
type aligned struct {
	mu    sync.Mutex
	items []job
}

func (a *aligned) put(j job) {
	a.mu.Lock()                  // one writer at a time
	a.items = append(a.items, j) // want `slice queue a.items grows without bound`
	a.mu.Unlock()                // the consumer may run
}

func (a *aligned) get() job {
	a.mu.Lock()
	defer a.mu.Unlock()
	j := a.items[0]
	a.items = a.items[1:]
	return j
}
