// Package quorumwrite is the shape of a replicated store's quorum write: a
// goroutine per replica of a fixed replica set, each a blocking RPC, and
// the write returns once a quorum answered. The replicas are configured,
// three or five: a small fixed set, not data, and the check stays silent.
package quorumwrite

import "context"

type replica interface {
	Put(ctx context.Context, key string, val []byte) error
}

type Store struct {
	replicas [3]replica
	peers    []replica // from the configuration, set by New
}

func New(peers []replica) *Store { return &Store{peers: peers} }

func (s *Store) Put(ctx context.Context, key string, val []byte) error {
	acks := make(chan error, len(s.replicas))
	for _, r := range s.replicas {
		go func() { acks <- r.Put(ctx, key, val) }()
	}
	for range len(s.replicas)/2 + 1 {
		if err := <-acks; err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) Broadcast(ctx context.Context, key string, val []byte) {
	for _, p := range s.peers {
		go func() { _ = p.Put(ctx, key, val) }()
	}
}
