package analyzers_test

import (
	"slices"
	"testing"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
)

// report.Checks is the list of names a //queuecheck:ignore directive may
// give. It cannot be derived from analyzers.All, which imports every check
// and so, through them, report; nor can the checks register themselves,
// since a driver that links only some checks (a nogo config naming one)
// would then call a directive for any other check unknown. So it is written
// out, and this test keeps it equal to the suite, order included.
func TestReportChecksAreTheSuite(t *testing.T) {
	var names []string
	for _, a := range analyzers.All {
		names = append(names, a.Name)
	}
	if !slices.Equal(report.Checks, names) {
		t.Errorf("report.Checks = %q, but analyzers.All is %q: update report.Checks", report.Checks, names)
	}
}
