// Package fetch downloads pages, resolving hostnames on the way.
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
