package overflow

import (
	"container/list"
	"log"
	"sync"
)

type msg struct {
	id   int
	body []byte
}

type broker struct {
	mu            sync.Mutex
	out           chan msg
	backlog       []msg
	pending       *list.List
	byID          map[int]msg
	perTopic      map[string][]msg
	byTopicLatest map[string]msg
	dropped       int
}

var spill []msg

// An append to a field, under a lock taken only for it; the function returns
// an error outside any loop, so the fix returns a sentinel.
func (b *broker) Publish(m msg) error {
	select {
	case b.out <- m:
		return nil
	default:
		b.mu.Lock()
		b.backlog = append(b.backlog, m) // want `default of a non-blocking send on b.out appends the item to b.backlog, which has no cap: the channel's bound is bypassed and memory grows with overload; shed the item explicitly instead`
		b.mu.Unlock()
	}
	return nil
}

// A package slice, with a log kept in front of it; more statements follow.
func (b *broker) PublishSpill(m msg) (int, error) {
	select {
	case b.out <- m:
	default:
		spill = append(spill, m) // want `default of a non-blocking send on b.out appends the item to spill, which has no cap`
		log.Printf("spilled %d", m.id)
	}
	return m.id, nil
}

// A list push in a loop: the fix drops the item.
func (b *broker) forward(in <-chan msg) {
	for m := range in {
		select {
		case b.out <- m:
		default:
			b.pending.PushBack(m) // want `default of a non-blocking send on b.out pushes the item onto list b.pending, which has no cap`
		}
	}
}

// A map insert keyed per item, in a function without an error result.
func (b *broker) remember(m msg) {
	select {
	case b.out <- m:
	default:
		b.byID[m.id] = m // want `default of a non-blocking send on b.out stores the item in map b.byID, which has no cap`
	}
}

// A map of slices.
func (b *broker) byTopic(topic string, m msg) {
	select {
	case b.out <- m:
	default:
		b.perTopic[topic] = append(b.perTopic[topic], m) // want `default of a non-blocking send on b.out appends the item to map b.perTopic, which has no cap`
	}
}

// A goroutine per overflowing item that blocks on the same send.
func (b *broker) park(m msg) {
	select {
	case b.out <- m:
	default:
		go func() { b.out <- m }() // want `default of a non-blocking send on b.out starts a goroutine that blocks on the same send`
	}
}

// The same with the item passed as an argument.
func (b *broker) parkArg(m msg) error {
	select {
	case b.out <- m:
	default:
		go func(m msg) { // want `default of a non-blocking send on b.out starts a goroutine that blocks on the same send`
			b.out <- m
		}(m)
	}
	return nil
}

// Generics.
type queue[T any] struct {
	ch       chan T
	overflow []T
}

func (q *queue[T]) Put(v T) error {
	select {
	case q.ch <- v:
	default:
		q.overflow = append(q.overflow, v) // want `default of a non-blocking send on q.ch appends the item to q.overflow, which has no cap`
	}
	return nil
}

// Negative: the overflow slice is capped.
func (b *broker) capped(m msg) {
	select {
	case b.out <- m:
	default:
		if len(b.backlog) < 100 {
			b.backlog = append(b.backlog, m)
		} else {
			b.dropped++
		}
	}
}

// Negative: the append is trimmed at once, keeping the last 100.
func (b *broker) keepLast(m msg) {
	select {
	case b.out <- m:
	default:
		b.backlog = append(b.backlog, m)
		if len(b.backlog) > 100 {
			b.backlog = b.backlog[1:]
		}
	}
}

// Negative: a local batch handed back to the caller.
func (b *broker) sendAll(ms []msg) (failed []msg) {
	for _, m := range ms {
		select {
		case b.out <- m:
		default:
			failed = append(failed, m)
		}
	}
	return failed
}

// Negative: a latest value per key is bounded by the keys.
func (b *broker) latest(topic string, m msg) {
	select {
	case b.out <- m:
	default:
		b.byID[len(topic)] = m
	}
}

// Negative: the latest message per topic, taken from the item, is bounded
// by the topics.
func (b *broker) latestPerTopic(m msg, latest map[string]msg) {
	select {
	case b.out <- m:
	default:
		b.byTopicLatest[string(m.body)] = m
	}
}

// Negative: the goroutine gives up with the context.
func (b *broker) parkBounded(done <-chan struct{}, m msg) {
	select {
	case b.out <- m:
	default:
		go func() {
			select {
			case b.out <- m:
			case <-done:
			}
		}()
	}
}

// Negative: the goroutine does the work.
func (b *broker) inline(m msg) {
	select {
	case b.out <- m:
	default:
		go b.handle(m)
	}
}

func (b *broker) handle(msg) {}

// A channel type with methods; the goroutine parks the request (seen in a
// progress-bar library).
type request struct{ cmd int }

type manager chan request

func (m manager) push(r request) {
	select {
	case m <- r:
	default:
		go func() { // want `default of a non-blocking send on m starts a goroutine that blocks on the same send`
			m <- r
		}()
	}
}
