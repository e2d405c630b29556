// Package logonly is livekit's receive buffer (pkg/sfu/buffer): every
// packet is appended, the length is compared with the capacity only to log
// a warning, and the reader takes one packet per call under a sync.Cond. A
// comparison whose branch only logs or counts is not a bound, and a reader
// that returns with the item it took does not keep producers at its pace.
package logonly

import (
	"container/list"
	"log"
	"sync"
)

type ExtPacket struct{ Raw []byte }

type Buffer struct {
	sync.Mutex
	readCond   *sync.Cond
	extPackets []*ExtPacket
	capacity   int
	tooMuch    int
}

func New(capacity int) *Buffer {
	b := &Buffer{capacity: capacity}
	b.readCond = sync.NewCond(&b.Mutex)
	return b
}

func (b *Buffer) Write(raw []byte) {
	b.Lock()
	defer b.Unlock()
	b.extPackets = append(b.extPackets, &ExtPacket{Raw: raw}) // want `slice queue b.extPackets grows without bound: this append has no length check while \(\*Buffer\).ReadExtended dequeues from its front`
	if len(b.extPackets) > b.capacity {
		if b.tooMuch%100 == 0 {
			log.Printf("too much ext packets: %d", len(b.extPackets))
		}
		b.tooMuch++
	}
	b.readCond.Broadcast()
}

func (b *Buffer) ReadExtended() *ExtPacket {
	b.Lock()
	defer b.Unlock()
	for {
		if len(b.extPackets) > 0 {
			p := b.extPackets[0]
			b.extPackets = b.extPackets[1:]
			return p
		}
		b.readCond.Wait()
	}
}

// The same on container/list.
type ListBuffer struct {
	sync.Mutex
	readCond *sync.Cond
	packets  *list.List
	capacity int
	dropped  int
}

func NewList(capacity int) *ListBuffer {
	b := &ListBuffer{capacity: capacity, packets: list.New()}
	b.readCond = sync.NewCond(&b.Mutex)
	return b
}

func (b *ListBuffer) Write(raw []byte) {
	b.Lock()
	defer b.Unlock()
	b.packets.PushBack(&ExtPacket{Raw: raw}) // want `list queue b.packets grows without bound: this PushBack has no Len check while \(\*ListBuffer\).Read removes from its other end`
	if b.packets.Len() > b.capacity {
		b.dropped++
	}
	b.readCond.Signal()
}

func (b *ListBuffer) Read() *ExtPacket {
	b.Lock()
	defer b.Unlock()
	for {
		if b.packets.Len() > 0 {
			return b.packets.Remove(b.packets.Front()).(*ExtPacket)
		}
		b.readCond.Wait()
	}
}

// Negative: the branch of the comparison drops the oldest: a bound.
type Bounded struct {
	sync.Mutex
	readCond *sync.Cond
	packets  []*ExtPacket
	capacity int
}

func (b *Bounded) Write(raw []byte) {
	b.Lock()
	defer b.Unlock()
	b.packets = append(b.packets, &ExtPacket{Raw: raw})
	if len(b.packets) > b.capacity {
		log.Printf("dropping the oldest packet")
		b.packets = b.packets[1:]
	}
	b.readCond.Broadcast()
}

func (b *Bounded) Read() *ExtPacket {
	b.Lock()
	defer b.Unlock()
	for len(b.packets) == 0 {
		b.readCond.Wait()
	}
	p := b.packets[0]
	b.packets = b.packets[1:]
	return p
}
