// Package analyzers lists the queuecheck suite.
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers/chansize"
)

// All is the queuecheck suite, in the order the checks are documented. Every
// driver (the queuecheck binary in both modes, the golangci-lint plugin) runs
// exactly these analyzers.
var All = []*analysis.Analyzer{
	chansize.Analyzer,
}
