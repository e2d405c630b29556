// Package clean has only channels sized by something real.
package clean

// Fanout returns a channel with room for one result per input.
func Fanout(inputs []string) chan string {
	out := make(chan string, len(inputs))
	for _, in := range inputs {
		out <- in
	}
	close(out)
	return out
}

var notify = make(chan struct{}, 1)
