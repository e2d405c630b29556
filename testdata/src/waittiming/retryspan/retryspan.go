// Package retryspan times calls that retry with pauses, declared in another
// package (a retries fact of package client) or in a library that retries
// by option (github.com/cenkalti/backoff/v4).
package retryspan

import (
	"context"
	"log"
	"time"

	"github.com/buildkite/roko"
	"github.com/cenkalti/backoff/v4"
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/util/retry"

	"waittiming/retryspan/client"
)

var (
	uploadSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "upload_seconds"})
	e2eSeconds    = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "upload_e2e_seconds"})
)

// Upload times a call of another package that retries with sleeps.
func Upload(ctx context.Context, c *client.Client, key string) error { // want Upload:"retries between time\\.Sleep"
	start := time.Now()
	err := c.Upload(ctx, key)
	uploadSeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans \(\*client\.Client\)\.Upload, whose attempts are separated by time\.Sleep`
	return err
}

// Library times a library call that retries by option; building its
// policy is configuration, not work.
func Library(ctx context.Context, c *client.Client, key string) error {
	start := time.Now()
	err := backoff.Retry(func() error { return c.UploadOnce(ctx, key) }, backoff.WithContext(backoff.NewExponentialBackOff(), ctx))
	log.Printf("upload took %v", time.Since(start)) // want `the duration since start spans backoff\.Retry, whose attempts are separated by the delays its retry options set`
	return err
}

// StatusMetrics is a service's seam to its Prometheus vectors, implemented
// in a package this one does not import: no fact says what its methods do,
// but a method of a metrics interface that takes no context and returns
// nothing only records.
type StatusMetrics interface {
	SetStatusUpdateTotal(kind string)
	SetStatusUpdateDuration(d time.Duration, kind string, failed bool)
}

// Status times a status update that client-go's retry.OnError repeats on
// conflicts, its figure recorded by a deferred literal and its error
// assigned in an if's init: the backoff's pauses are in the figure.
func Status(c *client.Client, m StatusMetrics, key string) { // want Status:"retries between the delays its retry options set"
	var err error
	start := time.Now()
	m.SetStatusUpdateTotal(key)
	defer func() {
		d := time.Since(start) // want `the duration since start spans retry\.OnError, whose attempts are separated by the delays its retry options set`
		m.SetStatusUpdateDuration(d, key, err != nil)
	}()
	if err = retry.OnError(retry.DefaultBackoff, func(e error) bool { return e != nil }, func() error {
		return c.UploadOnce(context.Background(), key)
	}); err != nil {
		log.Printf("update %s: %v", key, err)
	}
}

// StatusNotifier's name says nothing of metrics: its Notify may be work,
// and the retry sits beside it.
type StatusNotifier interface {
	Notify(kind string)
}

func NotifiedStatus(c *client.Client, n StatusNotifier, key string) {
	start := time.Now()
	n.Notify(key)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		return c.UploadOnce(context.Background(), key)
	})
	uploadSeconds.Observe(time.Since(start).Seconds())
	_ = err
}

// Callback times a call of another package that retries the callback it
// is given, pausing in a helper that returns from its select.
func Callback(ctx context.Context, r *client.Retrier, c *client.Client, key string) error { // want Callback:"retries between a timer"
	start := time.Now()
	err := r.Do(ctx, func() error { return c.UploadOnce(ctx, key) })
	uploadSeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans \(\*client\.Retrier\)\.Do, whose attempts are separated by a timer`
	return err
}

