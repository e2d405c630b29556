// Package eventcursor is gmqtt's plugin/federation/peer.go: each peer's
// eventQueue is a container/list of the events to send, with a read cursor
// (nextRead) that the sender advances; add pushes every message routed to
// the peer, keeping the pushed element as the cursor when it had reached
// the end, and ack removes the acknowledged events from the front. The
// source says "TODO add max buffer size": a peer that stops acking keeps
// every routed message in memory.
package eventcursor

import (
	"container/list"
	"sync"
)

type Event struct {
	ID   uint64
	Body string
}

type eventQueue struct {
	cond     *sync.Cond
	nextID   uint64
	l        *list.List
	nextRead *list.Element
	closed   bool
}

func (e *eventQueue) add(event *Event) {
	e.cond.L.Lock()
	defer func() {
		e.cond.L.Unlock()
		e.cond.Signal()
	}()
	event.ID = e.nextID
	e.nextID++
	elem := e.l.PushBack(event) // want `list queue e.l grows without bound: this PushBack has no Len check while \(\*eventQueue\).ack removes from its other end, so overload piles up in memory; reject items beyond a limit \(dropping the oldest could leave the queue's read cursor on a removed element\)`
	if e.nextRead == nil {
		e.nextRead = elem
	}
}

func (e *eventQueue) fetchEvents() []*Event {
	e.cond.L.Lock()
	defer e.cond.L.Unlock()
	for (e.l.Len() == 0 || e.nextRead == nil) && !e.closed {
		e.cond.Wait()
	}
	if e.closed {
		return nil
	}
	var ev []*Event
	elem := e.nextRead
	for i := 0; i < 100; i++ {
		ev = append(ev, elem.Value.(*Event))
		elem = elem.Next()
		if elem == nil {
			break
		}
	}
	e.nextRead = elem
	return ev
}

func (e *eventQueue) ack(id uint64) {
	e.cond.L.Lock()
	defer func() {
		e.cond.L.Unlock()
		e.cond.Signal()
	}()
	var next *list.Element
	for elem := e.l.Front(); elem != nil; elem = next {
		next = elem.Next()
		ev := elem.Value.(*Event)
		if ev.ID <= id {
			e.l.Remove(elem)
		}
		if ev.ID == id {
			return
		}
	}
}

// The same queue with an add that can fail: the fix rejects beyond a limit
// (it never drops the oldest, which could be the cursor's element).
type checkedEventQueue struct {
	mu       sync.Mutex
	l        *list.List
	nextRead *list.Element
}

func (e *checkedEventQueue) add(event *Event) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	elem := e.l.PushBack(event) // want `list queue e.l grows without bound: this PushBack has no Len check while \(\*checkedEventQueue\).ack removes from its other end`
	if e.nextRead == nil {
		e.nextRead = elem
	}
	return nil
}

func (e *checkedEventQueue) ack() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.l.Remove(e.l.Front())
}
