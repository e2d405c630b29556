package caller

import (
	"context"
	"net/http"

	"unboundedqueue/spawncall/helper"
)

// A server answers requests with the helper's client.
type server struct {
	c *helper.Client
}

// Each request starts a goroutine through Refresh that outlives it: nothing
// limits how many are alive.
func (s *server) refresh(w http.ResponseWriter, r *http.Request) {
	s.c.Refresh(r.URL.Path) // want `\(\*helper.Client\).Refresh starts a goroutine per call \(its go statement at helper.go:22 does blocking work, c.hc.Get, and it returns without waiting\), and \(\*server\).refresh calls it per http.Request: the goroutines outlive the request, and nothing limits how many are alive`
	w.WriteHeader(http.StatusAccepted)
}

// The same two calls deep: Audit spawns through Save.
func (s *server) audit(w http.ResponseWriter, r *http.Request) {
	helper.Audit(s.c, r.URL.Path) // want `helper.Audit starts a goroutine per call \(its go statement through helper.Save, at helper.go:33 does blocking work, c.save,`
}

// The twin: the goroutine works under the request's context, which ends
// with the request.
func (s *server) refreshCtx(w http.ResponseWriter, r *http.Request) {
	s.c.RefreshCtx(r.Context(), r.URL.Path)
}

// The twin: the goroutine gets a context that outlives the request.
func (s *server) refreshDetachedCtx(w http.ResponseWriter, r *http.Request) {
	s.c.RefreshCtx(context.WithoutCancel(r.Context()), r.URL.Path) // want `\(\*helper.Client\).RefreshCtx starts a goroutine per call`
}

// The twins: a call on some requests only, or one whose callee waits.
func (s *server) auditSome(w http.ResponseWriter, r *http.Request) {
	helper.AuditMaybe(s.c, r.URL.Path, r.URL.Query().Has("audit"))
	helper.AuditWait(s.c, r.URL.Path, r.Context().Done())
}

// The twin: the handler tries a slot of the server's semaphore before the
// call, and sheds the request when it is full.
type limitedServer struct {
	c   *helper.Client
	sem chan struct{}
}

func (s *limitedServer) refresh(w http.ResponseWriter, r *http.Request) {
	select {
	case s.sem <- struct{}{}:
	default:
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	s.c.Refresh(r.URL.Path)
}