// Throttled times a retry whose pause, on cancellation, chooses which
// error to return before it gives up: a pause all the same.
func Throttled(ctx context.Context, r *client.Retrier, c *client.Client, key string) error { // want Throttled:"retries between a timer"
	start := time.Now()
	err := r.Throttled(ctx, func() error { return c.UploadOnce(ctx, key) })
	uploadSeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans \(\*client\.Retrier\)\.Throttled, whose attempts are separated by a timer`
	return err
}

// Drained and Classified time retries whose pause's give-up case does
// more than choose what to return: no pause the check takes for one.
func Drained(ctx context.Context, r *client.Retrier, c *client.Client, key string, drained <-chan bool) error {
	start := time.Now()
	err := r.Drained(ctx, func() error { return c.UploadOnce(ctx, key) }, drained)
	uploadSeconds.Observe(time.Since(start).Seconds())
	return err
}

func Classified(ctx context.Context, r *client.Retrier, c *client.Client, key string, permanent error) error {
	start := time.Now()
	err := r.Classified(ctx, func() error { return c.UploadOnce(ctx, key) }, permanent)
	uploadSeconds.Observe(time.Since(start).Seconds())
	return err
}

// Notified times a call that goes round again after a helper that sends
// once its timer fires: no pause between attempts.
func Notified(ctx context.Context, r *client.Retrier, c *client.Client, key string, out chan<- int) error {
	start := time.Now()
	err := r.DoNotify(ctx, func() error { return c.UploadOnce(ctx, key) }, out)
	uploadSeconds.Observe(time.Since(start).Seconds())
	return err
}

// Roko times a library retrier's call; its options are configuration.
func Roko(ctx context.Context, c *client.Client, key string) error {
	start := time.Now()
	err := roko.NewRetrier(roko.WithMaxAttempts(5), roko.WithStrategy(roko.Exponential(time.Second, 0))).DoWithContext(ctx, func(*roko.Retrier) error {
		return c.UploadOnce(ctx, key)
	})
	log.Printf("upload took %v", time.Since(start)) // want `the duration since start spans \(\*roko\.Retrier\)\.DoWithContext, whose attempts are separated by the delays its retry options set`
	return err
}

// Timed times a call whose attempts are timed inside too: the span is
// still the caller's, pauses included.
func Timed(ctx context.Context, key string) error { // want Timed:"retries between time\\.Sleep"
	start := time.Now()
	err := client.TimedUpload(ctx, key, func(d time.Duration) {})
	uploadSeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans client\.TimedUpload, whose attempts are separated by time\.Sleep`
	return err
}

// Once times a call that makes one attempt: no retries.
func Once(ctx context.Context, c *client.Client, key string) error {
	start := time.Now()
	err := c.UploadOnce(ctx, key)
	uploadSeconds.Observe(time.Since(start).Seconds())
	return err
}

// Hammer times a call that retries without pausing: no time waiting.
func Hammer(ctx context.Context, c *client.Client, key string) error {
	start := time.Now()
	err := c.Hammer(ctx, key)
	uploadSeconds.Observe(time.Since(start).Seconds())
	return err
}

// Watch times a poll: its pauses pace the loop.
func Watch(ctx context.Context, c *client.Client, key string) error {
	start := time.Now()
	err := c.Watch(ctx, key, time.Second)
	uploadSeconds.Observe(time.Since(start).Seconds())
	return err
}

// EndToEnd records the figure users see, named as such: retries included
// by design.
func EndToEnd(ctx context.Context, c *client.Client, key string) error { // want EndToEnd:"retries between time\\.Sleep"
	start := time.Now()
	err := c.Upload(ctx, key)
	e2eSeconds.Observe(time.Since(start).Seconds()) // why: no-wait-in-span, total-latency
	return err
}

// Attempts records the time of the retries as such.
func Attempts(ctx context.Context, c *client.Client, key string) error { // want Attempts:"retries between time\\.Sleep"
	start := time.Now()
	err := c.Upload(ctx, key)
	log.Printf("upload with retries took %v", time.Since(start)) // why: no-wait-in-span, records-waiting
	return err
}

