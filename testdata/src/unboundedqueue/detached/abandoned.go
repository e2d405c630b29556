package detached

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// fetchTimeout waits for the result or the context: when the context ends
// first, the goroutine stays parked on its send forever.
func fetchTimeout(ctx context.Context, c *http.Client, url string) (*http.Response, error) {
	type result struct {
		resp *http.Response
		err  error
	}
	done := make(chan result)
	go func() { // want `goroutine started by fetchTimeout sends on done, an unbuffered channel the function made, and fetchTimeout can return without receiving \(the select's other case returns first\): the goroutine then stays parked on the send forever, one more per such call; give done a buffer of one, so the send completes whether or not the function still waits`
		resp, err := c.Get(url)
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// checkFirst returns on a failed check after starting the goroutine and
// before receiving its result.
func checkFirst(c *http.Client, url string, check func() error) error {
	errc := make(chan error, 0)
	go func() { // want `goroutine started by checkFirst sends on errc, an unbuffered channel the function made, and checkFirst can return without receiving \(it returns before it receives\)`
		_, err := c.Get(url)
		errc <- err
	}()
	if err := check(); err != nil {
		return err
	}
	return <-errc
}

// fetchAll returns on the first error it receives: the goroutines that
// have not sent yet stay parked.
func fetchAll(c *http.Client, urls []string) error {
	errc := make(chan error)
	for _, u := range urls {
		go func() { // want `goroutine started by fetchAll sends on errc, an unbuffered channel the function made, and fetchAll can return without receiving \(it returns from the loop that receives on a value it got, before the last one\): .*; by hand: give errc a buffer as large as the number of goroutines that send on it`
			_, err := c.Get(u)
			errc <- err
		}()
	}
	for range urls {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}

// The twin: a buffer of one, the idiom that cannot leak.
func fetchBuffered(ctx context.Context, c *http.Client, url string) error {
	errc := make(chan error, 1)
	go func() {
		_, err := c.Get(url)
		errc <- err
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// The twin: the goroutine's send gives up with the context.
func fetchGivesUp(ctx context.Context, c *http.Client, url string) error {
	errc := make(chan error)
	go func() {
		_, err := c.Get(url)
		select {
		case errc <- err:
		case <-ctx.Done():
		}
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// The twin: the function receives on every path; the select's other case
// goes round again.
func fetchWaits(c *http.Client, url string, tick <-chan time.Time) error {
	errc := make(chan error)
	go func() {
		_, err := c.Get(url)
		errc <- err
	}()
	for {
		select {
		case err := <-errc:
			return err
		case <-tick:
		}
	}
}

// The twin: a return on the count of the values received, after the last.
func waitAll(c *http.Client, urls []string) error {
	errc := make(chan error)
	for _, u := range urls {
		go func() {
			_, err := c.Get(u)
			errc <- err
		}()
	}
	var errs []error
	left := len(urls)
	for {
		err := <-errc
		errs = append(errs, err)
		left--
		if left == 0 {
			return errors.Join(errs...)
		}
	}
}

// The twin: the early return is on a branch the go statement is not on.
func startOrFail(c *http.Client, url string, ok bool) error {
	errc := make(chan error)
	if ok {
		go func() {
			_, err := c.Get(url)
			errc <- err
		}()
	} else {
		return errors.New("not started")
	}
	return <-errc
}

// A cache starts its informers once, until its context ends.
type informerCache struct{ informers []func(context.Context) error }

// The twin: a component's Start, left when its context ends at shutdown:
// it runs once per component.
func (k *informerCache) Start(ctx context.Context) error {
	errs := make(chan error)
	go func() { // why: lifecycle-end
		errs <- k.informers[0](ctx)
	}()
	select {
	case err := <-errs:
		return err
	case <-ctx.Done():
		return nil
	}
}

// produceAll sends the parts and closes; the consumer's range returns on
// the first failure and leaves the producer parked on its next send.
func uploadParts(c *http.Client, parts []string) error {
	ch := make(chan string)
	go func() { // want `goroutine started by uploadParts sends on ch, an unbuffered channel the function made, and uploadParts can return without receiving \(it leaves the range over the channel before the goroutine's last send\)`
		for _, p := range parts {
			ch <- p
		}
		close(ch)
	}()
	for p := range ch {
		if _, err := c.Get(p); err != nil {
			return err
		}
	}
	return nil
}

// The twin: the range runs to the end; a break of an inner switch is not
// the range's.
func uploadAllParts(c *http.Client, parts []string) (n int) {
	ch := make(chan string)
	go func() {
		for _, p := range parts {
			ch <- p
		}
		close(ch)
	}()
	for p := range ch {
		switch p {
		case "":
			break
		default:
			c.Get(p)
			n++
		}
	}
	return n
}

// fetchInto sends its result on the channel it is given.
func fetchInto(c *http.Client, url string, out chan<- error) {
	_, err := c.Get(url)
	out <- err
}

// The same through a function of the package run by go.
func fetchNamed(ctx context.Context, c *http.Client, url string) error {
	errc := make(chan error)
	go fetchInto(c, url, errc) // want `goroutine started by fetchNamed sends on errc, an unbuffered channel the function made, and fetchNamed can return without receiving \(the select's other case returns first\)`
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// keepInto hands the channel on: no longer the caller's alone.
func keepInto(c *http.Client, url string, out chan error, keep *[]chan error) {
	*keep = append(*keep, out)
	out <- nil
}

// The twin: the goroutine's function hands the channel on.
func fetchKept(ctx context.Context, c *http.Client, url string, keep *[]chan error) error {
	errc := make(chan error)
	go keepInto(c, url, errc, keep)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// watch starts a goroutine that closes the connection once the function
// says it is done; the early return never says so.
func watch(c *http.Client, url string, check func() error) error {
	done := make(chan struct{})
	go func() { // want `goroutine started by watch waits to receive from done, a channel the function made, and watch can return without sending on it or closing it: the goroutine then waits forever, one more per such call`
		<-done
		c.CloseIdleConnections()
	}()
	if err := check(); err != nil {
		return err
	}
	_, err := c.Get(url)
	close(done)
	return err
}

// The twin: the close is deferred, so every path signals.
func watchDeferred(c *http.Client, url string, check func() error) error {
	done := make(chan struct{})
	defer close(done)
	go func() {
		<-done
		c.CloseIdleConnections()
	}()
	if err := check(); err != nil {
		return err
	}
	_, err := c.Get(url)
	return err
}

// The twin: the goroutine also gives up with the context.
func watchCtx(ctx context.Context, c *http.Client, url string, check func() error) error {
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-ctx.Done():
		}
		c.CloseIdleConnections()
	}()
	if err := check(); err != nil {
		return err
	}
	close(done)
	return nil
}

// reader sends each message it reads, and its last error on errc.
func reader(c *http.Client, urls []string, msgs chan<- string, errc chan<- error) {
	for _, u := range urls {
		if _, err := c.Get(u); err != nil {
			errc <- err
			return
		}
		msgs <- u
	}
}

// The twin: the function returns only once the reader has said it ended.
func readAll(c *http.Client, urls []string) error {
	msgs := make(chan string)
	errc := make(chan error, 1)
	go reader(c, urls, msgs, errc)
	for {
		select {
		case <-msgs:
		case err := <-errc:
			return err
		}
	}
}
