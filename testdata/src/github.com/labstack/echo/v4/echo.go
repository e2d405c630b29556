// Package echo stands for github.com/labstack/echo/v4: the per-request
// context its handlers are given.
package echo

import "net/http"

// Context is what echo hands a handler, once per request.
type Context interface {
	Request() *http.Request
	Param(name string) string
	NoContent(code int) error
}
