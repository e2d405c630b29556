// Package analyzers lists the queuecheck suite.
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers/chansize"
	"github.com/queuecheck/queuecheck/analyzers/resolverpool"
	"github.com/queuecheck/queuecheck/analyzers/retrysend"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue"
	"github.com/queuecheck/queuecheck/analyzers/waittiming"
)

// All is the queuecheck suite, in the order the checks are documented. Every
// driver (the queuecheck binary in both modes, the golangci-lint plugin) runs
// exactly these analyzers.
var All = []*analysis.Analyzer{
	chansize.Analyzer,
	unboundedqueue.Analyzer,
	retrysend.Analyzer,
	resolverpool.Analyzer,
	waittiming.Analyzer,
}
