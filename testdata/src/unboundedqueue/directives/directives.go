package directives

type event struct{ id int }

type hub struct {
	events chan event
}

func (h *hub) run() {
	for range h.events {
	}
}

func (h *hub) silencedAbove(e event) {
	//queuecheck:ignore unboundedqueue callers are rate-limited upstream; see DESIGN.md
	go func() { h.events <- e }()
}

func (h *hub) silencedOnLine(e event) {
	go func() { h.events <- e }() //queuecheck:ignore unboundedqueue at most one call per second
}

func (h *hub) reported(e event) {
	go func() { h.events <- e }() // want `goroutine that only sends to h.events`
}

//queuecheck:ignore unboundedqueue nothing to silence // want `//queuecheck:ignore unboundedqueue silences nothing here; remove it`
func (h *hub) fine(e event) { h.events <- e }
