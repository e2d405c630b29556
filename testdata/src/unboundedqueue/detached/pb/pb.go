// Package pb stands for the code gRPC generates for a service: its
// messages are not named as requests, and RegisterPingServer registers an
// implementation of PingServer with a server. Beside it, a plugin registry
// whose interface serves no RPC.
package pb

import "context"

type Beat struct{ ID string }

type Ack struct{}

// PingServer is the service's server interface.
type PingServer interface {
	Ping(ctx context.Context, b *Beat) (*Ack, error)
}

// Registrar stands for grpc.ServiceRegistrar.
type Registrar interface{ RegisterService(desc any, impl any) }

func RegisterPingServer(s Registrar, srv PingServer) { s.RegisterService(nil, srv) }

// Plugin is a plugin, registered once at start-up.
type Plugin interface {
	Provision(ctx context.Context, b *Beat) (*Ack, error)
}

func RegisterPlugin(name string, p Plugin) {}
