// Package detached starts goroutines per request that outlive it: an HTTP
// handler that leaves a thumbnail job behind, an RPC method that replicates
// in the background. Beside them, the starts that stay silent: a goroutine
// the handler waits for, one that takes a slot first or sheds, one started
// once per key, one that only computes, a reader per connection.
package detached

import (
	"context"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
)

type Server struct {
	sem        chan struct{}
	refreshing atomic.Bool
	peer       Peer
}

func NewServer(p Peer) *Server { return &Server{sem: make(chan struct{}, 16), peer: p} }

type Peer interface {
	Replicate(ctx context.Context, key string, val []byte) error
}

type PutRequest struct {
	Key string
	Val []byte
}

func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Query().Get("path")
	go func() { // want `goroutine started per http.Request by \(\*Server\).upload outlives it: it keeps doing blocking work \(os.ReadFile\)`
		b, err := os.ReadFile(path)
		if err == nil {
			_ = os.WriteFile(path+".thumb", b[:len(b)/2], 0o600)
		}
	}()
	w.WriteHeader(http.StatusCreated)
}

func (s *Server) Put(ctx context.Context, req *PutRequest) error {
	go s.peer.Replicate(context.Background(), req.Key, req.Val) // want `goroutine started per PutRequest by \(\*Server\).Put outlives it`
	return nil
}

// Negative: the goroutine works on the request's context, cancelled when
// the request ends.
func (s *Server) PutCancelled(ctx context.Context, req *PutRequest) error {
	go s.peer.Replicate(ctx, req.Key, req.Val)
	return nil
}

// Negative: the handler hands the result channel to a helper that waits.
func (s *Server) heal(w http.ResponseWriter, r *http.Request) {
	respCh := make(chan error, 1)
	go func() {
		respCh <- s.peer.Replicate(context.Background(), "heal", nil)
	}()
	keepAlive(w, respCh)
}

func keepAlive(w http.ResponseWriter, ch <-chan error) {
	if err := <-ch; err != nil {
		w.WriteHeader(http.StatusInternalServerError)
	}
}

// Negative: the handler waits for its goroutine.
func (s *Server) PutWaited(ctx context.Context, req *PutRequest) error {
	done := make(chan error, 1)
	go func() { done <- s.peer.Replicate(ctx, req.Key, req.Val) }()
	return <-done
}

// Negative: a slot taken before go, or the request shed.
func (s *Server) PutShed(ctx context.Context, req *PutRequest) error {
	select {
	case s.sem <- struct{}{}:
	default:
		return nil
	}
	go func() {
		defer func() { <-s.sem }()
		_ = s.peer.Replicate(context.Background(), req.Key, req.Val)
	}()
	return nil
}

// Negative: one refresh at a time, whatever the request rate.
func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	if s.refreshing.CompareAndSwap(false, true) {
		go func() {
			defer s.refreshing.Store(false)
			_ = s.peer.Replicate(context.Background(), "refresh", nil)
		}()
	}
}

// Negative: the goroutine only computes.
func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	var mu sync.Mutex
	n := 0
	go func() {
		mu.Lock()
		n++
		mu.Unlock()
	}()
}

type conn struct{ in chan []byte }

func (c *conn) readLoop(ctx context.Context, p Peer) {
	for b := range c.in {
		_ = p.Replicate(ctx, "k", b)
	}
}

// Negative: a reader per connection lives as long as the connection.
func (s *Server) accept(w http.ResponseWriter, r *http.Request) {
	c := &conn{in: make(chan []byte)}
	go c.readLoop(r.Context(), s.peer)
}

type hook struct {
	started bool
	dir     string
}

type PrestartRequest struct{ Dir string }

// Negative: started once per task, the receiver remembers it.
func (h *hook) Prestart(ctx context.Context, req *PrestartRequest) error {
	if h.started {
		return nil
	}
	h.started = true
	go func() { _ = os.WriteFile(h.dir+"/ready", nil, 0o600) }()
	return nil
}

type OrderEvent struct{ ID string }

// A consumer's callback: its context is the consumer's, which lives on.
func (s *Server) onEvent(ctx context.Context, ev *OrderEvent) {
	go s.peer.Replicate(ctx, ev.ID, nil) // want `goroutine started per OrderEvent by \(\*Server\).onEvent outlives it`
}

