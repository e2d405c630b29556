package detached

import (
	"context"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/labstack/echo/v4"

	"unboundedqueue/detached/indexer"
)

// API serves requests through web frameworks whose handlers take the
// framework's per-request context instead of an *http.Request.
type API struct {
	peer     Peer
	imp      *indexer.Importer
	stopping bool
}

// Reindex answers at once and leaves the replication running: one
// goroutine per request, each calling the peer, with nothing limiting them.
func (a *API) Reindex(c *gin.Context) {
	key := c.Param("key")
	go a.peer.Replicate(context.Background(), key, nil) // want `goroutine started per gin.Context request by \(\*API\).Reindex outlives it: it keeps doing blocking work \(a.peer.Replicate\)`
	c.Status(202)
}

// Delete does the same from echo.
func (a *API) Delete(c echo.Context) error {
	key := c.Param("key")
	go func() { // want `goroutine started per echo.Context request by \(\*API\).Delete outlives it`
		_ = a.peer.Replicate(context.Background(), key, nil)
	}()
	return c.NoContent(202)
}

// routes registers a literal handler: it serves one request per call too.
func (a *API) routes(e *gin.Engine) {
	e.POST("/sync", func(c *gin.Context) {
		go a.peer.Replicate(context.Background(), c.Param("key"), nil) // want `goroutine started per gin.Context request by a function literal in \(\*API\).routes outlives it`
		c.Status(202)
	})
}

// Negative: the goroutine works under the request's context, which gin
// gives as c.Request.Context(): it ends with the request.
func (a *API) ReindexCancelled(c *gin.Context) {
	ctx := c.Request.Context()
	go a.peer.Replicate(ctx, c.Param("key"), nil) // why: request-context
	c.Status(202)
}

// Negative: echo gives it as c.Request().Context().
func (a *API) DeleteCancelled(c echo.Context) error {
	go a.peer.Replicate(c.Request().Context(), c.Param("key"), nil) // why: request-context
	return c.NoContent(202)
}

// Negative: the handler waits for its goroutine before it answers.
func (a *API) ReindexWaited(c *gin.Context) {
	done := make(chan error, 1)
	go func() { done <- a.peer.Replicate(context.Background(), c.Param("key"), nil) }() // why: waited-for
	if err := <-done; err != nil {
		c.Status(500)
		return
	}
	c.Status(200)
}

// Negative: the goroutine only computes.
func (a *API) Normalize(c *gin.Context) {
	key := c.Param("key")
	go func() { _ = strings.ToLower(key) }() // why: no-blocking-work
	c.Status(200)
}

// Negative: the handler turns requests away while the indexer's rebuild
// runs, and the goroutine is that rebuild: one alive at a time.
func (a *API) BuildIndex(c *gin.Context) {
	if indexer.Running() {
		c.Status(409)
		return
	}
	go func() { // why: guarded-start
		_ = indexer.Rebuild(context.Background(), "/")
	}()
	c.Status(202)
}

// Negative: the same through an importer's status.
func (a *API) Import(c echo.Context) error {
	if a.imp.Stats().Status == indexer.StatusImporting {
		return c.NoContent(409)
	}
	sess := a.imp.NewSession(c.Param("file"))
	go sess.Start() // why: guarded-start
	return c.NoContent(202)
}

// The indexer's state says nothing of a replication: one goroutine per
// request still.
func (a *API) ReplicateUnlessIndexing(c *gin.Context) {
	if indexer.Running() {
		c.Status(409)
		return
	}
	go a.peer.Replicate(context.Background(), c.Param("key"), nil) // want `goroutine started per gin.Context request by \(\*API\).ReplicateUnlessIndexing outlives it`
	c.Status(202)
}

// A state of the handler's own package (a shutdown flag) is no job's.
func (a *API) RebuildUnlessStopping(c *gin.Context) {
	if a.isStopping() {
		c.Status(503)
		return
	}
	go func() { // want `goroutine started per gin.Context request by \(\*API\).RebuildUnlessStopping outlives it`
		_ = indexer.Rebuild(context.Background(), c.Param("root"))
	}()
	c.Status(202)
}

func (a *API) isStopping() bool { return a.stopping }

// An empty if before the go statement returns nothing: still one
// goroutine per request (and no panic on the empty body).
func (a *API) ReindexAfterEmptyIf(c *gin.Context) {
	if indexer.Running() {
	}
	go a.peer.Replicate(context.Background(), c.Param("key"), nil) // want `goroutine started per gin.Context request by \(\*API\).ReindexAfterEmptyIf outlives it`
	c.Status(202)
}
