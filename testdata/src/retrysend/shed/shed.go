// Package shed shows how the overflow fix sheds an item where the function
// cannot return an error: with the drop counter or the logger the function
// or its receiver already uses, and a comment only where there is none.
package shed

import (
	"log"
	"log/slog"
	"sync/atomic"
)

type event struct{ id int }

// counted has an atomic drop counter: the fix increments it.
type counted struct {
	out     chan event
	backlog []event
	sent    atomic.Int64
	dropped atomic.Int64
}

func (c *counted) publish(e event) {
	select {
	case c.out <- e:
		c.sent.Add(1)
	default:
		c.backlog = append(c.backlog, e) // want `default of a non-blocking send on c.out appends the item to c.backlog, which has no cap`
	}
}

// metered counts drops with a metric the function already increments
// elsewhere: the fix repeats that statement.
type counter interface{ Inc() }

var overflowTotal counter

type metered struct {
	out     chan event
	pending map[int]event
}

func (m *metered) relay(in <-chan event, closing bool) {
	if closing {
		overflowTotal.Inc()
		return
	}
	for e := range in {
		select {
		case m.out <- e:
		default:
			m.pending[e.id] = e // want `default of a non-blocking send on m.out stores the item in map m.pending, which has no cap`
		}
	}
}

// logged logs with its receiver's logger field: the fix logs the drop.
type logged struct {
	out     chan event
	backlog []event
	logger  *slog.Logger
}

func (l *logged) publish(e event) {
	select {
	case l.out <- e:
	default:
		l.backlog = append(l.backlog, e) // want `default of a non-blocking send on l.out appends the item to l.backlog, which has no cap`
	}
}

// The function logs with package log: the fix does too.
type plain struct {
	out     chan event
	backlog []event
}

func (p *plain) publish(e event) {
	log.Printf("publishing %d", e.id)
	select {
	case p.out <- e:
	default:
		p.backlog = append(p.backlog, e) // want `default of a non-blocking send on p.out appends the item to p.backlog, which has no cap`
	}
}

// The dropped item's source holds a %: Printf reads the message as a
// format, so the fix escapes it.
type rated struct {
	notes   chan string
	backlog []string
}

func (r *rated) note() {
	log.Printf("noting")
	select {
	case r.notes <- "at 100%":
	default:
		r.backlog = append(r.backlog, "at 100%") // want `default of a non-blocking send on r.notes appends the item to r.backlog`
	}
}

// A logger value the function logs with, in a loop: the fix uses it.
func (p *plain) publishAll(lg *log.Logger, es []event) {
	lg.Println("publishing", len(es))
	for _, e := range es {
		select {
		case p.out <- e:
		default:
			go func() { p.out <- e }() // want `default of a non-blocking send on p.out starts a goroutine that blocks on the same send`
		}
	}
}

// Nothing counts or logs drops: a comment names what is lost. The counter
// the function increments counts sends, not drops, and the logger of the
// closure is out of scope at the select.
type bare struct {
	out     chan event
	backlog []event
	sent    int
}

func (b *bare) publish(e event) {
	b.sent++
	func() {
		lg := log.Default()
		lg.Println("closure")
	}()
	select {
	case b.out <- e:
	default:
		b.backlog = append(b.backlog, e) // want `default of a non-blocking send on b.out appends the item to b.backlog, which has no cap`
	}
}

// A select on one line: the comment the fix writes must not swallow the
// braces after it.
func (b *bare) oneLine(e event) {
	select { case b.out <- e: default: b.backlog = append(b.backlog, e) } // want `default of a non-blocking send on b.out appends the item to b.backlog`
}
