// Package cluster declares a cluster client as an interface beside its one
// implementation, whose methods call the API server: callers in other
// packages see the interface, and its methods' work facts.
package cluster

import "context"

type API interface {
	Delete(ctx context.Context, name string) error
}

// Client is what the services hold.
type Client interface {
	DeleteService(name string) error
	CachedName(uid string) string
}

type kubeClient struct{ api API }

func New(api API) Client { return &kubeClient{api: api} }

// DeleteService calls the API server.
func (c *kubeClient) DeleteService(name string) error {
	return c.api.Delete(context.Background(), name)
}

// CachedName reads a local cache: no blocking work.
func (c *kubeClient) CachedName(uid string) string { return uid }
