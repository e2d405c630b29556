// Package condstore holds stores whose readers wait on a condition
// variable before they work: the admission facts make a call of Read a
// wait in the packages that call it.
package condstore

import (
	"container/list"
	"sync"
	"time"
)

type Elem struct {
	At     time.Time
	Expiry time.Time
}

// Store is a queue whose Read waits until an element is there.
type Store struct {
	cond   *sync.Cond
	l      *list.List
	closed bool
}

func New() *Store {
	return &Store{cond: sync.NewCond(&sync.Mutex{}), l: list.New()}
}

// Read waits for the store to fill, then takes what is there.
func (s *Store) Read(n int) []*Elem { // want Read:`waits CondQueue s.cond.Wait\(\) while s.l.Len\(\) == 0 && !s.closed at condstore.go:\d+$`
	s.cond.L.Lock()
	defer s.cond.L.Unlock()
	for s.l.Len() == 0 && !s.closed {
		s.cond.Wait()
	}
	var out []*Elem
	for e := s.l.Front(); e != nil && len(out) < n; e = s.l.Front() {
		out = append(out, s.l.Remove(e).(*Elem))
	}
	return out
}

// ReadBy waits for the store to fill, then takes one element unless the
// deadline passed.
func (s *Store) ReadBy(deadline time.Time) *Elem { // want ReadBy:`waits CondQueue`
	s.cond.L.Lock()
	defer s.cond.L.Unlock()
	for s.l.Len() == 0 {
		s.cond.Wait()
	}
	if time.Now().After(deadline) {
		return nil
	}
	return s.l.Remove(s.l.Front()).(*Elem)
}

// Peek does not wait.
func (s *Store) Peek() *Elem {
	s.cond.L.Lock()
	defer s.cond.L.Unlock()
	if e := s.l.Front(); e != nil {
		return e.Value.(*Elem)
	}
	return nil
}

// Budget admits work while fewer than max run.
type Budget struct {
	cond     *sync.Cond
	inflight int
	max      int
}

// Run waits for a slot of the budget, then runs work.
func (b *Budget) Run(work func()) { // want Run:`waits CondBudget b.cond.Wait\(\) while b.inflight >= b.max`
	b.cond.L.Lock()
	for b.inflight >= b.max {
		b.cond.Wait()
	}
	b.inflight++
	b.cond.L.Unlock()
	work()
	b.cond.L.Lock()
	b.inflight--
	b.cond.L.Unlock()
	b.cond.Signal()
}

// Done waits for one event, not for a turn: a flag is no admission.
type Done struct {
	cond *sync.Cond
	done bool
}

func (d *Done) WaitAndReport() int {
	d.cond.L.Lock()
	for !d.done {
		d.cond.Wait()
	}
	d.cond.L.Unlock()
	return report()
}

func report() int { return 1 }

// Pending admits proposals while their weight fits under max: an endless
// loop that leaves once the weight fits and waits otherwise.
type Pending struct {
	c   *sync.Cond
	iou int
	max int
}

// Incr waits until the weight fits, then takes it.
func (p *Pending) Incr(weight int) { // want Incr:`waits CondBudget p.c.Wait\(\) until p.iou \+ weight <= p.max`
	p.c.L.Lock()
	for {
		if p.iou+weight <= p.max {
			p.iou += weight
			p.c.L.Unlock()
			return
		}
		p.c.Wait()
	}
}

// Decr gives the weight back.
func (p *Pending) Decr(weight int) {
	p.c.L.Lock()
	p.iou -= weight
	p.c.L.Unlock()
	p.c.Broadcast()
}

// Ready waits for a flag in the same shape: one event, no admission.
func (d *Done) Ready() {
	d.cond.L.Lock()
	for {
		if d.done {
			d.cond.L.Unlock()
			return
		}
		d.cond.Wait()
	}
}

// RW lets one writer in once no one owns it and no reader is left: the
// owner's name is a flag beside the readers' count, the budget.
type RW struct {
	mu         sync.Mutex
	cond       *sync.Cond
	owner      string
	numReaders int
}

// BeginWrite waits until the readers are gone.
func (r *RW) BeginWrite(owner string) { // want BeginWrite:`waits CondBudget r.cond.Wait\(\) while r.owner != "" \|\| r.numReaders > 0`
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.owner != "" || r.numReaders > 0 {
		r.cond.Wait()
	}
	r.owner = owner
}

// EndWrite lets the next one in.
func (r *RW) EndWrite() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.owner = ""
	r.cond.Broadcast()
}

// Named waits for a name to be set: a flag alone, one event.
func (r *RW) Named() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.owner == "" {
		r.cond.Wait()
	}
	return r.owner
}
