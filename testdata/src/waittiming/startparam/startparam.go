// Package startparam hands the time a request arrived, taken before the
// concurrency limit, to handlers of package api that time the request from
// it: each such figure holds the wait for a slot, and is a finding of its
// own at the call that hands the start over. A handler that never reads the
// start (its package's admission fact says so) is no figure.
package startparam

import (
	"io"
	"time"

	"waittiming/startparam/api"
)

var concurrency = make(chan struct{}, 8)

func Serve(path string, w io.Writer) error {
	startTime := time.Now()
	concurrency <- struct{}{}
	defer func() { <-concurrency }()
	switch path {
	case "/query":
		return api.QueryHandler(startTime, w) // want `the duration since startTime spans the wait in the send to semaphore channel concurrency`
	case "/labels":
		return api.LabelsHandler(startTime, w) // want `the duration since startTime spans the wait in the send to semaphore channel concurrency`
	case "/metadata":
		return api.MetadataHandler(startTime, w) // never reads startTime
	case "/status":
		return status(startTime, w) // nor does status, of this package
	}
	return nil
}

func status(startTime time.Time, w io.Writer) error {
	_, err := io.WriteString(w, "ok")
	return err
}
