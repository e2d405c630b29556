// Package crosspkg keeps its pool behind the Acquire and Enter/Leave helpers
// of package admission/helpers: their admission facts make each call an
// acquire, and the release they hand back the end of the task.
package crosspkg

import (
	"context"
	"net"
	"os"
	"time"

	"admission/helpers"
)

type server struct {
	pool *helpers.Pool
}

func newServer() *server {
	return &server{
		pool: helpers.NewPool(4),
	}
}

func (s *server) lookup(ctx context.Context, host string) error {
	release, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	_, err = net.LookupHost(host)
	return err
}

func (s *server) store(ctx context.Context, data []byte) error {
	release, err := s.pool.Acquire(ctx) // want `pool pool runs slow work \(os.WriteFile\) beside work that resolves hostnames \(net.LookupHost\)`
	if err != nil {
		return err
	}
	defer release()
	return os.WriteFile("state", data, 0o600)
}

func (s *server) backup(ctx context.Context) error {
	if err := s.pool.Enter(ctx); err != nil { // want `pool pool runs slow work \(time.Sleep\) beside work that resolves hostnames`
		return err
	}
	defer s.pool.Leave()
	time.Sleep(time.Second)
	return nil
}