func (s *Server) store(ctx context.Context, req *PutRequest) (string, error) {
	return "/data/" + req.Key, s.peer.Replicate(ctx, req.Key, req.Val)
}

// What the request's context computed is not the request's context: the
// goroutine works on after the request.
func (s *Server) PutIndexed(ctx context.Context, req *PutRequest) error {
	path, err := s.store(ctx, req)
	if err != nil {
		return err
	}
	go func() { _ = os.WriteFile(path+".idx", nil, 0o600) }() // want `goroutine started per PutRequest by \(\*Server\).PutIndexed outlives it`
	return nil
}

// HandleMerge starts the merge in the background and returns; merge claims
// its flag first and returns when another merge holds it, so at most one
// runs however many requests arrive (zoekt's handleDebugMerge).
func (s *Server) HandleMerge(w http.ResponseWriter, r *http.Request) {
	go func() { // no finding wanted: merge claims first
		s.doMerge()
	}()
	w.WriteHeader(http.StatusAccepted)
}

var merging atomic.Bool

func (s *Server) doMerge() { s.merge("all") }

func (s *Server) merge(what string) {
	if !merging.CompareAndSwap(false, true) {
		return
	}
	defer merging.Store(false)
	_, _ = os.ReadFile(what)
}

// HandleCompact is the twin whose background work claims nothing.
func (s *Server) HandleCompact(w http.ResponseWriter, r *http.Request) {
	go func() { // want `goroutine started per http.Request by \(\*Server\).HandleCompact outlives it`
		s.compact("all")
	}()
	w.WriteHeader(http.StatusAccepted)
}

func (s *Server) compact(what string) {
	_, _ = os.ReadFile(what)
}

// A cache entry whose refresh runs in the background, one at a time.
type cacheEntry struct {
	refreshing atomic.Bool
	key        string
}

// beginRefresh claims the entry's refresh for one caller.
func (e *cacheEntry) beginRefresh() bool {
	if e.key == "" {
		return false
	}
	return e.refreshing.CompareAndSwap(false, true)
}

func (e *cacheEntry) endRefresh() { e.refreshing.Store(false) }

// due says whether the entry wants a refresh; it claims nothing.
func (e *cacheEntry) due() bool { return e.key != "" && !e.refreshing.Load() }

// Negative: the handler returns unless a helper of the package claims the
// entry's flag (its result is a CompareAndSwap), and the goroutine gives it
// back: one refresh per entry in flight, whatever the request rate.
func (s *Server) HandlePrefetch(w http.ResponseWriter, r *http.Request, e *cacheEntry) {
	if !e.beginRefresh() {
		return
	}
	go func() { // no finding wanted: the entry's flag is claimed first
		defer e.endRefresh()
		_ = s.peer.Replicate(context.Background(), e.key, nil)
	}()
}

// HandlePrefetchDue is its twin whose early return only reads the flag:
// every request that finds the entry due starts one more.
func (s *Server) HandlePrefetchDue(w http.ResponseWriter, r *http.Request, e *cacheEntry) {
	if !e.due() {
		return
	}
	go func() { // want `goroutine started per http.Request by \(\*Server\).HandlePrefetchDue outlives it`
		_ = s.peer.Replicate(context.Background(), e.key, nil)
	}()
}

// HandlePrefetchWon returns when it wins the claim: every request that
// loses it starts one more.
func (s *Server) HandlePrefetchWon(w http.ResponseWriter, r *http.Request, e *cacheEntry) {
	if e.refreshing.CompareAndSwap(false, true) {
		return
	}
	go func() { // want `goroutine started per http.Request by \(\*Server\).HandlePrefetchWon outlives it`
		_ = s.peer.Replicate(context.Background(), e.key, nil)
	}()
}

// beginForced claims the entry, unless a refresh is forced: then every
// caller gets true.
func (e *cacheEntry) beginForced(force bool) bool {
	if force {
		return true
	}
	return e.refreshing.CompareAndSwap(false, true)
}

// HandlePrefetchForced's helper returns true without a claim on one path.
func (s *Server) HandlePrefetchForced(w http.ResponseWriter, r *http.Request, e *cacheEntry) {
	if !e.beginForced(r.URL.Query().Has("force")) {
		return
	}
	go func() { // want `goroutine started per http.Request by \(\*Server\).HandlePrefetchForced outlives it`
		defer e.endRefresh()
		_ = s.peer.Replicate(context.Background(), e.key, nil)
	}()
}
