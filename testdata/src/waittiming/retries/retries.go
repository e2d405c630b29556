// Package retries measures calls whose attempts are separated by sleeps
// or backoff: under failure the figure is mostly waiting.
package retries

import (
	"context"
	"errors"
	"log"
	"time"

	"waittiming/retries/timeutil"
)

type hist struct{}

func (hist) Observe(float64) {}

var sendLatency hist

var errNotLeader = errors.New("not leader")

func send(ctx context.Context, msg []byte) error { return nil }

// Send retries with a doubling backoff inside the measured span.
func Send(ctx context.Context, msg []byte) error { // want Send:"retries between time\\.Sleep"
	start := time.Now()
	var err error
	backoff := 10 * time.Millisecond
	for attempt := 0; attempt < 5; attempt++ {
		if err = send(ctx, msg); err == nil {
			break
		}
		time.Sleep(backoff)
		backoff *= 2
	}
	sendLatency.Observe(time.Since(start).Seconds()) // want `the duration since start spans the retries at line \d+, whose attempts are separated by time\.Sleep, so time spent waiting between attempts is reported as slow work; record the retry wait apart from the attempts`
	return err
}

type client struct {
	tokens chan struct{}
	leader func() string
}

func newClient(n int) *client {
	c := &client{tokens: make(chan struct{}, n)}
	for i := 0; i < n; i++ {
		c.tokens <- struct{}{}
	}
	return c
}

func (c *client) propose(ctx context.Context, leader string, data []byte) error { return nil }

// Propose takes a token through a label, sleeps while there is no leader,
// and retries by goto.
func (c *client) Propose(ctx context.Context, data []byte) error { // want Propose:"retries between time\\.Sleep"
	start := time.Now()
retry:
	<-c.tokens
	leader := c.leader()
	if leader == "" {
		c.tokens <- struct{}{}
		time.Sleep(50 * time.Millisecond)
		goto retry
	}
	err := c.propose(ctx, leader, data)
	c.tokens <- struct{}{}
	if errors.Is(err, errNotLeader) {
		goto retry
	}
	log.Printf("propose took %v", time.Since(start)) // want `the duration since start spans the wait in the receive from token channel tokens`
	return err
}

// ProposeBackoff backs off on the leaderless path before it goes round
// again: that sleep is on a path that starts over, so the split goes after
// the token, as in Propose.
func (c *client) ProposeBackoff(ctx context.Context, data []byte) error {
	start := time.Now()
	backoff := 10 * time.Millisecond
retry:
	<-c.tokens
	if c.leader() == "" {
		c.tokens <- struct{}{}
		time.Sleep(backoff)
		backoff *= 2
		goto retry
	}
	err := c.propose(ctx, c.leader(), data)
	c.tokens <- struct{}{}
	log.Printf("propose took %v", time.Since(start)) // want `the duration since start spans the wait in the receive from token channel tokens`
	return err
}

