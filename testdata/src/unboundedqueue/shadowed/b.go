package shadowed

func report(int) {}

// add takes the batch size of its caller, which has nothing to do with the
// length of the queue.
func (w *worker) add(j job, maxJobs int) {
	w.mu.Lock()
	w.jobs = append(w.jobs, j) // want `slice queue w.jobs grows without bound`
	w.mu.Unlock()
	report(maxJobs)
}
