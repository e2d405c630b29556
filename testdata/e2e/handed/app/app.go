// Package app issues requests through kmsg's RequestWith, handing it a
// broker.Client: only broker's facts show that the call queues for a slot
// first, since kmsg only calls back what it is handed.
package app

import (
	"context"
	"log"
	"time"

	"queuecheck.example/handed/broker"
	"queuecheck.example/handed/kmsg"
)

func commit(ctx context.Context, cl *broker.Client, group string) {
	req := &kmsg.CommitRequest{Group: group}
	start := time.Now()
	_, err := req.RequestWith(ctx, cl)
	log.Printf("commit took %v: %v", time.Since(start), err) // want:waittiming
}

func commitSoon(cl *broker.Client, group string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond) // want:waittiming
	defer cancel()
	req := &kmsg.CommitRequest{Group: group}
	_, err := req.RequestWith(ctx, cl)
	return err
}
