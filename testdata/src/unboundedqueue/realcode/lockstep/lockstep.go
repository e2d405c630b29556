// Package lockstep is the querier worker of Cortex (and Loki,
// Tempo): pkg/querier/worker/scheduler_processor.go querierLoop and
// frontend_processor.go process. The loop receives a request from a
// bidirectional gRPC stream and runs it in a goroutine so that it can go
// back to Recv and notice the stream closing; the goroutine ends by sending
// its reply on the same stream, and the peer (the scheduler or frontend)
// sends the next request only after it has received that reply (Send, then
// Recv, then the next Send). At most one request is in flight per stream:
// queuecheck reports unboundedqueue/goroutineperitem here today (a false
// positive); it should stay silent.
package lockstep

import (
	"context"
	"log"
)

type Request struct{ Query string }
type Response struct{ Body []byte }

// QuerierLoopClient is the shape of a generated bidi-streaming client.
type QuerierLoopClient interface {
	Send(*Response) error
	Recv() (*Request, error)
	Context() context.Context
}

type processor struct{}

func (p *processor) runRequest(ctx context.Context, req *Request) *Response {
	return &Response{Body: []byte(req.Query)}
}

// querierLoop: the reply goes back on the stream the request came from.
func (p *processor) querierLoop(c QuerierLoopClient) error {
	ctx, cancel := context.WithCancel(c.Context())
	defer cancel()
	for {
		request, err := c.Recv()
		if err != nil {
			return err
		}
		// Handle the request on a "background" goroutine, so we go back to
		// blocking on c.Recv(). We're running in lock step with the server -
		// each Recv is paired with a Send.
		go func() {
			resp := p.runRequest(ctx, request)
			if err := c.Send(resp); err != nil {
				log.Printf("error notifying scheduler: %v", err)
			}
		}()
	}
}

// process: the same, with the reply sent through a callback that closes
// over the stream (Cortex's frontend_processor.go).
func (p *processor) process(c QuerierLoopClient) error {
	ctx, cancel := context.WithCancel(c.Context())
	defer cancel()
	for {
		request, err := c.Recv()
		if err != nil {
			return err
		}
		go p.run(ctx, request, func(resp *Response) error {
			return c.Send(resp)
		})
	}
}

func (p *processor) run(ctx context.Context, req *Request, reply func(*Response) error) {
	resp := p.runRequest(ctx, req)
	if err := reply(resp); err != nil {
		log.Printf("error sending response: %v", err)
	}
}
