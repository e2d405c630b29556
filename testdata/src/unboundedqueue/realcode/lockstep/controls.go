package lockstep

// pushLoop: the goroutine's result goes elsewhere, nothing is sent back on
// the stream, so the peer keeps streaming and goroutines pile up.
func (p *processor) pushLoop(c QuerierLoopClient, results chan<- *Response) error {
	ctx := c.Context()
	for {
		request, err := c.Recv()
		if err != nil {
			return err
		}
		go func() { // want `goroutine per item read from c with nothing bounding how many run at once`
			results <- p.runRequest(ctx, request)
		}()
	}
}

// ack-first: the reply is sent before the work starts, so the peer is free
// to send the next request while this one runs: also unbounded.
func (p *processor) ackFirst(c QuerierLoopClient, store func(*Request)) error {
	for {
		request, err := c.Recv()
		if err != nil {
			return err
		}
		if err := c.Send(&Response{}); err != nil {
			return err
		}
		go store(request) // want `goroutine per item read from c with nothing bounding how many run at once`
	}
}
