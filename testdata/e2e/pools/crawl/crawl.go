// Package crawl downloads pages and archives them, sharing one limit.
package crawl

import (
	"os"

	"example.com/pools/fetch"
)

// slots limits crawl work: downloads and disk writes alike.
var slots = make(chan struct{}, 8)

// Download fetches url in a slot.
func Download(url string) ([]byte, error) {
	slots <- struct{}{}
	defer func() { <-slots }()
	return fetch.Page(url)
}

// Archive writes a page to disk in a slot of the same pool.
func Archive(path string, page []byte) error {
	slots <- struct{}{}
	defer func() { <-slots }()
	return os.WriteFile(path, page, 0o644)
}
