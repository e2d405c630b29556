package timerpool

import "time"

// Negatives. sendBlockOnce makes one attempt: timing it is timing the work.
func (c *client) sendBlockOnce(block []byte) bool {
	return doRequest(block) == nil
}

// pollUntilStopped sleeps a poll interval between rounds of a loop that
// sends whatever is due; the pause is not a retry of a failed attempt.
func (c *client) pollUntilStopped(blocks func() [][]byte) {
	pollInterval := time.Second
	for {
		start := time.Now()
		for _, b := range blocks() {
			_ = c.sendBlockOnce(b)
		}
		c.sendDuration.Add(time.Since(start).Seconds())
		t := getTimer(pollInterval)
		select {
		case <-c.stopCh:
			putTimer(t)
			return
		case <-t.C:
			putTimer(t)
		}
	}
}

// perAttempt times each attempt inside the retry loop: the right timing.
func (c *client) perAttempt(block []byte) bool {
	retryDuration := c.retryMinInterval
	for {
		start := time.Now()
		err := doRequest(block)
		c.sendDuration.Add(time.Since(start).Seconds())
		if err == nil {
			return true
		}
		t := getTimer(retryDuration)
		select {
		case <-c.stopCh:
			putTimer(t)
			return false
		case <-t.C:
			putTimer(t)
		}
	}
}
