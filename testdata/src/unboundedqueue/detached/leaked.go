package detached

import (
	"os"
	"sync"
)

type chunk struct {
	name string
	data []byte
}

// produce sends the chunks and leaves the channel open.
func produce(ch chan chunk, chunks []chunk) {
	for _, c := range chunks {
		ch <- c
	}
}

// produceAndClose closes the channel after the last chunk.
func produceAndClose(ch chan chunk, chunks []chunk) {
	defer close(ch)
	for _, c := range chunks {
		ch <- c
	}
}

// Upload starts workers over a channel that nothing closes: after the
// upload they stay parked on it, a set more per upload.
func Upload(chunks []chunk, threads int) {
	chunksCh := make(chan chunk)
	done := make(chan string)
	var wg sync.WaitGroup
	wg.Add(len(chunks))
	go produce(chunksCh, chunks)
	for i := 0; i < threads; i++ {
		go func() { // want `goroutine started by Upload ranges over chunksCh, a channel the function made and nothing closes: it never ends, and one more is left parked on it per call of Upload`
			for c := range chunksCh {
				_ = os.WriteFile(c.name, c.data, 0o600)
				done <- c.name
			}
		}()
	}
	go func() { // want `goroutine started by Upload ranges over done, a channel the function made and nothing closes`
		for range done {
			wg.Done()
		}
	}()
	wg.Wait()
}

// UploadClosed has the producer close the channel: the workers end.
func UploadClosed(chunks []chunk, threads int) {
	chunksCh := make(chan chunk)
	go produceAndClose(chunksCh, chunks)
	var wg sync.WaitGroup
	for i := 0; i < threads; i++ {
		wg.Add(1)
		go func() { // why: not-per-item
			defer wg.Done()
			for c := range chunksCh {
				_ = os.WriteFile(c.name, c.data, 0o600)
			}
		}()
	}
	wg.Wait()
}

// UploadDeferred closes the channel itself once it has sent everything.
func UploadDeferred(chunks []chunk) {
	ch := make(chan chunk, len(chunks))
	go func() { // why: not-in-loop
		for c := range ch {
			_ = os.WriteFile(c.name, c.data, 0o600)
		}
	}()
	defer close(ch)
	for _, c := range chunks {
		ch <- c
	}
}

type pipeline struct{ in chan chunk }

// Start keeps the channel in a field: other code may close it.
func (p *pipeline) Start() {
	in := make(chan chunk)
	p.in = in
	go func() { // why: not-in-loop
		for c := range in {
			_ = os.WriteFile(c.name, c.data, 0o600)
		}
	}()
}

type submitter struct{ submit func(chunk) }

// Serve keeps a callback that sends on the channel: other code reaches it,
// and the channel lives as long as the callback does.
func (s *submitter) Serve() {
	in := make(chan chunk)
	s.submit = func(c chunk) { in <- c }
	go func() { // why: not-in-loop
		for c := range in {
			_ = os.WriteFile(c.name, c.data, 0o600)
		}
	}()
}
