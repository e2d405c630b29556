// want package:"implementations: .*resolverpool/ifacelib.remote as resolverpool/ifacelib.Sink .Write.; resolverpool/ifacelib.disk as resolverpool/ifacelib.Sink .Write."

// Package ifacelib declares a Sink interface and two implementations,
// converted to it by their constructors: its package fact records them for
// the packages that use Sinks.
package ifacelib

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

func (r *remote) Write(rec []byte) error { // want Write:"resolves: ifacelib.remote.Write → http.Post"
	resp, err := http.Post(r.url, "application/octet-stream", bytes.NewReader(rec))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type disk struct{ path string }

func (d disk) Write(rec []byte) error { // want Write:"slow: ifacelib.disk.Write → os.WriteFile"
	return os.WriteFile(d.path, rec, 0o644)
}

func Remote(url string) Sink { return &remote{url} }

func Disk(path string) Sink { return disk{path} }
