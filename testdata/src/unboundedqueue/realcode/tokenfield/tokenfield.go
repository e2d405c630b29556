// Package tokenfield is a false goroutineperitem finding from the corpus
// run: github.com/atlassian/gostatsd, pkg/statsd/handler_http_forwarder_v2.go,
// (*HttpForwarderHandlerV2).Run.
//
// The semaphore is a token channel held in a field: the constructor fills
// it with one token per slot, a helper method acquires by receiving from it
// and another releases by sending the token back. The loop acquires before
// each spawn, so at most cap(mergeSem) goroutines merge at once (the
// goroutine gives its token back once its batch is merged and then waits
// for a second pool of the same shape before each upload). The receive
// from a pre-filled token channel, here through a method and a field, is
// the blocking acquire: no finding is wanted.
package tokenfield

type forwarder struct {
	mergeSem chan struct{}
	postSem  chan struct{}
	batches  chan [][]byte
}

func newForwarder(merges, posts int) *forwarder {
	mergeSem := make(chan struct{}, merges)
	for i := 0; i < merges; i++ {
		mergeSem <- struct{}{}
	}
	postSem := make(chan struct{}, posts)
	for i := 0; i < posts; i++ {
		postSem <- struct{}{}
	}
	return &forwarder{mergeSem: mergeSem, postSem: postSem, batches: make(chan [][]byte)}
}

func (f *forwarder) acquireMerge() { <-f.mergeSem }
func (f *forwarder) releaseMerge() { f.mergeSem <- struct{}{} }
func (f *forwarder) acquirePost()  { <-f.postSem }
func (f *forwarder) releasePost()  { f.postSem <- struct{}{} }

func merge(parts [][]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func post([]byte) {}

func (f *forwarder) run() {
	for parts := range f.batches {
		f.acquireMerge()
		go func() { // no finding wanted: acquireMerge took a token first
			merged := merge(parts)
			f.releaseMerge()
			f.acquirePost()
			go func() {
				post(merged)
				f.releasePost()
			}()
		}()
	}
}

// A near miss: the field is made in the constructor but never filled, and
// the helper receives from it. A receive from that channel gives a slot of
// a semaphore back (pause sends to it); it bounds nothing, so the loop
// starts a goroutine per batch.
type pausable struct {
	paused  chan struct{}
	batches chan [][]byte
}

func newPausable() *pausable {
	paused := make(chan struct{}, 1)
	return &pausable{paused: paused, batches: make(chan [][]byte)}
}

func (p *pausable) pause()  { p.paused <- struct{}{} }
func (p *pausable) resume() { <-p.paused }

func (p *pausable) run() {
	for parts := range p.batches {
		p.resume()
		go func() { // want `goroutine per item received from p.batches with nothing bounding how many run at once`
			post(merge(parts))
		}()
	}
}