// Timer retries on a timer that also watches the context.
func Timer(ctx context.Context, msg []byte) error { // want Timer:"retries between a timer"
	start := time.Now()
	delay := 100 * time.Millisecond
	for {
		err := send(ctx, msg)
		if err == nil {
			break
		}
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	log.Printf("send took %v", time.Since(start)) // want `the duration since start spans the retries at line \d+, whose attempts are separated by a timer`
	return nil
}

// Goto retries by goto after a backoff sleep.
func Goto(ctx context.Context, msg []byte) error { // want Goto:"retries between time\\.Sleep"
	start := time.Now()
	retryDelay := time.Second
again:
	if err := send(ctx, msg); err != nil {
		time.Sleep(retryDelay)
		goto again
	}
	log.Printf("sent in %v", time.Since(start)) // want `the duration since start spans the retries at line \d+, whose attempts are separated by time\.Sleep`
	return nil
}

// Batch paces a batch: it leaves on failure and goes on on success, so the
// sleep is between items, not between attempts.
func Batch(ctx context.Context, msgs [][]byte, rateDelay time.Duration) error {
	start := time.Now()
	for _, m := range msgs {
		if err := send(ctx, m); err != nil {
			return err
		}
		time.Sleep(rateDelay)
	}
	log.Printf("batch took %v", time.Since(start))
	return nil
}

// PerAttempt times each attempt inside the loop: the right timing.
func PerAttempt(ctx context.Context, msg []byte) error { // want PerAttempt:"retries between time\\.Sleep"
	backoff := 10 * time.Millisecond
	for {
		start := time.Now()
		err := send(ctx, msg)
		sendLatency.Observe(time.Since(start).Seconds())
		if err == nil {
			return nil
		}
		time.Sleep(backoff)
	}
}

// Attempts records how many attempts the figure took: the retries are
// part of what it says.
func Attempts(ctx context.Context, msg []byte) error { // want Attempts:"retries between time\\.Sleep"
	start := time.Now()
	var err error
	n := 0
	for ; n < 5; n++ {
		if err = send(ctx, msg); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	log.Printf("sent after %d attempts in %v", n, time.Since(start)) // why: no-wait-in-span, records-waiting
	return err
}

// AttemptsKept keeps the figure in a variable and hands it, with the
// number of attempts, to the record: the record is where it says what it
// measures (go-redis's pipeline operation duration).
func AttemptsKept(ctx context.Context, msg []byte) error { // want AttemptsKept:"retries between time\\.Sleep"
	start := time.Now()
	var err error
	n := 0
	for ; n < 5; n++ {
		if err = send(ctx, msg); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	took := time.Since(start) // why: no-wait-in-span, records-waiting
	log.Printf("sent after %d attempts in %v", n, took)
	return err
}

// Kept keeps the figure in a variable and records it under a name that
// says nothing of the attempts: the pauses are in it.
func Kept(ctx context.Context, msg []byte) error { // want Kept:"retries between time\\.Sleep"
	start := time.Now()
	var err error
	for n := 0; n < 5; n++ {
		if err = send(ctx, msg); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	took := time.Since(start) // want `the duration since start spans the retries at line \d+, whose attempts are separated by time\.Sleep`
	log.Printf("sent in %v", took)
	return err
}

// Ticker polls on a ticker until a check passes: pacing, and the figure is
// the time until ready.
func Ticker(ctx context.Context, ticker *time.Ticker, msg []byte) {
	start := time.Now()
	for {
		if err := send(ctx, msg); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
	sendLatency.Observe(time.Since(start).Seconds())
}

// Interval sleeps a poll interval between checks.
func Interval(ctx context.Context, msg []byte, pollInterval time.Duration) {
	start := time.Now()
	for send(ctx, msg) != nil {
		time.Sleep(pollInterval)
	}
	log.Printf("delivered in %v", time.Since(start))
}

// OnFailure retries only when the first attempt failed: a wait on an error
// branch, like the others the check leaves alone.
func OnFailure(ctx context.Context, msg []byte) error { // want OnFailure:"retries between time\\.Sleep"
	start := time.Now()
	err := send(ctx, msg)
	if err != nil {
		for i := 0; i < 3 && err != nil; i++ { // why: not-on-every-path
			time.Sleep(time.Second)
			err = send(ctx, msg)
		}
	}
	log.Printf("send took %v", time.Since(start))
	return err
}

// Worker sleeps after each job whatever its outcome: a pause between jobs.
func Worker(ctx context.Context, jobs [][]byte) {
	start := time.Now()
	for _, j := range jobs {
		err := send(ctx, j)
		if err != nil {
			log.Println(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	log.Printf("jobs took %v", time.Since(start))
}

// Continue sleeps and goes round again on failure.
func Continue(ctx context.Context, msg []byte) error { // want Continue:"retries between time\\.Sleep"
	start := time.Now()
	backoff := 50 * time.Millisecond
	for {
		err := send(ctx, msg)
		if err != nil {
			log.Println("retrying:", err)
			time.Sleep(backoff)
			continue
		}
		break
	}
	sendLatency.Observe(time.Since(start).Seconds()) // want `the duration since start spans the retries`
	return nil
}

// Condition loops while the attempt fails.
func Condition(ctx context.Context, msg []byte) error { // want Condition:"retries between time\\.Sleep"
	start := time.Now()
	err := send(ctx, msg)
	for i := 0; err != nil && i < 3; i++ {
		time.Sleep(time.Duration(i+1) * 100 * time.Millisecond)
		err = send(ctx, msg)
	}
	log.Printf("send took %v", time.Since(start)) // want `the duration since start spans the retries`
	return err
}

// Backoff waits on a backoff timer of another package, in the condition of
// an if, and retries by goto.
func Backoff(ctx context.Context, msg []byte, stop <-chan struct{}) bool { // want Backoff:"retries between \\(\\*timeutil\\.BackoffTimer\\)\\.Wait"
	start := time.Now()
	bt := timeutil.NewBackoffTimer(time.Second, time.Minute)
again:
	err := send(ctx, msg)
	if err != nil {
		if !bt.Wait(stop) {
			return false
		}
		goto again
	}
	log.Printf("sent in %v", time.Since(start)) // want `the duration since start spans the retries at line \d+, whose attempts are separated by \(\*timeutil\.BackoffTimer\)\.Wait`
	return true
}

type histogram struct{}

func (histogram) UpdateDuration(start time.Time) { _ = start }

type counter struct{}

func (counter) Add(float64) {}

var (
	flushDuration histogram
	sendDuration  counter
)

// Flush is vmalert's remote-write flush: two deferred figures span the
// retries: each is a finding, and they share one fix.
func Flush(ctx context.Context, msg []byte, stop <-chan struct{}) { // want Flush:"retries between \\(\\*timeutil\\.BackoffTimer\\)\\.Wait"
	defer flushDuration.UpdateDuration(time.Now()) // want `the measurement deferred with a start of time\.Now\(\) spans the retries at line \d+, whose attempts are separated by \(\*timeutil\.BackoffTimer\)\.Wait`
	bt := timeutil.NewBackoffTimer(time.Second, time.Minute)
	timeStart := time.Now()
	defer func() {
		sendDuration.Add(time.Since(timeStart).Seconds()) // want `the duration since timeStart spans the retries at line \d+`
	}()
L:
	for {
		err := send(ctx, msg)
		if err == nil {
			return
		}
		log.Println("retrying:", err)
		select {
		case <-ctx.Done():
			break L
		default:
		}
		bt.Wait(stop)
	}
}

// Literal measures in a deferred literal given the start.
func Literal(ctx context.Context, msg []byte) (err error) { // want Literal:"retries between time\\.Sleep"
	defer func(start time.Time) { // want `the measurement deferred with a start of time\.Now\(\) spans the retries`
		log.Printf("send took %v err=%v", time.Since(start), err)
	}(time.Now())
	for i := 0; i < 3; i++ {
		if err = send(ctx, msg); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return err
}

type remote struct {
	sendBlock func(block []byte) bool
	stop      chan struct{}
	duration  counter
}

func newRemote() *remote {
	c := &remote{stop: make(chan struct{})}
	c.sendBlock = c.sendBlockHTTP
	return c
}

// sendBlockHTTP retries until the block is sent or the client stops.
func (c *remote) sendBlockHTTP(block []byte) bool {
	bt := timeutil.NewBackoffTimer(time.Second, time.Minute)
again:
	if err := send(context.Background(), block); err != nil {
		if !bt.Wait(c.stop) {
			return false
		}
		goto again
	}
	return true
}

// runWorker is vmagent's: it times the call of a func field whose only
// value retries with pauses. The pauses are inside the callee: no fix.
func (c *remote) runWorker(blocks <-chan []byte) {
	for block := range blocks {
		ch := make(chan bool, 1)
		go func() {
			startTime := time.Now()
			ch <- c.sendBlock(block)
			c.duration.Add(time.Since(startTime).Seconds()) // want `the duration since startTime spans \(\*retries\.remote\)\.sendBlockHTTP, whose attempts are separated by \(\*timeutil\.BackoffTimer\)\.Wait`
		}()
		<-ch
	}
}

// sendOnce does not retry.
func (c *remote) sendOnce(block []byte) bool { return send(context.Background(), block) == nil }

// Once times a call that does not retry.
func (c *remote) Once(block []byte) {
	start := time.Now()
	c.sendOnce(block)
	c.duration.Add(time.Since(start).Seconds())
}

// Twice times a retrying call and other work: a figure of more than the
// retries, whose pauses are a tail of it, not what it measures.
func (c *remote) Twice(block []byte) {
	start := time.Now()
	c.sendBlockHTTP(block)
	c.sendOnce(block)
	c.duration.Add(time.Since(start).Seconds())
}
