// Package sinks declares where records go: a remote endpoint or a local
// file. Its constructors convert both to Sink, so resolverpool's facts tell
// the packages that use Sinks what each implementation does.
package sinks

import (
	"bytes"
	"net/http"
	"os"
)

// A Sink stores records.
type Sink interface {
	Write(rec []byte) error
}

type remote struct{ url string }

func (r *remote) Write(rec []byte) error {
	resp, err := http.Post(r.url, "application/octet-stream", bytes.NewReader(rec))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type file struct{ path string }

func (f file) Write(rec []byte) error { return os.WriteFile(f.path, rec, 0o644) }

// Remote returns a sink that posts records to url.
func Remote(url string) Sink { return &remote{url} }

// File returns a sink that writes records to path.
func File(path string) Sink { return file{path} }
