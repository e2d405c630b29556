// Package metrics is a service's own metrics package: methods that update
// Prometheus vectors and log, bookkeeping in every package that calls
// them; and one that pushes to a gateway, which is work.
package metrics

import (
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

type Metrics struct {
	rowTime *prometheus.HistogramVec
	rows    *prometheus.HistogramVec
	verbose bool
}

func (m *Metrics) RecordRowTime(op string, n int, d time.Duration) { // want RecordRowTime:"bookkeeping"
	if n == 0 {
		return
	}
	m.rowTime.WithLabelValues(op).Observe(d.Seconds() / float64(n))
	m.logf("%s: %d rows in %v", op, n, d)
}

func (m *Metrics) RecordRows(op string, n int) { // want RecordRows:"bookkeeping"
	m.rows.WithLabelValues(strings.ToLower(op)).Observe(float64(n))
}

// logf records through the standard logger when asked to.
func (m *Metrics) logf(format string, args ...any) { // want logf:"bookkeeping"
	if m.verbose {
		log.Printf(format, args...)
	}
}

// Push sends the figures to a gateway: a request, no bookkeeping.
func (m *Metrics) Push(url string) error {
	m.logf("pushing to %s", url)
	resp, err := http.Post(url, "text/plain", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Sample waits for the next tick before it records: a pause, no
// bookkeeping.
func (m *Metrics) Sample(op string) {
	time.Sleep(time.Second)
	m.RecordRows(op, 1)
}

type node struct {
	left, right *node
	v           int
}

// sum only calls itself: a walk, no bookkeeping.
func sum(n *node) int {
	if n == nil {
		return 0
	}
	return n.v + sum(n.left) + sum(n.right)
}

// RecordTree records the result of a walk, which may be long: the walk
// is work, so no bookkeeping.
func (m *Metrics) RecordTree(root *node) {
	m.RecordRows("tree", sum(root))
}
