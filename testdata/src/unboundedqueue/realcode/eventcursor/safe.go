// Negatives, the nearest safe variants of the peer's event queue: the add
// refuses beyond a limit, and a list whose pushed element is kept in an
// index (a map by key) is an LRU's, not a read cursor.
package eventcursor

import (
	"container/list"
	"errors"
	"sync"
)

const maxBufferedEvents = 10000

var errPeerBehind = errors.New("peer too far behind")

type boundedEventQueue struct {
	mu       sync.Mutex
	l        *list.List
	nextRead *list.Element
}

func (e *boundedEventQueue) add(event *Event) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.l.Len() >= maxBufferedEvents {
		return errPeerBehind
	}
	elem := e.l.PushBack(event) // why: length-check
	if e.nextRead == nil {
		e.nextRead = elem
	}
	return nil
}

func (e *boundedEventQueue) ack() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.l.Remove(e.l.Front())
}

// The element goes to an index as well as to the cursor: dropping the
// oldest would leave the index's entry stale.
type indexedEventQueue struct {
	mu       sync.Mutex
	l        *list.List
	nextRead *list.Element
	byID     map[uint64]*list.Element
}

func (e *indexedEventQueue) add(event *Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	elem := e.l.PushBack(event) // why: keeps-element
	e.byID[event.ID] = elem
	if e.nextRead == nil {
		e.nextRead = elem
	}
}

func (e *indexedEventQueue) ack() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.l.Remove(e.l.Front())
}
