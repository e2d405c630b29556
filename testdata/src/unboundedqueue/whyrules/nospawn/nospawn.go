// Package nospawn takes items from the front of a work list, so the queue
// kinds look at it; it has no go statement and imports neither errgroup nor
// sync, so its loops start no goroutine for the spawn kinds to look at.
package nospawn // why: no-spawn

type walker struct{ todo []int }

func (w *walker) drain(visit func(int)) {
	for len(w.todo) > 0 {
		x := w.todo[0]
		w.todo = w.todo[1:]
		visit(x)
	}
}
