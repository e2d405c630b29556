// Package condwait takes timestamps before condition-variable waits, its
// own and those inside admission/condstore's functions, and reads them as
// the current time after the wait.
package condwait

import (
	"container/list"
	"context"
	"log"
	"os"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"admission/condstore"
)

type queue struct {
	cond    *sync.Cond
	l       *list.List
	current *list.Element
	readPos int
	size    int
	closed  bool
	ttl     time.Duration
}

func expired(now time.Time, e *condstore.Elem) bool { return now.After(e.Expiry) }

func (q *queue) read() []*condstore.Elem {
	now := time.Now() // want `now is taken before a loop that waits for a queue to fill \(q.cond.Wait\(\) while \(q.l.Len\(\) == 0 \|\| q.current == nil\) && !q.closed\) and read as the current time after it`
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	for (q.l.Len() == 0 || q.current == nil) && !q.closed {
		q.cond.Wait()
	}
	var out []*condstore.Elem
	for e := q.current; e != nil; e = e.Next() {
		el := e.Value.(*condstore.Elem)
		if expired(now, el) {
			continue
		}
		el.Expiry = now.Add(q.ttl)
		out = append(out, el)
	}
	return out
}

// A read cursor that reaches the length waits for the queue to fill too.
func (q *queue) readAt() time.Time {
	now := time.Now() // want `now is taken before a loop that waits for a queue to fill \(q.cond.Wait\(\) while q.readPos >= q.size\)`
	q.cond.L.Lock()
	for q.readPos >= q.size {
		q.cond.Wait()
	}
	q.readPos++
	q.cond.L.Unlock()
	return now.Add(q.ttl)
}

// The timestamp is taken after the wait: fresh.
func (q *queue) readFresh() []*condstore.Elem {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	for q.l.Len() == 0 && !q.closed {
		q.cond.Wait()
	}
	now := time.Now()
	var out []*condstore.Elem
	for e := q.l.Front(); e != nil; e = e.Next() {
		if el := e.Value.(*condstore.Elem); !expired(now, el) {
			out = append(out, el)
		}
	}
	return out
}

// Across the package boundary: Read waits on its cond var, then works.
func poll(s *condstore.Store) {
	now := time.Now() // want `now is taken before \(\*condstore.Store\).Read, which waits for a queue to fill \(s.cond.Wait\(\) while s.l.Len\(\) == 0 && !s.closed, condstore.go:\d+\) before its work`
	elems := s.Read(10)
	for _, e := range elems {
		log.Printf("age %v", now.Sub(e.At))
	}
}

func budgeted(b *condstore.Budget, e *condstore.Elem) {
	now := time.Now() // want `now is taken before \(\*condstore.Budget\).Run, which waits for a budget`
	b.Run(func() {})
	e.Expiry = now.Add(time.Minute)
}

// Safe twin: the caller reads the clock after the call.
func pollFresh(s *condstore.Store) {
	elems := s.Read(10)
	now := time.Now()
	for _, e := range elems {
		log.Printf("age %v", now.Sub(e.At))
	}
}

// Peek does not wait.
func peek(s *condstore.Store) {
	now := time.Now()
	if e := s.Peek(); e != nil {
		log.Printf("age %v", now.Sub(e.At))
	}
}

// A loop on a flag waits for an event, not a turn.
func event(d *condstore.Done, e *condstore.Elem) {
	now := time.Now()
	d.WaitAndReport()
	e.Expiry = now.Add(time.Minute)
}

// A span is the other categories' business: time.Since(start) across the
// wait times the wait and the work as one.
func (q *queue) span() {
	start := time.Now()
	q.cond.L.Lock()
	for q.l.Len() == 0 {
		q.cond.Wait()
	}
	q.cond.L.Unlock()
	log.Printf("waited and read in %v", time.Since(start))
}

// The timestamp is the time of the work before the wait too.
func (q *queue) usedBefore(e *condstore.Elem) {
	now := time.Now() // why: stamp-used-before-wait
	e.At = now
	q.cond.L.Lock()
	for q.l.Len() == 0 {
		q.cond.Wait()
	}
	q.cond.L.Unlock()
	e.Expiry = now.Add(q.ttl)
}

