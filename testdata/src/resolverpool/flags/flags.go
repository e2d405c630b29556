// Package flags is checked with -resolverpool.resolve and -resolverpool.slow
// naming a DNS client method and a compaction function of this package.
package flags

import "context"

// Client is a DNS client whose resolution the tables do not know.
type Client struct{}

// Query resolves name over the client's own transport.
func (c *Client) Query(ctx context.Context, name string) ([]string, error) {
	return nil, ctx.Err()
}

// compact rewrites a store: slow by configuration.
func compact(dir string) error { return nil }

func run(ctx context.Context, c *Client, names []string) {
	sem := make(chan struct{}, 2)
	for _, n := range names {
		sem <- struct{}{}
		_, _ = c.Query(ctx, n)
		<-sem
	}
	sem <- struct{}{} // want `token channel sem of 2 runs slow work \(compact\) beside work that resolves hostnames \(Client.Query\)`
	_ = compact("/var/lib/store")
	<-sem
}
