// Package analyzers lists the queuecheck suite.
package analyzers

import (
	"flag"

	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers/chansize"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
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

// SetRunning tells the suite which of its checks the driver runs in this
// process. One thing depends on it: a //queuecheck:ignore directive that
// names no check is reported by exactly one check that runs (the one whose
// name is nearest the name given), so that it is reported once, by the same
// check every time, whichever checks run. A check cannot see which others
// run beside it, so the driver says so: selected is called after the driver
// has selected its checks. Without it every check is assumed to run, and a
// directive nearest a check that does not run goes unreported.
func SetRunning(selected func() []*analysis.Analyzer) {
	if selected == nil {
		report.SetRunning(nil)
		return
	}
	report.SetRunning(func() []string {
		var names []string
		for _, a := range selected() {
			names = append(names, a.Name)
		}
		return names
	})
}

// SetOneFileFixes tells the suite that the driver applies only the edits of
// a fix that lie in the file of its finding, as golangci-lint does. Fixes
// that edit more than one file are then left out rather than half applied
// (which would leave the package not compiling); their findings stay.
func SetOneFileFixes(on bool) { report.SetOneFileFixes(on) }

// IsWhy reports whether category, a diagnostic's, is that of a
// why-diagnostic (CHECK/why): a candidate a named rule kept from being a
// finding, reported because -why asked about its line. Drivers count those
// as no finding, write none to a baseline and apply no fix of theirs.
func IsWhy(category string) bool { return report.IsWhy(category) }

// WhyFlag returns the value of a driver's -why flag: setting it sets the
// -why flag of every check of as (each check's -CHECK.why).
func WhyFlag(as []*analysis.Analyzer) flag.Value { return &whyAll{as: as} }

type whyAll struct {
	as  []*analysis.Analyzer
	val string
}

func (w *whyAll) String() string { return w.val }

func (w *whyAll) Set(s string) error {
	if err := new(report.WhyTarget).Set(s); err != nil {
		return err
	}
	for _, a := range w.as {
		if err := a.Flags.Set(report.WhyFlagName, s); err != nil {
			return err
		}
	}
	w.val = s
	return nil
}
