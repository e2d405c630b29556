// Package clearslot is centrifuge's dissolver ring (internal/queue): Add
// grows the ring when full (reported), and RemoveMany, a consumer, clears
// each slot it reads (q.nodes[q.head] = Item{}) and shrinks the ring: a
// store of the zero value at the read index is not a push (a false alarm
// of an earlier version).
package clearslot

import "sync"

type Item struct{ Data []byte }

type Queue struct {
	mu      sync.Mutex
	nodes   []Item
	head    int
	tail    int
	cnt     int
	initCap int
}

func (q *Queue) resize(n int) {
	nodes := make([]Item, n)
	for i := 0; i < q.cnt; i++ {
		nodes[i] = q.nodes[(q.head+i)%len(q.nodes)]
	}
	q.head, q.tail, q.nodes = 0, q.cnt%n, nodes
}

func (q *Queue) Add(v Item) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.cnt == len(q.nodes) {
		q.resize(max(2*q.cnt, 2))
	}
	q.nodes[q.tail] = v // want `ring buffer q.nodes grows without bound: when it is full this function makes it larger instead of overwriting or rejecting, while \(\*Queue\).RemoveMany takes items from its head`
	q.tail = (q.tail + 1) % len(q.nodes)
	q.cnt++
}

func (q *Queue) RemoveMany(maxItems int) []Item {
	q.mu.Lock()
	defer q.mu.Unlock()
	count := min(q.cnt, maxItems)
	out := make([]Item, 0, count)
	for i := 0; i < count; i++ {
		out = append(out, q.nodes[q.head])
		q.nodes[q.head] = Item{} // clear
		q.head = (q.head + 1) % len(q.nodes)
		q.cnt--
	}
	n := -1
	for k := len(q.nodes) / 2; k >= q.initCap && q.cnt <= k; k /= 2 {
		n = k
	}
	if n != -1 {
		q.resize(n) // the largest power-of-two fraction of len(q.nodes) that fits: a shrink
	}
	return out
}

func (q *Queue) Remove() (Item, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.cnt == 0 {
		return Item{}, false
	}
	i := q.nodes[q.head]
	q.head = (q.head + 1) % len(q.nodes)
	q.cnt--
	return i, true
}
