// Package rawstring starts a goroutine per item with a call that carries a
// string literal spanning lines: the fix rewrites the statement, and the
// literal must come through unchanged, its lines not re-indented.
package rawstring

type job struct{ id int }

func notify(j job, template string) {}

func consume(jobs <-chan job) {
	for j := range jobs {
		go notify( // want `goroutine per item received from jobs`
			j, `job done:
	id {{.id}}
status ok`)
	}
}
