package nofix

import (
	"context"
	"net"
	"os"

	"golang.org/x/sync/semaphore"
)

func newGenServer() *GenServer {
	return &GenServer{name: "s", sem: semaphore.NewWeighted(4)}
}

func (s *GenServer) lookup(ctx context.Context, host string) error {
	if err := s.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer s.sem.Release(1)
	_, err := net.LookupHost(host)
	return err
}

func (s *GenServer) spool(ctx context.Context, data []byte) error {
	if err := s.sem.Acquire(ctx, 1); err != nil { // want `semaphore sem of 4 runs slow work \(os.WriteFile\) beside work that resolves hostnames \(net.LookupHost\), so lookups wait behind it; by hand, .*generated`
		return err
	}
	defer s.sem.Release(1)
	return os.WriteFile(s.name, data, 0o644)
}
