package detached

import (
	"net/http"
	"os"
)

// A Msg is a message a subscription delivers.
type Msg struct {
	Subject string
	Data    []byte
}

type subscriber interface {
	Subscribe(subject string, cb func(m *Msg)) error
}

// routes registers handlers as literals: each runs once per request.
func routes(mux *http.ServeMux, sub subscriber) {
	mux.HandleFunc("/save", func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path
		go os.WriteFile(path, nil, 0o644) // want `goroutine started per http.Request by a function literal in routes outlives it: it keeps doing blocking work \(os.WriteFile\) after the function returns`
		w.WriteHeader(http.StatusAccepted)
	})
	sub.Subscribe("jobs", func(m *Msg) {
		go os.WriteFile(m.Subject, m.Data, 0o644) // want `goroutine started per Msg by a function literal in routes outlives it`
	})
	// The twin: the goroutine works under the request's context.
	mux.HandleFunc("/fetch", func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), "GET", "http://backend/", nil)
		done := make(chan struct{})
		go func() {
			defer close(done)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
		<-done
	})
	// The twin: a literal run as a goroutine serves no request of its own.
	go func(m *Msg) {
		go os.WriteFile(m.Subject, m.Data, 0o644)
	}(&Msg{Subject: "boot"})
}
