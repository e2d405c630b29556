package caller

import (
	"net/http"

	"unboundedqueue/spawncall/helper"
)

// A dispatcher calls each registered handler once per event it reads.
type dispatcher struct {
	handlers map[string]func(helper.Event)
}

func (d *dispatcher) register(topic string, h func(helper.Event)) { d.handlers[topic] = h }

type subscriber struct {
	hc    *http.Client
	slots chan struct{}
}

// save posts the event: blocking work.
func (c *subscriber) save(e helper.Event) {
	if resp, err := c.hc.Get("http://store/" + e.Topic); err == nil {
		resp.Body.Close()
	}
}

// count only computes.
func (c *subscriber) count(e helper.Event) { _ = len(e.Body) }

// saveLimited takes a slot before its work.
func (c *subscriber) saveLimited(e helper.Event) {
	c.slots <- struct{}{}
	defer func() { <-c.slots }()
	c.save(e)
}

func (c *subscriber) wire(d *dispatcher) {
	d.register("save", helper.Async(c.save)) // want `helper.Async returns a function that starts c.save in a goroutine of its own on each call \(its go statement at helper.go:\d+\) and returns without waiting: whatever calls it per event leaves a goroutine per event doing blocking work \(c.save\), and nothing limits how many are alive`
	d.register("audit", helper.AsyncRecover(func(e helper.Event) { // want `helper.AsyncRecover returns a function that starts the literal in a goroutine of its own on each call`
		c.save(e)
	}))
	// The twins: a handler that only computes, a wrapper that takes a slot
	// first, a handler that takes one before its work.
	d.register("count", helper.Async(c.count)) // why: handler-no-work
	d.register("limited", helper.AsyncLimited(c.save))
	d.register("slot", helper.Async(c.saveLimited)) // why: acquired-inside
}
