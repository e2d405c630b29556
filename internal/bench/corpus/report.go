package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// checks lists the suite's checks in the order the tables show them.
var checks = []string{"chansize", "unboundedqueue", "retrysend", "resolverpool", "waittiming"}

// tally counts one check's (or all checks') results.
type tally struct {
	findings, fixes               int
	isTrue, debatable, isFalse    int
	unjudged, missed, possiblyNow int
}

// recall is true found ÷ (true found + still missed), as a percentage string.
func (t *tally) recall() string {
	if t.isTrue+t.missed == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%% (%d/%d)", 100*float64(t.isTrue)/float64(t.isTrue+t.missed), t.isTrue, t.isTrue+t.missed)
}

func (t *tally) fixCoverage() string {
	if t.findings == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%% (%d/%d)", 100*float64(t.fixes)/float64(t.findings), t.fixes, t.findings)
}

type located struct {
	repository string
	f          *finding
}

type report struct {
	rules    ruleCounts // how often each named rule kept a candidate quiet
	judged   []*judgement
	byKey    map[findingKey]*judgement
	services []*serviceResult
	byCheck  map[string]*tally
	all      tally
	lines    int
	gen      int

	unjudged      []located    // findings without a verdict
	gone          []*judgement // judged findings of services that ran, not reported this time
	foundMisses   []*judgement // misses whose fingerprint a finding now has
	back          []*judgement // fixed false alarms reported again
	possiblyFound []struct {
		miss *judgement
		at   located
	}
	failures []string
}

func newReport(judged []*judgement) *report {
	r := &report{judged: judged, byKey: make(map[findingKey]*judgement), byCheck: make(map[string]*tally)}
	for _, j := range judged {
		if j.Verdict != verdictMissed {
			r.byKey[j.key()] = j
		}
	}
	for _, c := range checks {
		r.byCheck[c] = new(tally)
	}
	return r
}

func (r *report) tally(check string) *tally {
	t := r.byCheck[check]
	if t == nil {
		t = new(tally)
		r.byCheck[check] = t
	}
	return t
}

// add matches a service's findings with the verdicts and counts them.
func (r *report) add(s *service, sr *serviceResult) {
	r.services = append(r.services, sr)
	r.rules.add(sr)
	matched := make(map[*judgement]bool)
	var all []*finding
	for i := range sr.Modules {
		mr := &sr.Modules[i]
		r.lines += mr.Lines
		r.gen += mr.GeneratedLines
		if mr.Error != "" {
			r.failures = append(r.failures, fmt.Sprintf("%s %s (exit %d): %s", s.Name, mr.Dir, mr.Exit, mr.Error))
		}
		if mr.Fixes != nil && mr.Fixes.Build != "ok" {
			r.failures = append(r.failures, fmt.Sprintf("%s %s: the fixed packages do not build: %s", s.Name, mr.Dir, mr.Fixes.Build))
		}
		for k := range mr.Findings {
			f := &mr.Findings[k]
			all = append(all, f)
			t := r.tally(f.Check)
			for _, t := range []*tally{t, &r.all} {
				t.findings++
				if f.Fix {
					t.fixes++
				}
			}
			j := r.byKey[f.key(s.Repository)]
			if j == nil {
				// A miss recorded by fingerprint that a check now reports.
				for _, m := range r.judged {
					if m.Verdict == verdictMissed && m.key() == f.key(s.Repository) {
						r.foundMisses = append(r.foundMisses, m)
						matched[m] = true
					}
				}
				r.unjudged = append(r.unjudged, located{s.Repository, f})
				t.unjudged++
				r.all.unjudged++
				continue
			}
			matched[j] = true
			f.Verdict, f.Why = j.Verdict, j.Why
			if j.Verdict == verdictFixed {
				r.back = append(r.back, j) // a false alarm again
			}
			for _, t := range []*tally{t, &r.all} {
				switch j.Verdict {
				case verdictTrue:
					t.isTrue++
				case verdictDebatable:
					t.debatable++
				case verdictFalse, verdictFixed:
					t.isFalse++
				}
			}
		}
	}
	for _, j := range r.judged {
		if j.Repository != s.Repository {
			continue
		}
		if j.Verdict == verdictFixed {
			continue // gone, as it should be
		}
		if j.Verdict != verdictMissed {
			if !matched[j] {
				r.gone = append(r.gone, j)
			}
			continue
		}
		status := "missed"
		if matched[j] {
			status = "found"
		} else {
			for _, f := range all {
				if strings.HasPrefix(j.Locator, "func:") && f.Check == j.Check && f.File == j.File && f.Function != "" && "func:"+f.Function == j.Locator {
					r.possiblyFound = append(r.possiblyFound, struct {
						miss *judgement
						at   located
					}{j, located{s.Repository, f}})
					status = "possibly found"
				}
			}
		}
		sr.Missed = append(sr.Missed, missRow{Check: j.Check, Category: j.Category, File: j.File, Locator: j.Locator, Why: j.Why, Status: status})
		if status != "found" {
			// Until somebody judges the finding, the miss stands.
			r.tally(j.Check).missed++
			r.all.missed++
		}
		if status == "possibly found" {
			r.tally(j.Check).possiblyNow++
			r.all.possiblyNow++
		}
	}
}

