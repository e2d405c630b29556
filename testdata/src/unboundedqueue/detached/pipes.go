package detached

import (
	"bufio"
	"io"
	"net/http"
	"os"
)

// Negative (net/http's serveContent): the goroutine writes the parts of a
// multipart body into a pipe the handler made and copies to the response;
// the deferred Close of the reader ends a writer the copy left behind.
func (s *Server) ranges(w http.ResponseWriter, r *http.Request) {
	pr, pw := io.Pipe()
	defer pr.Close()
	go func() {
		f, err := os.Open(r.URL.Path)
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		defer f.Close()
		_, err = io.Copy(pw, f)
		pw.CloseWithError(err)
	}()
	_, _ = io.CopyN(w, pr, 1<<20)
}

// Negative (httputil's DumpRequestOut): the goroutine reads what the
// function writes into a pipe it made, and ends when the function closes
// its end.
func (s *Server) dump(w http.ResponseWriter, r *http.Request) {
	pr, pw := io.Pipe()
	go readRequest(pr)
	_ = r.Write(pw)
	pw.Close()
}

func readRequest(pr *io.PipeReader) {
	if req, err := http.ReadRequest(bufio.NewReader(pr)); err == nil {
		_, _ = io.Copy(io.Discard, req.Body)
	}
}
