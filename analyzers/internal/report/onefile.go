package report

import (
	"sync/atomic"

	"golang.org/x/tools/go/analysis"
)

// oneFileFixes is set by a driver that applies only the edits of a fix that
// lie in the finding's own file (golangci-lint drops the others).
var oneFileFixes atomic.Bool

// SetOneFileFixes declares that the driver applies only the edits of a fix
// in the file of its finding. A fix that edits other files too (a limit
// declared beside the queue's type, a sibling pool beside the shared one) is
// then left out: half applied, it would leave the package not compiling.
// The finding stays; queuecheck -fix or go vet -fix applies its fix.
func SetOneFileFixes(on bool) { oneFileFixes.Store(on) }

// spansFiles reports whether a fix of d edits a file other than d's own.
func (r *Reporter) spansFiles(d analysis.Diagnostic) bool {
	own := r.pass.Fset.File(d.Pos)
	for _, fix := range d.SuggestedFixes {
		for _, e := range fix.TextEdits {
			if r.pass.Fset.File(e.Pos) != own {
				return true
			}
		}
	}
	return false
}
