// Package dequefifo is livekit-server's pkg/utils/opsqueue.go and
// pkg/sfu/pacer/no_queue.go: a third-party deque held in a struct field,
// PushBack under a mutex in the producing method (the Len()==1 test is a
// wake-up trigger, not a bound), PopFront in a worker goroutine. Nothing
// bounds the deque: a slow op (or a slow socket write in the pacer) lets it
// grow for as long as producers outrun the worker.
package dequefifo

import (
	"sync"

	"github.com/gammazero/deque"
)

type op func()

type OpsQueue struct {
	lock    sync.Mutex
	ops     deque.Deque[op]
	wake    chan struct{}
	stopped bool
}

func NewOpsQueue() *OpsQueue {
	q := &OpsQueue{wake: make(chan struct{}, 1)}
	q.ops.SetBaseCap(128)
	go q.process()
	return q
}

func (q *OpsQueue) Enqueue(fn op) {
	q.lock.Lock()
	defer q.lock.Unlock()
	if q.stopped {
		return
	}
	q.ops.PushBack(fn) // want `deque queue q.ops grows without bound: this PushBack has no Len check while \(\*OpsQueue\).process removes from its other end`
	if q.ops.Len() == 1 {
		select {
		case q.wake <- struct{}{}:
		default:
		}
	}
}

func (q *OpsQueue) process() {
	for range q.wake {
		for {
			q.lock.Lock()
			if q.ops.Len() == 0 {
				q.lock.Unlock()
				break
			}
			fn := q.ops.PopFront()
			q.lock.Unlock()
			fn()
		}
	}
}

// Pacer is the no_queue.go shape: every outgoing packet of a subscriber's
// transport is pushed; one worker pops and writes it to the network.
type Packet struct{ Payload []byte }

type Pacer struct {
	lock    sync.RWMutex
	packets deque.Deque[*Packet]
	wake    chan struct{}
	write   func(*Packet)
}

func (p *Pacer) Enqueue(pkt *Packet) {
	p.lock.Lock()
	p.packets.PushBack(pkt) // want `deque queue p.packets grows without bound`
	p.lock.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *Pacer) sendWorker() {
	for range p.wake {
		for {
			p.lock.Lock()
			if p.packets.Len() == 0 {
				p.lock.Unlock()
				break
			}
			pkt := p.packets.PopFront()
			p.lock.Unlock()
			p.write(pkt)
		}
	}
}

func NewPacer(write func(*Packet)) *Pacer {
	p := &Pacer{wake: make(chan struct{}, 1), write: write}
	go p.sendWorker()
	return p
}
