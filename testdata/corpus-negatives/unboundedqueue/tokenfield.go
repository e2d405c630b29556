// A false goroutineperitem finding from the corpus run:
// github.com/atlassian/gostatsd, pkg/statsd/handler_http_forwarder_v2.go,
// (*HttpForwarderHandlerV2).Run.
//
// The semaphore is a token channel held in a field: the constructor fills
// it with one token per slot, a helper method acquires by receiving from it
// and another releases by sending the token back. The loop acquires before
// each spawn, so at most cap(mergeSem) goroutines merge at once (the
// goroutine gives its token back once its batch is merged and then waits
// for a second pool of the same shape before each upload). No finding is
// wanted: the receive from a pre-filled token channel, here through a
// method and a field, is the blocking acquire.
package unboundedqueue

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
