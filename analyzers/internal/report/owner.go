package report

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Who reports a directive that names no known check.
//
// Every other directive belongs to the check it names, and that check alone
// reports it. A directive naming no check must be reported exactly once
// whichever checks run, and by a check that does not depend on the order in
// which the checks of a package happen to finish: the check reporting it
// fixes the finding's category, its golangci-lint linter name (and so
// //nolint and exclusion rules), and its baseline fingerprint. So its owner is
// a function of the directive's text and of the set of checks that run: the
// running check whose name is nearest the name given, by edit distance, the
// first in the suite's order among equals. A misspelling is then reported by
// the check it misspells whenever that check runs.
//
// No pass can see which other checks run beside it, so drivers declare it
// with [SetRunning]: the standalone driver its selection, the vet tool the
// -CHECK flags unitchecker parsed, the golangci-lint plugin the checks it was
// constructed for. Without a declaration every check is assumed to run.

var running struct {
	sync.Mutex
	checks func() []string
}

// SetRunning declares which checks run in this process. checks is called,
// whenever a directive that names no known check needs an owner, after the
// driver has selected the checks; names that are not checks are ignored. nil
// restores the default: every check runs.
func SetRunning(checks func() []string) {
	running.Lock()
	defer running.Unlock()
	running.checks = checks
}

// runningChecks returns the checks that run, in the suite's order.
func runningChecks() []string {
	running.Lock()
	checks := running.checks
	running.Unlock()
	if checks == nil {
		return Checks
	}
	names := checks()
	run := slices.DeleteFunc(slices.Clone(Checks), func(c string) bool { return !slices.Contains(names, c) })
	if len(run) == 0 {
		return Checks // no check of the suite runs, so none will ask
	}
	return run
}

// ownerOf returns the check that reports a directive naming name, no known
// check: of the checks that run, the one nearest name.
func ownerOf(name string) string {
	return nearest(name, runningChecks())
}

// nearest returns the check of checks whose name is nearest name by edit
// distance (ignoring case), the first of those equally near.
func nearest(name string, checks []string) string {
	best, bestDist := "", 0
	for _, c := range checks {
		if d := distance(strings.ToLower(name), c); best == "" || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// suggestion returns the check that name misspells, or "" if it is near
// none: within an edit for every three letters of the check's name (so
// "waittime" suggests waittiming, "queue" suggests nothing).
func suggestion(name string) string {
	if name == "" {
		return ""
	}
	c := nearest(name, Checks)
	if distance(strings.ToLower(name), c) > max(1, utf8.RuneCountInString(c)/3) {
		return ""
	}
	return c
}

// unknownMessage describes a directive naming name, no known check.
func unknownMessage(name string) string {
	switch c := suggestion(name); {
	case name == "":
		return "//queuecheck:ignore names no check; write //queuecheck:ignore CHECK reason, where CHECK is one of " + strings.Join(Checks, ", ")
	case c != "":
		return "//queuecheck:ignore names unknown check " + name + "; did you mean " + c + "?"
	default:
		return "//queuecheck:ignore names unknown check " + name + "; known checks are " + strings.Join(Checks, ", ")
	}
}

// distance returns the Levenshtein distance between a and b.
func distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := range s {
		cur[0] = i + 1
		for j := range t {
			cost := 1
			if s[i] == t[j] {
				cost = 0
			}
			cur[j+1] = min(prev[j+1]+1, cur[j]+1, prev[j]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(t)]
}
