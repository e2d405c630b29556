package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Verdicts of judged.tsv.
const (
	verdictTrue      = "true"      // the finding is a real overload hazard
	verdictDebatable = "debatable" // a hazard only under assumptions the code does not settle
	verdictFalse     = "false"     // a false alarm: a bug of the check
	verdictMissed    = "missed"    // a real hazard the suite does not report
	// verdictFixed is a false alarm that a change of the check removed: the
	// row stays, with the finding's fingerprint, so that a run in which it
	// comes back says so, and a negative test case guards it.
	verdictFixed = "fixed"
)

// judgedColumns are judged.tsv's columns, in order.
var judgedColumns = []string{"verdict", "check", "category", "repository", "file", "locator", "line", "why"}

// A judgement is one row of judged.tsv.
//
// For a finding, Locator is its baseline fingerprint (the hash of the
// flagged text, stable across line shifts), matched with Category,
// Repository and File. For a miss, Locator is either the fingerprint the
// finding would have, once a check reports it, or "func:NAME", the function
// the hazard sits in (NAME as enclosingFunc spells it: F, T.M); a finding of
// the same check in that file and function is printed as "possibly found now"
// so that somebody judges it. Line is for readers only: it is never matched.
type judgement struct {
	Verdict    string
	Check      string
	Category   string
	Repository string
	File       string
	Locator    string
	Line       int
	Why        string

	row int // line number in judged.tsv
}

var fingerprintRE = regexp.MustCompile(`^[0-9a-f]{24}$`)

// readJudged reads judged.tsv: a header line naming judgedColumns, then one
// tab-separated row per judgement; blank lines and lines starting with # are
// ignored.
func readJudged(name string) ([]*judgement, error) {
	rows, err := readTSV(name, judgedColumns)
	if err != nil {
		return nil, err
	}
	var list []*judgement
	seen := make(map[string]int)
	for _, r := range rows {
		line, cols := r.line, r.cols
		j := &judgement{Verdict: cols[0], Check: cols[1], Category: cols[2], Repository: cols[3], File: cols[4], Locator: cols[5], Why: cols[7], row: line}
		if cols[6] != "" && cols[6] != "-" {
			if j.Line, err = strconv.Atoi(cols[6]); err != nil {
				return nil, fmt.Errorf("%s:%d: line %q is not a number", name, line, cols[6])
			}
		}
		switch j.Verdict {
		case verdictTrue, verdictDebatable, verdictFalse, verdictFixed:
			if !fingerprintRE.MatchString(j.Locator) {
				return nil, fmt.Errorf("%s:%d: a finding's locator must be its fingerprint (24 hex digits), not %q", name, line, j.Locator)
			}
		case verdictMissed:
			if !fingerprintRE.MatchString(j.Locator) && !strings.HasPrefix(j.Locator, "func:") {
				return nil, fmt.Errorf("%s:%d: a miss's locator must be a fingerprint or func:NAME, not %q", name, line, j.Locator)
			}
		default:
			return nil, fmt.Errorf("%s:%d: verdict %q is not one of true, debatable, false, missed, fixed", name, line, j.Verdict)
		}
		if j.Check == "" || j.Category == "" || j.Repository == "" || j.File == "" || strings.TrimSpace(j.Why) == "" {
			return nil, fmt.Errorf("%s:%d: check, category, repository, file and why must not be empty", name, line)
		}
		if c, _, _ := strings.Cut(j.Category, "/"); c != j.Check {
			return nil, fmt.Errorf("%s:%d: category %s is not of check %s", name, line, j.Category, j.Check)
		}
		if j.Verdict != verdictMissed || fingerprintRE.MatchString(j.Locator) {
			k := strings.Join([]string{j.Category, j.Repository, j.File, j.Locator}, "\x00")
			if prev, ok := seen[k]; ok {
				// Identical texts in one file get different fingerprints
				// (their rank is hashed too), so a repeated key is a mistake.
				return nil, fmt.Errorf("%s:%d: the same finding is judged on line %d", name, line, prev)
			}
			seen[k] = line
		}
		list = append(list, j)
	}
	return list, nil
}

// findingKey is what a finding and a judgement are matched on.
type findingKey struct{ category, repository, file, fingerprint string }

func (j *judgement) key() findingKey {
	return findingKey{j.Category, j.Repository, j.File, j.Locator}
}

func (f *finding) key(repository string) findingKey {
	return findingKey{f.Category, repository, f.File, f.Fingerprint}
}

// tsvRow renders a finding as a judged.tsv row with the verdict left for
// somebody to fill in.
func (f *finding) tsvRow(repository string) string {
	return strings.Join([]string{"?", f.Check, f.Category, repository, f.File, f.Fingerprint, strconv.Itoa(f.Line), oneLine(f.Message)}, "\t")
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
