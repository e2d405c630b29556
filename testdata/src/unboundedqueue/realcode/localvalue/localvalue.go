// Package localvalue is franz-go's takeNBuffered (a false alarm of an
// earlier version), from
// pkg/kgo/source.go:653,662 and consumer_share.go:1681,1690
// (takeNBuffered of *source and of *sourceShare): each method moves items
// from the front of its own shared buffer (s.buffered.fetch.Topics) into a
// result value that is a local variable of the same struct type (r.Topics,
// rstrip.Topics). slicefifo pairs the append in one method with the
// dequeue in the other because both touch the field Fetch.Topics; but the
// append target is a local built per call (bounded by n, returned), and the
// dequeued slice belongs to another instance. The queue must be keyed on the
// field's base (a local here), not on the field object alone.
package localvalue

import "sync"

type Topic struct {
	Name       string
	Partitions []int
}

type Fetch struct {
	Topics []Topic
}

type buffered struct {
	fetch Fetch
}

type source struct {
	mu       sync.Mutex
	buffered buffered
}

type sourceShare struct {
	mu       sync.Mutex
	buffered buffered
}

func (s *source) takeNBuffered(n int) (Fetch, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var r Fetch
	taken := 0
	bf := &s.buffered.fetch
	for len(bf.Topics) > 0 && n > 0 {
		t := &bf.Topics[0]
		var rt *Topic
		ensureTopicAdded := func() {
			if rt != nil {
				return
			}
			r.Topics = append(r.Topics, *t) // why: local-value
			rt = &r.Topics[len(r.Topics)-1]
			rt.Partitions = nil
		}
		for len(t.Partitions) > 0 && n > 0 {
			ensureTopicAdded()
			rt.Partitions = append(rt.Partitions, t.Partitions[0])
			t.Partitions = t.Partitions[1:]
			n--
			taken++
		}
		if len(t.Partitions) == 0 {
			bf.Topics = bf.Topics[1:]
		}
	}
	return r, taken
}

// The same for the share consumer.
func (s *sourceShare) takeNBuffered(n int) (Fetch, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var r Fetch
	taken := 0
	bf := &s.buffered.fetch
	for len(bf.Topics) > 0 && n > 0 {
		t := &bf.Topics[0]
		r.Topics = append(r.Topics, *t)
		bf.Topics = bf.Topics[1:]
		n -= len(t.Partitions)
		taken += len(t.Partitions)
	}
	return r, taken
}

// The producers of the real shared buffers (replaced wholesale, one fetch
// response at a time).
func (s *source) setBuffered(f Fetch) {
	s.mu.Lock()
	s.buffered.fetch = f
	s.mu.Unlock()
}

func (s *sourceShare) setBuffered(f Fetch) {
	s.mu.Lock()
	s.buffered.fetch = f
	s.mu.Unlock()
}

// The near miss: an append to the shared buffer through a pointer to it is
// the queue's producer.
func (s *source) add(t Topic) {
	s.mu.Lock()
	defer s.mu.Unlock()
	bf := &s.buffered.fetch
	bf.Topics = append(bf.Topics, t) // want `slice queue bf.Topics grows without bound`
}