// The clock is read again after the wait.
func (q *queue) retaken(e *condstore.Elem) {
	now := time.Now() // why: stamp-retaken
	q.cond.L.Lock()
	for q.l.Len() == 0 {
		q.cond.Wait()
	}
	q.cond.L.Unlock()
	now = time.Now()
	e.Expiry = now.Add(q.ttl)
}

// A timestamp assigned, not declared, here: no fix, the message says what
// to do.
func (q *queue) assigned(e *condstore.Elem) {
	var now time.Time
	now = time.Now() // want `now is taken before a loop that waits for a queue to fill`
	q.cond.L.Lock()
	for q.l.Len() == 0 {
		q.cond.Wait()
	}
	q.cond.L.Unlock()
	e.Expiry = now.Add(q.ttl)
}

// The wait takes the timestamp: a deadline of the wait's own.
func waitUntil(s *condstore.Store, e *condstore.Elem) {
	now := time.Now() // why: stamp-for-wait
	s.ReadBy(now.Add(time.Second))
	e.Expiry = now.Add(time.Minute)
}

var slots = semaphore.NewWeighted(4)

// slotted stamps an element's expiry from a time taken before it waited
// for a slot: a wait that is no loop is named as itself.
func slotted(ctx context.Context, e *condstore.Elem, ttl time.Duration) error {
	now := time.Now() // want `now is taken before \(\*semaphore.Weighted\).Acquire, which waits for admission, and read as the current time after it`
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	e.Expiry = now.Add(ttl)
	return nil
}

// proposed times from before the pending-proposal budget's wait.
func proposed(p *condstore.Pending, e *condstore.Elem) {
	start := time.Now()
	p.Incr(1)
	defer p.Decr(1)
	e.Expiry = time.Now()
	log.Printf("propose took %v", time.Since(start)) // want `the duration since start spans \(\*condstore.Pending\).Incr`
}

// ready waits for one event: no admission.
func ready(d *condstore.Done, e *condstore.Elem) {
	start := time.Now()
	d.Ready()
	e.Expiry = time.Now()
	log.Printf("ready after %v", time.Since(start))
}

// reaped times a literal called on the spot, whose deferred record spans
// the writer's wait for the readers.
func reaped(rw *condstore.RW, e *condstore.Elem) {
	startT := time.Now()
	func() {
		defer record(startT) // want `the duration since startT spans \(\*condstore.RW\).BeginWrite, which waits for a budget`
		rw.BeginWrite("reap")
		defer rw.EndWrite()
		e.Expiry = time.Now()
	}()
}

func record(start time.Time) { log.Printf("took %v", time.Since(start)) } // want record:"bookkeeping"

// named waits for a name: one event, no admission.
func named(rw *condstore.RW, e *condstore.Elem) {
	start := time.Now()
	log.Printf("%s named after %v", rw.Named(), time.Since(start))
	e.Expiry = time.Now()
}

var waitNanos int64

// waitedFor measures the slot's wait alone, as a difference of Unix
// readings: now less the stamp is the time since it, not a read of the
// stamp as the current time, and nothing runs after the wait.
func waitedFor(ctx context.Context) error {
	start := time.Now()
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	waitNanos += time.Now().UnixNano() - start.UnixNano()
	return nil
}

// agedFrom reads the stamp's Unix time as now after the wait: the
// expiry it computes is aged by the wait.
func agedFrom(ctx context.Context, e *condstore.Elem) error {
	now := time.Now() // want `now is taken before \(\*semaphore.Weighted\).Acquire, which waits for admission, and read as the current time after it`
	if err := slots.Acquire(ctx, 1); err != nil {
		return err
	}
	defer slots.Release(1)
	e.Expiry = time.Unix(0, now.UnixNano()+int64(time.Minute))
	return nil
}

// reapedTimed times the writer's wait for the readers and a reap that
// reports its own duration: the figure less the reap's is the wait.
func reapedTimed(rw *condstore.RW, e *condstore.Elem) {
	startT := time.Now()
	func() {
		defer record(startT) // why: no-wait-in-span work-timed-apart
		rw.BeginWrite("reap")
		defer rw.EndWrite()
		reapExpired(e)
	}()
}

// reapExpired takes its timestamp before its work and logs the time since.
func reapExpired(e *condstore.Elem) {
	startTime := time.Now()
	if err := os.RemoveAll("expired"); err == nil {
		e.Expiry = time.Time{}
	}
	log.Printf("reaped in %v", time.Since(startTime))
}