// PerAttempt times each attempt, the pauses between them left out.
func PerAttempt(ctx context.Context, c *client.Client, key string) error { // want PerAttempt:"retries between time\\.Sleep"
	var err error
	for i := 0; i < 3; i++ {
		start := time.Now()
		err = c.UploadOnce(ctx, key)
		uploadSeconds.Observe(time.Since(start).Seconds())
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Schedule times a call of an interface method whose every implementation
// the program declares retries with pauses; the set its argument makes is
// built once, before the attempts, and is no work of its own.
func Schedule(ctx context.Context, s client.Scheduler, key string) { // want Schedule:"retries between a timer"
	start := time.Now()
	s.Schedule(ctx, key, newBlocklist())
	uploadSeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans \(client\.Scheduler\)\.Schedule, whose attempts are separated by a timer`
}

// Place times an interface method one of whose implementations makes one
// attempt: the call may not retry.
func Place(ctx context.Context, p client.Placer, key string) error {
	start := time.Now()
	err := p.Place(ctx, key)                           // why: callee-dynamic
	uploadSeconds.Observe(time.Since(start).Seconds()) // why: no-wait-in-span
	return err
}

// List times an interface method with no implementation the program
// declares.
func List(ctx context.Context, l client.Lister) error {
	start := time.Now()
	_, err := l.List(ctx)                              // why: callee-dynamic
	uploadSeconds.Observe(time.Since(start).Seconds()) // why: no-wait-in-span
	return err
}

func newBlocklist() map[string]bool { return make(map[string]bool) }

// Run times the function a runner constructor returns, which retries the
// operation with pauses.
func Run(ctx context.Context, c *client.Client, key string) error {
	run := client.NewRunner(3, time.Second)
	start := time.Now()
	err := run(ctx, func(ctx context.Context) error { return c.UploadOnce(ctx, key) })
	uploadSeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans the function client\.NewRunner returns, whose attempts are separated by time\.Sleep`
	return err
}

// RunNow calls the runner as soon as it is made.
func RunNow(ctx context.Context, c *client.Client, key string) error { // want RunNow:"retries between time\\.Sleep"
	start := time.Now()
	err := client.NewRunner(3, time.Second)(ctx, func(ctx context.Context) error { return c.UploadOnce(ctx, key) })
	uploadSeconds.Observe(time.Since(start).Seconds()) // want `the duration since start spans the function client\.NewRunner returns`
	return err
}

// RunOnce times a runner that makes one attempt.
func RunOnce(ctx context.Context, c *client.Client, key string) error {
	run := client.NewOnce()
	start := time.Now()
	err := run(ctx, func(ctx context.Context) error { return c.UploadOnce(ctx, key) })
	uploadSeconds.Observe(time.Since(start).Seconds()) // why: no-wait-in-span
	return err
}

// RunEither times a runner variable given two runners: which one runs is
// not known.
func RunEither(ctx context.Context, c *client.Client, key string, retry bool) error {
	run := client.NewOnce()
	if retry {
		run = client.NewRunner(3, time.Second)
	}
	start := time.Now()
	err := run(ctx, func(ctx context.Context) error { return c.UploadOnce(ctx, key) })
	uploadSeconds.Observe(time.Since(start).Seconds()) // why: no-wait-in-span
	return err
}

// Chained times a runner made by a constructor that calls its own result.
func Chained(ctx context.Context, c *client.Client, key string) error {
	start := time.Now()
	err := client.Chain(3)(ctx, func(ctx context.Context) error { return c.UploadOnce(ctx, key) })
	uploadSeconds.Observe(time.Since(start).Seconds()) // why: no-wait-in-span
	return err
}

// An Uploader uploads; logged decorates another one, calling the interface
// it implements.
type Uploader interface {
	Upload(ctx context.Context, key string) error
}

type logged struct{ next Uploader }

func (l logged) Upload(ctx context.Context, key string) error {
	err := l.next.Upload(ctx, key)
	log.Printf("upload %s: %v", key, err)
	return err
}

// Decorated times an interface method whose implementation calls the
// interface again: no retry by that, and no endless walk.
func Decorated(ctx context.Context, u Uploader, key string) error {
	start := time.Now()
	err := u.Upload(ctx, key)                          // why: callee-dynamic
	uploadSeconds.Observe(time.Since(start).Seconds()) // why: no-wait-in-span
	return err
}

var _ Uploader = logged{}

// deliver records the time since its caller's start over a call of the
// function it is handed. Every call of deliver, all in this package, hands
// it a client's Upload, which retries with sleeps: the figure is the
// retries'.
func deliver(ctx context.Context, start time.Time, upload func(context.Context, string) error, key string) error {
	err := upload(ctx, key)
	uploadSeconds.Observe(time.Since(start).Seconds()) // want `the duration since start, a start the caller takes before this function runs, spans \(\*client\.Client\)\.Upload, whose attempts are separated by time\.Sleep`
	return err
}

// deliverEither is handed Upload at one call and UploadOnce at another:
// no one function the call is.
func deliverEither(ctx context.Context, start time.Time, upload func(context.Context, string) error, key string) error {
	err := upload(ctx, key) // why: callee-dynamic
	uploadSeconds.Observe(time.Since(start).Seconds())
	return err
}

func Deliver(ctx context.Context, c *client.Client, key string) error {
	if err := deliver(ctx, time.Now(), c.Upload, key); err != nil {
		return err
	}
	if err := deliverEither(ctx, time.Now(), c.Upload, key); err != nil {
		return err
	}
	return deliverEither(ctx, time.Now(), c.UploadOnce, key)
}
