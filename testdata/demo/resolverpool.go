package demo

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"
)

// resolverpoolMirror mirrors remote files to disk. One semaphore limits both
// the downloads and the disk writes, so every download's DNS lookup waits
// behind the writes.
type resolverpoolMirror struct {
	client *http.Client
	sem    *semaphore.Weighted
}

func newResolverpoolMirror() *resolverpoolMirror {
	return &resolverpoolMirror{client: http.DefaultClient, sem: semaphore.NewWeighted(8)}
}

// Download fetches url.
func (m *resolverpoolMirror) Download(ctx context.Context, url string) error {
	if err := m.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer m.sem.Release(1)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := m.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Store writes a downloaded file: semaphore, slow work in the download pool.
func (m *resolverpoolMirror) Store(ctx context.Context, path string, data []byte) error {
	if err := m.sem.Acquire(ctx, 1); err != nil {
		return err
	}
	defer m.sem.Release(1)
	return os.WriteFile(path, data, 0o644)
}

// ResolverpoolRender checks hosts and renders thumbnails on one limited
// errgroup: errgroup.
func ResolverpoolRender(ctx context.Context, hosts, images []string) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(16)
	for _, h := range hosts {
		g.Go(func() error {
			_, err := net.DefaultResolver.LookupHost(ctx, h)
			return err
		})
	}
	for _, img := range images {
		g.Go(func() error {
			return exec.CommandContext(ctx, "convert", img, "-thumbnail", "128x128", img+".thumb.png").Run()
		})
	}
	return g.Wait()
}

// resolverpoolSlots limits outbound dials and the backoff pauses of a
// poller: tokenchan.
var resolverpoolSlots = make(chan struct{}, 4)

// ResolverpoolProbe dials addr in a slot.
func ResolverpoolProbe(addr string) error {
	resolverpoolSlots <- struct{}{}
	defer func() { <-resolverpoolSlots }()
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	return c.Close()
}

// ResolverpoolPause waits out a backoff in a slot.
func ResolverpoolPause(d time.Duration) {
	resolverpoolSlots <- struct{}{}
	defer func() { <-resolverpoolSlots }()
	time.Sleep(d)
}

// ResolverpoolNotify runs webhooks and log rotation on four workers: workers.
func ResolverpoolNotify(hooks []string, logs []string) {
	work := make(chan func(), 64)
	for range 4 {
		go func() {
			for f := range work {
				f()
			}
		}()
	}
	for _, h := range hooks {
		work <- func() {
			if resp, err := http.Post(h, "application/json", nil); err == nil {
				resp.Body.Close()
			}
		}
	}
	for _, l := range logs {
		work <- func() { _ = os.WriteFile(l, nil, 0o644) }
	}
	close(work)
}
