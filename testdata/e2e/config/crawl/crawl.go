// Package crawl downloads pages and stores them, sharing one limit.
package crawl

import (
	"example.com/config/fetch"
	"example.com/config/store"
)

// slots limits crawl work: downloads and stores alike.
var slots = make(chan struct{}, 8)

// Download fetches url in a slot.
func Download(url string) ([]byte, error) {
	slots <- struct{}{}
	defer func() { <-slots }()
	return fetch.Page(url)
}

// Keep stores a page in a slot of the same pool.
func Keep(key string, page []byte) {
	slots <- struct{}{} // want:keep
	defer func() { <-slots }()
	store.Put(key, page)
}
