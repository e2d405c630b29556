package shadowed

// sem bounds the exports, not the handlers: the semaphore the fix makes for
// the handlers needs a name of its own, or it would take over the exports'.
var sem = make(chan struct{}, 2)

func handle(j job) {}

func export() {}

func serve(jobs <-chan job) {
	for j := range jobs {
		go handle(j) // want `goroutine per item received from jobs`
	}
	sem <- struct{}{}
	export()
	<-sem
}
