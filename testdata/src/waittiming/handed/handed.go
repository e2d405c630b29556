// Package handed times requests issued through a protocol package's
// RequestWith, which is handed the client and calls its one method back:
// the client's wait for a slot is inside the figure.
package handed

import (
	"context"
	"io"
	"log"
	"time"

	"waittiming/handed/broker"
	"waittiming/handed/kmsg"
)

// commit times the request: the client waits for a slot first.
func commit(ctx context.Context, cl *broker.Client, group string) error {
	req := &kmsg.CommitRequest{Group: group}
	start := time.Now()
	_, err := req.RequestWith(ctx, cl)
	log.Printf("commit took %v", time.Since(start)) // want `the duration since start spans \(\*broker.Client\).Request via req.RequestWith, which waits for admission \(\(\*semaphore.Weighted\).Acquire, broker.go:\d+\) before its work`
	return err
}

// commitDirect hands a client that does not wait.
func commitDirect(ctx context.Context, d broker.Direct, group string) error {
	req := &kmsg.CommitRequest{Group: group}
	start := time.Now()
	_, err := req.RequestWith(ctx, d)
	log.Printf("commit took %v", time.Since(start))
	return err
}

// commitVia hands an interface value: which client it holds is not in
// sight.
func commitVia(ctx context.Context, r kmsg.Requestor, group string) error {
	req := &kmsg.CommitRequest{Group: group}
	start := time.Now()
	_, err := req.RequestWith(ctx, r)
	log.Printf("commit took %v", time.Since(start))
	return err
}

// commitDoer hands the client as an interface of two methods: the callee
// may call either.
func commitDoer(ctx context.Context, cl *broker.Client, group string) error {
	req := &kmsg.CommitRequest{Group: group}
	start := time.Now()
	_, err := req.DoWith(ctx, cl)
	log.Printf("commit took %v", time.Since(start))
	return err
}

// describe hands the client to nothing.
func describe(ctx context.Context, cl *broker.Client, group string) string {
	start := time.Now()
	s := kmsg.Describe(ctx, &kmsg.CommitRequest{Group: group})
	log.Printf("describe took %v", time.Since(start))
	return s
}

// throttled reads a stream a chunk at a time, each chunk after a slot: a
// reader that paces what it hands on.
type throttled struct {
	slots chan struct{}
	r     io.Reader
}

func (t *throttled) Read(p []byte) (int, error) {
	t.slots <- struct{}{}
	defer func() { <-t.slots }()
	return t.r.Read(p)
}

// upload times a copy of a throttled stream: io.Copy calls Read once per
// chunk, so each wait paces a chunk of the copy, not a queue before it.
func upload(dst io.Writer, src *throttled) error {
	start := time.Now()
	_, err := io.Copy(dst, src)
	log.Printf("upload took %v", time.Since(start))
	return err
}

// commitRetrying hands a client that retries with pauses: under failure
// the figure is mostly sleeps.
func commitRetrying(ctx context.Context, rc *broker.Retrying, group string) error {
	req := &kmsg.CommitRequest{Group: group}
	start := time.Now()
	_, err := req.RequestWith(ctx, rc)
	log.Printf("commit took %v", time.Since(start)) // want `the duration since start spans \(\*broker.Retrying\).Request via req.RequestWith, whose attempts are separated by time.Sleep`
	return err
}
