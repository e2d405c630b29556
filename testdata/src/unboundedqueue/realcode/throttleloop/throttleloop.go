// Package throttleloop is a false fan-out finding on a storage engine
// outside the census (opening the tables a manifest lists): one goroutine
// per table, each behind the Do of a throttle of another package, whose
// loop takes a slot of its channel or hands back a worker's error. The
// admission fact of (*y.Throttle).Do says it waits; no finding.
package throttleloop

import (
	"context"
	"net/http"

	"unboundedqueue/realcode/throttleloop/y"
)

type manifest struct{ tables map[string]string }

func (m *manifest) apply(name, url string) { m.tables[name] = url }

func open(ctx context.Context, m *manifest) error {
	throttle := y.NewThrottle(3)
	for name, url := range m.tables {
		if err := throttle.Do(); err != nil {
			return err
		}
		go func(name, url string) {
			var rerr error
			defer func() { throttle.Done(rerr) }()
			req, err := http.NewRequestWithContext(ctx, "GET", url+name, nil)
			if err != nil {
				rerr = err
				return
			}
			_, rerr = http.DefaultClient.Do(req)
		}(name, url)
	}
	return throttle.Finish()
}

// openAll has no throttle: one request per table at once.
func openAll(ctx context.Context, m *manifest) {
	for name, url := range m.tables {
		go func(name, url string) { // want `goroutine per element of m.tables, whose size comes from the data`
			req, err := http.NewRequestWithContext(ctx, "GET", url+name, nil)
			if err != nil {
				return
			}
			http.DefaultClient.Do(req)
		}(name, url)
	}
}
