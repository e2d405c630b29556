// Package memtables is a false slice-queue finding on a storage engine
// outside the census: full memtables wait in a slice that readers search
// until a flusher has written them. Each is appended only once a send on
// the flusher's buffered channel has gone through, and the flusher drops
// it from the front of the slice after taking it from that channel, so
// the slice never holds more than the channel's buffer and the one being
// written; a drop of all data appends the current memtable and empties the
// slice itself. Neither is reported. The twins below are: a pending list
// filled beside a channel its consumer does not read, and one appended
// before the send.
package memtables

import (
	"errors"
	"sync"
)

type memtable struct{ keys []string }

func (m *memtable) full() bool { return len(m.keys) > 1024 }

type DB struct {
	lock      sync.Mutex
	mt        *memtable
	imm       []*memtable
	flushChan chan *memtable
	pending   []*memtable
	notify    chan *memtable
	written   int
}

var errNoRoom = errors.New("no room")

func Open(n int) *DB {
	db := &DB{mt: new(memtable), flushChan: make(chan *memtable, n), notify: make(chan *memtable, n)}
	go db.flusher()
	go db.notifier()
	return db
}

// ensureRoom hands a full memtable to the flusher, or tells the writer to
// wait when the flusher is behind.
func (db *DB) ensureRoom() error {
	db.lock.Lock()
	defer db.lock.Unlock()
	if !db.mt.full() {
		return nil
	}
	select {
	case db.flushChan <- db.mt:
		db.imm = append(db.imm, db.mt)
		db.mt = new(memtable)
		return nil
	default:
		return errNoRoom
	}
}

// rotate blocks until the flusher has room.
func (db *DB) rotate() {
	db.lock.Lock()
	defer db.lock.Unlock()
	db.flushChan <- db.mt
	db.imm = append(db.imm, db.mt)
	db.mt = new(memtable)
}

func (db *DB) flusher() {
	for mt := range db.flushChan {
		db.write(mt)
		db.lock.Lock()
		db.imm = db.imm[1:]
		db.lock.Unlock()
	}
}

func (db *DB) write(mt *memtable) { db.written += len(mt.keys) }

// dropAll writes every memtable out and starts afresh.
func (db *DB) dropAll() {
	db.lock.Lock()
	defer db.lock.Unlock()
	db.imm = append(db.imm, db.mt)
	for _, mt := range db.imm {
		db.write(mt)
	}
	db.imm = db.imm[:0]
	db.mt = new(memtable)
}

// announce appends before the send: the slice grows whether or not the
// channel takes the memtable.
func (db *DB) announce() {
	db.lock.Lock()
	defer db.lock.Unlock()
	db.pending = append(db.pending, db.mt) // want `slice queue db.pending grows without bound`
	select {
	case db.notify <- db.mt:
	default:
	}
}

// notifier takes from the channel but leaves the slice to another
// function.
func (db *DB) notifier() {
	for mt := range db.notify {
		db.write(mt)
	}
}

func (db *DB) trim() {
	db.lock.Lock()
	defer db.lock.Unlock()
	if len(db.pending) > 0 {
		db.pending = db.pending[1:]
	}
}
