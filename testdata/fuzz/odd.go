package fuzz

import (
	"container/list"
	"sync"
	"time"
)

type T struct {
	sync.Mutex
	l    *list.List
	q    [][]byte
	done chan struct{}
}

func (t *T) add(b []byte) { t.Lock(); t.l.PushBack(b); t.q = append(t.q, b); t.Unlock() }

func (t *T) take() []byte {
	t.Lock()
	defer t.Unlock()
	e := t.l.Front()
	if e == nil {
		return nil
	}
	t.l.Remove(e)
	copy(t.q, t.q[1:])
	t.q = t.q[:len(t.q)-1]
	return e.Value.([]byte)
}

func (t *T) loop(ch chan []byte) {
	for i := 0; ; i++ {
		select {
		case v, ok := <-ch:
			if !ok {
				return
			}
			go t.add(v)
		case <-t.done:
			return
		}
	}
}

func (t *T) poll(ch chan []byte, v []byte) bool {
	for i := 0; i < 3; i++ {
		select {
		case ch <- v:
			return true
		default:
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

var _ = func() int { return 0 }()

func empty() {}
