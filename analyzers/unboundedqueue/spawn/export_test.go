package spawn

import "go/ast"

// SetTrace has every rule that silences a spawn reported to f, until the
// returned function is called.
func SetTrace(f func(r *Rule, at ast.Node)) (restore func()) {
	old := trace
	trace = f
	return func() { trace = old }
}
