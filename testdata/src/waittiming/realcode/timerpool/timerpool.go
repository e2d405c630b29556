// Package timerpool is reproduces vlagent's remote-write client
// (VictoriaLogs app/vlagent/remotewrite/client.go): the send duration is
// measured around a call of a func field whose only value retries with
// `goto again`, pausing on a timer taken from a timer pool in a select with
// the stop channel. Under a failing remote the figure is mostly backoff.
package timerpool

import (
	"errors"
	"sync"
	"time"
)

// timerpool, as in VictoriaMetrics lib/timerpool: Get returns a reset *time.Timer.
var timerPool sync.Pool

func getTimer(d time.Duration) *time.Timer {
	if v := timerPool.Get(); v != nil {
		t := v.(*time.Timer)
		t.Reset(d)
		return t
	}
	return time.NewTimer(d)
}

func putTimer(t *time.Timer) {
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
	timerPool.Put(t)
}

type floatCounter struct{ v float64 }

func (c *floatCounter) Add(f float64) { c.v += f }

type client struct {
	stopCh           chan struct{}
	sendBlock        func(block []byte) bool
	sendDuration     *floatCounter
	retryMinInterval time.Duration
	retryMaxTime     time.Duration
}

func newClient() *client {
	c := &client{stopCh: make(chan struct{}), sendDuration: &floatCounter{}}
	c.sendBlock = c.sendBlockHTTP
	return c
}

func doRequest(block []byte) error {
	if len(block) == 0 {
		return errors.New("empty")
	}
	return nil
}

// sendBlockHTTP retries until the block is sent or stopCh is closed.
func (c *client) sendBlockHTTP(block []byte) bool {
	maxRetryDuration := c.retryMaxTime
	retryDuration := c.retryMinInterval
again:
	err := doRequest(block)
	if err != nil {
		retryDuration *= 2
		if retryDuration > maxRetryDuration {
			retryDuration = maxRetryDuration
		}
		t := getTimer(retryDuration)
		select {
		case <-c.stopCh:
			putTimer(t)
			return false
		case <-t.C:
			putTimer(t)
		}
		goto again
	}
	return true
}

func (c *client) runWorker(blocks <-chan []byte) {
	ch := make(chan bool, 1)
	for block := range blocks {
		go func() {
			startTime := time.Now()
			ch <- c.sendBlock(block)
			c.sendDuration.Add(time.Since(startTime).Seconds()) // want `the duration since startTime spans \(\*timerpool.client\).sendBlockHTTP, whose attempts are separated by a timer`
		}()
		select {
		case ok := <-ch:
			if !ok {
				return
			}
		case <-c.stopCh:
			return
		}
	}
}
