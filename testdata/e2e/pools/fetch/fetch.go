// Package fetch downloads pages; whether that resolves a hostname is decided
// here, one package away from the pool that runs it.
package fetch

import (
	"io"
	"net/http"
)

// Page returns the body of url.
func Page(url string) ([]byte, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}
