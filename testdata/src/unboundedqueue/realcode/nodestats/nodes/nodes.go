// Package nodes holds list helpers of another package: they filter and
// merge the lists they are given, so what they return is as wide as that.
package nodes

// Ready keeps the nodes that are ready.
func Ready(nodes []string) []string {
	var out []string
	for _, n := range nodes {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// Merge returns a and the elements of b not in a.
func Merge(a, b []string) []string {
	seen := make(map[string]bool, len(a))
	for _, n := range a {
		seen[n] = true
	}
	for _, n := range b {
		if !seen[n] {
			a = append(a, n)
		}
	}
	return a
}

// Names returns the names of a count of nodes: a list the program writes.
func Names(count int) []string {
	out := make([]string, count)
	for i := range out {
		out[i] = "node"
	}
	return out
}
