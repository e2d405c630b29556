package detached

import (
	"context"

	"unboundedqueue/detached/pb"
)

// pingService implements the RPC service PingServer: gRPC calls Ping once
// per RPC, though its message is named Beat.
type pingService struct{ peer Peer }

func (s *pingService) Ping(ctx context.Context, b *pb.Beat) (*pb.Ack, error) {
	go s.peer.Replicate(context.Background(), b.ID, nil) // want `goroutine started per PingServer.Ping RPC by \(\*pingService\).Ping outlives it`
	return &pb.Ack{}, nil
}

// Negative: the goroutine works under the RPC's context.
type pingCancelled struct{ peer Peer }

func (s *pingCancelled) Ping(ctx context.Context, b *pb.Beat) (*pb.Ack, error) {
	go s.peer.Replicate(ctx, b.ID, nil) // why: request-context
	return &pb.Ack{}, nil
}

// Negative: a plugin's Provision is called once per plugin, not per
// request: RegisterPlugin registers no RPC service.
type replicatorPlugin struct{ peer Peer }

func (p *replicatorPlugin) Provision(ctx context.Context, b *pb.Beat) (*pb.Ack, error) {
	go p.peer.Replicate(context.Background(), b.ID, nil) // why: not-in-loop
	return &pb.Ack{}, nil
}

func register(r pb.Registrar, peer Peer) {
	pb.RegisterPingServer(r, &pingService{peer: peer})
	pb.RegisterPingServer(r, &pingCancelled{peer: peer})
	pb.RegisterPlugin("replicator", &replicatorPlugin{peer: peer})
}