func (r *report) failed() bool { return len(r.failures) > 0 || len(r.back) > 0 }

func (r *report) exitCode() int {
	switch {
	case r.failed():
		return exitFailure
	case len(r.unjudged) > 0 || len(r.gone) > 0:
		return exitUnjudged
	}
	return exitOK
}

// write prints the report as Markdown: the tables docs/corpus/README.md
// holds, then what needs somebody's attention.
func (r *report) write(w io.Writer) {
	fmt.Fprintf(w, "### Per check\n\n")
	fmt.Fprintf(w, "| check | findings | true | debatable | false | unjudged | missed | recall | fix coverage |\n")
	fmt.Fprintf(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	row := func(name string, t *tally) {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %d | %s | %s |\n", name, t.findings, t.isTrue, t.debatable, t.isFalse, t.unjudged, t.missed, t.recall(), t.fixCoverage())
	}
	names := slices.Clone(checks)
	for c := range r.byCheck {
		if !slices.Contains(names, c) {
			names = append(names, c) // directive findings, a new check
		}
	}
	for _, c := range names {
		row(c, r.byCheck[c])
	}
	row("**all**", &r.all)
	fmt.Fprintf(w, "\nLines of production code analyzed (non-test, non-generated): %s (and %s generated lines, analyzed but never reported).\n", thousands(r.lines), thousands(r.gen))
	rate := 0.0
	if r.lines > 0 {
		rate = float64(r.all.isFalse) * 500000 / float64(r.lines)
	}
	fmt.Fprintf(w, "False alarms: %d judged false, %d unjudged; %.2f false per 500,000 lines.\n", r.all.isFalse, r.all.unjudged, rate)
	var verdicts, misses, fixed int
	for _, j := range r.judged {
		switch j.Verdict {
		case verdictMissed:
			misses++
		case verdictFixed:
			fixed++
		default:
			verdicts++
		}
	}
	fmt.Fprintf(w, "Judged rows: %d (%d findings, %d misses, %d false alarms since fixed, %d of them back).\n", len(r.judged), verdicts, misses, fixed, len(r.back))
	if r.all.possiblyNow > 0 {
		fmt.Fprintf(w, "Misses with a finding in their function now (counted as missed until judged): %d.\n", r.all.possiblyNow)
	}

	fmt.Fprintf(w, "\n### Per service\n\n")
	fmt.Fprintf(w, "| service | kind | modules | packages | lines | findings | wall | peak RSS |\n")
	fmt.Fprintf(w, "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	var wall float64
	var rss int64
	var pkgs, findings int
	for _, s := range r.services {
		var sw float64
		var srss int64
		var sp, sl, sf int
		for _, m := range s.Modules {
			sw += m.Wall
			srss = max(srss, m.PeakRSSKiB)
			sp += m.Packages
			sl += m.Lines
			sf += len(m.Findings)
		}
		wall += sw
		rss = max(rss, srss)
		pkgs += sp
		findings += sf
		fmt.Fprintf(w, "| %s | %s | %d | %d | %s | %d | %s | %s |\n", s.Service, s.Kind, len(s.Modules), sp, thousands(sl), sf, seconds(sw), mib(srss))
	}
	fmt.Fprintf(w, "| **total** | | | %d | %s | %d | %s | %s (max) |\n", pkgs, thousands(r.lines), findings, seconds(wall), mib(rss))

	if lines := fixLines(r.services); len(lines) > 0 {
		fmt.Fprintf(w, "\n### Fixes applied on real code (-fixcheck)\n\n")
		fmt.Fprintf(w, "| service | module | fixes applied | left out (overlap) | fixed packages build |\n| --- | --- | ---: | ---: | --- |\n")
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
	r.rules.write(w)

	if len(r.failures) > 0 {
		fmt.Fprintf(w, "\n### Modules that failed\n\n")
		for _, f := range r.failures {
			fmt.Fprintf(w, "- %s\n", strings.ReplaceAll(f, "\n", "\n  "))
		}
	}
	if len(r.unjudged) > 0 {
		fmt.Fprintf(w, "\n### Unjudged findings: add them to judged.tsv with a verdict (true, debatable, false) and why\n\n```\n")
		for _, u := range r.unjudged {
			fmt.Fprintln(w, u.f.tsvRow(u.repository))
		}
		fmt.Fprintf(w, "```\n")
	}
	if len(r.gone) > 0 {
		fmt.Fprintf(w, "\n### Judged findings no longer reported (a true one lost is a recall regression; else remove the row)\n\n")
		for _, j := range r.gone {
			fmt.Fprintf(w, "- judged.tsv:%d %s %s %s %s:%d (%s)\n", j.row, j.Verdict, j.Category, j.Repository, j.File, j.Line, j.Why)
		}
	}
	if len(r.back) > 0 {
		fmt.Fprintf(w, "\n### False alarms that were fixed, reported again (a precision regression)\n\n")
		for _, j := range r.back {
			fmt.Fprintf(w, "- judged.tsv:%d %s %s %s:%d (%s)\n", j.row, j.Category, j.Repository, j.File, j.Line, j.Why)
		}
	}
	if len(r.foundMisses) > 0 {
		fmt.Fprintf(w, "\n### Misses found now (their fingerprint matched a finding: make the row a verdict)\n\n")
		for _, j := range r.foundMisses {
			fmt.Fprintf(w, "- judged.tsv:%d %s %s %s (%s)\n", j.row, j.Category, j.Repository, j.File, j.Why)
		}
	}
	if len(r.possiblyFound) > 0 {
		fmt.Fprintf(w, "\n### Misses possibly found now: a finding of the same check sits in the miss's function; check the verdict\n\n")
		for _, p := range r.possiblyFound {
			fmt.Fprintf(w, "- judged.tsv:%d %s %s (%s)\n  finding %s:%d: %s\n", p.miss.row, p.miss.Repository, p.miss.Locator, p.miss.Why, p.at.f.File, p.at.f.Line, p.at.f.Message)
		}
	}
}

// fixLines returns a table row per module whose fixes were checked.
func fixLines(services []*serviceResult) []string {
	var out []string
	for _, s := range services {
		for _, m := range s.Modules {
			if m.Fixes == nil {
				continue
			}
			build := m.Fixes.Build
			if build != "ok" {
				build = "**fails**: " + strings.ReplaceAll(oneLine(build), "|", "\\|")
			}
			out = append(out, fmt.Sprintf("| %s | %s | %d | %d | %s |", s.Service, m.Dir, m.Fixes.Applied, m.Fixes.Skipped, build))
		}
	}
	return out
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func seconds(s float64) string {
	if r := int(s + 0.5); r >= 60 {
		return fmt.Sprintf("%dm%02ds", r/60, r%60)
	}
	return fmt.Sprintf("%.1fs", s)
}

func mib(kib int64) string { return fmt.Sprintf("%d MiB", kib/1024) }

// ruleCounts counts the silences of each named rule, by "check/rule".
type ruleCounts map[string]int

func (rc *ruleCounts) add(sr *serviceResult) {
	if *rc == nil {
		*rc = make(ruleCounts)
	}
	for _, m := range sr.Modules {
		for _, s := range m.Silences {
			(*rc)[s.Check+"/"+s.Rule]++
		}
	}
}

// write prints how often each rule fired, by check in the suite's order,
// the most frequent first.
func (rc ruleCounts) write(w io.Writer) {
	fmt.Fprintf(w, "\n### Why candidates were not reported (-why all)\n\n")
	fmt.Fprintf(w, "| check | rule | candidates silenced |\n| --- | --- | ---: |\n")
	for _, k := range rc.sorted() {
		check, rule, _ := strings.Cut(k, "/")
		fmt.Fprintf(w, "| %s | %s | %d |\n", check, rule, rc[k])
	}
}

// sorted returns the keys by check in the suite's order, then by count,
// highest first, then by name.
func (rc ruleCounts) sorted() []string {
	var keys []string
	for k := range rc {
		keys = append(keys, k)
	}
	checkIndex := func(k string) int {
		c, _, _ := strings.Cut(k, "/")
		if i := slices.Index(checks, c); i >= 0 {
			return i
		}
		return len(checks)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if d := checkIndex(a) - checkIndex(b); d != 0 {
			return d
		}
		if d := rc[b] - rc[a]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return keys
}
