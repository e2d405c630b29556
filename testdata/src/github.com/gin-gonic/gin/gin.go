// Package gin stands for github.com/gin-gonic/gin: the per-request
// context its handlers are given.
package gin

import (
	"net/http"
	"time"
)

// Context is what gin hands a handler, once per request. It has the
// methods of a context.Context, but its Done is nil unless the engine is
// told to fall back to the request's.
type Context struct {
	Request *http.Request
	Writer  http.ResponseWriter
}

func (c *Context) Param(key string) string     { return "" }
func (c *Context) JSON(code int, obj any)      {}
func (c *Context) Status(code int)             {}
func (c *Context) Copy() *Context              { return c }
func (c *Context) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *Context) Done() <-chan struct{}       { return nil }
func (c *Context) Err() error                  { return nil }
func (c *Context) Value(key any) any           { return nil }

// HandlerFunc is a gin handler.
type HandlerFunc func(*Context)

// Engine routes requests to handlers.
type Engine struct{}

func (e *Engine) POST(path string, h ...HandlerFunc) {}
