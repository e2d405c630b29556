package main

import (
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The census is the blind measurement: judged sites, not judged findings.
// Reviewers who never saw the suite's output read whole packages of a
// service and judge every candidate site of the five checks (every buffered
// make(chan), queue append, go statement in a loop or handler, non-blocking
// send, pool, timestamp or deadline near a wait). The suite is then run on
// exactly those packages and its findings are matched to the sites by file
// and line, so recall is counted over every hazard in the code, not over the
// misses someone happened to notice. The services are split: tune services
// may be read to write rules, holdout services are only scored.

// Splits of census-services.tsv.
const (
	splitTune    = "tune"
	splitHoldout = "holdout"
	// splitHoldout2: services judged after the holdout had been scored
	// against a round of rules. A holdout's first score is its only
	// unbiased one; this split keeps the next round's apart from it.
	splitHoldout2 = "holdout2"
	// splitHoldout3: services judged blind after the holdout had been
	// scored seven times in one round, so that the next round has a split
	// whose first score is unbiased again.
	splitHoldout3 = "holdout3"
	// splitTuneWaittiming: tune services whose reviewers read the timing
	// sites alone (measurements and deadlines), judged blind for a round
	// on waittiming. Only waittiming's findings and silences are scored
	// there: the other checks' sites were not read, so their findings
	// would be on no site, or on a timing site by chance.
	splitTuneWaittiming = "tune-waittiming"
	// splitTuneWaittiming2: a second such split, judged blind after the
	// first had been read and cut down to rules for two rounds while the
	// holdout's timing hazards stayed unfound: services of the holdout's
	// kinds (clients of brokers, a game server, a service mesh), read for
	// shapes the first split did not have.
	splitTuneWaittiming2 = "tune-waittiming2"
	// splitHoldoutWaittiming: services judged blind for their timing sites
	// alone, as the tune-waittiming splits were, but only scored, never
	// read: after the holdout was cleaned of services read before, three of
	// its timing hazards were left, too few for a share to mean much.
	splitHoldoutWaittiming = "holdout-waittiming"
	// splitTuneWaittiming3: a third timing-only tune split, judged blind
	// when the holdouts held four timing hazards and the suite found none:
	// services heavy in pools, limiters and timed calls (a workflow
	// engine's task lists, a time-series database's engine, a sharded
	// database's pools, a search client's bulk indexer), read for the shapes
	// the suite misses so that the rules cut from them can be scored on
	// the holdouts they never saw.
	splitTuneWaittiming3 = "tune-waittiming3"
	// splitTuneWaittiming4: a fourth timing-only tune split, judged blind
	// after a fact for waits at any depth found one holdout timing hazard
	// more and flagged 21 fine sites more, when tune had shown no such
	// cost: services whose figures reach shared queues and backoffs deep
	// down (a storage client's region requests and batch RPCs, a
	// blockchain node's sync and peer-to-peer layers), so that tune can
	// show what a rule of that reach costs before the holdouts do. Two
	// holdout-waittiming services whose rows were seen by the one who runs
	// the suite (an unfiltered grep) were moved here too: a holdout once
	// looked at is tune.
	splitTuneWaittiming4 = "tune-waittiming4"
)

var splits = []string{splitTune, splitHoldout, splitHoldout2, splitHoldout3, splitTuneWaittiming, splitTuneWaittiming2, splitTuneWaittiming3, splitTuneWaittiming4, splitHoldoutWaittiming}

// timingOnly reports whether split's reviewers read the timing sites alone.
func timingOnly(split string) bool {
	return split == splitTuneWaittiming || split == splitTuneWaittiming2 || split == splitTuneWaittiming3 || split == splitTuneWaittiming4 || split == splitHoldoutWaittiming
}

// scored reports whether a finding or silence of check counts in split.
func scored(split, check string) bool {
	return !timingOnly(split) || check == "waittiming"
}

// readable reports whether the sites of split may be listed and read:
// the tune splits'.
func readable(split string) bool {
	return split == splitTune || split == splitTuneWaittiming || split == splitTuneWaittiming2 || split == splitTuneWaittiming3 || split == splitTuneWaittiming4
}

// Verdicts of census.tsv.
const (
	siteHazard    = "hazard"
	siteFine      = "fine"
	siteDebatable = "debatable"
)

// Origins of census.tsv: how a site came to be judged.
const (
	// originBlind: found by reading the package, judged without the suite's
	// output.
	originBlind = "blind"
	// originFinding: a finding of the suite that lay on no blind site,
	// judged after the run so that every finding in a census package has a
	// verdict. Such sites count like the others, and are told apart so that
	// a reader can see how much of the census the suite itself suggested.
	originFinding = "finding"
)

// censusServicesColumns are census-services.tsv's columns: services.tsv's
// with the split after the service.
var censusServicesColumns = []string{"service", "split", "kind", "repository", "commit", "module", "patterns"}

// censusColumns are census.tsv's columns, in order.
var censusColumns = []string{"id", "service", "file", "line", "location", "check", "verdict", "origin", "why"}

// nearLines is how far from a line a site names a finding may lie and still
// be on the site: a finding reports the make, the append or the go
// statement, a reviewer may name the line of the call or the loop above.
const nearLines = 3

// A lineRange is a span of lines of one file, both ends included.
type lineRange struct {
	file     string
	from, to int
}

// A site is one row of census.tsv.
type site struct {
	ID       string
	Service  string
	File     string // relative to the repository root
	Line     int
	Location string // the line and related lines, as the reviewer wrote them
	Check    string
	Verdict  string
	Origin   string
	Why      string

	lines []lineRange // Line and every line Location names
	row   int         // line number in its file
}

// readSites reads the judged sites of the tune splits from tune and those
// of the holdout splits from holdout, and checks that each row is in the
// file its service's split names and that each service is listed. The
// holdout's rows live in a file of their own, compressed, because a plain
// search of one shared file showed holdout rows to the one who runs the
// suite four times. With holdout empty, every row is read from tune.
func readSites(tune, holdout string, services []*service) ([]*site, error) {
	sites, err := readCensus(tune)
	if err != nil {
		return nil, err
	}
	var held []*site
	if holdout != "" {
		if held, err = readCensus(holdout); err != nil {
			return nil, err
		}
	}
	ids := make(map[string]*site)
	for i, st := range slices.Concat(sites, held) {
		name, inHoldout := tune, i >= len(sites)
		if inHoldout {
			name = holdout
		}
		if prev, ok := ids[st.ID]; ok && inHoldout {
			return nil, fmt.Errorf("%s:%d: id %s is used in %s too, on line %d", name, st.row, st.ID, tune, prev.row)
		}
		ids[st.ID] = st
		at := slices.IndexFunc(services, func(s *service) bool { return s.Name == st.Service })
		if at < 0 {
			return nil, fmt.Errorf("%s:%d: service %q is not a census service", name, st.row, st.Service)
		}
		if holdout == "" {
			continue
		}
		switch split := services[at].Split; {
		case readable(split) && inHoldout:
			return nil, fmt.Errorf("%s:%d: service %s is in split %s: its rows belong in %s", name, st.row, st.Service, split, tune)
		case !readable(split) && !inHoldout:
			return nil, fmt.Errorf("%s:%d: service %s is in split %s: its rows belong in %s, out of sight", name, st.row, st.Service, split, holdout)
		}
	}
	return slices.Concat(sites, held), nil
}

// readCensus reads one file of judged sites (census.tsv's columns).
func readCensus(name string) ([]*site, error) {
	rows, err := readTSV(name, censusColumns)
	if err != nil {
		return nil, err
	}
	var list []*site
	ids := make(map[string]int)
	for _, r := range rows {
		line, cols := r.line, r.cols
		s := &site{ID: cols[0], Service: cols[1], File: cols[2], Location: cols[4], Check: cols[5], Verdict: cols[6], Origin: cols[7], Why: cols[8], row: line}
		if s.ID == "" || s.Service == "" || s.File == "" || strings.TrimSpace(s.Why) == "" {
			return nil, fmt.Errorf("%s:%d: id, service, file and why must not be empty", name, line)
		}
		if prev, ok := ids[s.ID]; ok {
			return nil, fmt.Errorf("%s:%d: id %s is used on line %d too", name, line, s.ID, prev)
		}
		ids[s.ID] = line
		if s.Line, err = strconv.Atoi(cols[3]); err != nil || s.Line <= 0 {
			return nil, fmt.Errorf("%s:%d: line %q is not a line number", name, line, cols[3])
		}
		if !slices.Contains(checks, s.Check) {
			return nil, fmt.Errorf("%s:%d: check %q is not one of %s", name, line, s.Check, strings.Join(checks, ", "))
		}
		switch s.Verdict {
		case siteHazard, siteFine, siteDebatable:
		default:
			return nil, fmt.Errorf("%s:%d: verdict %q is not one of hazard, fine, debatable", name, line, s.Verdict)
		}
		switch s.Origin {
		case originBlind, originFinding:
		default:
			return nil, fmt.Errorf("%s:%d: origin %q is not one of blind, finding", name, line, s.Origin)
		}
		s.lines = append([]lineRange{{s.File, s.Line, s.Line}}, parseLocation(s.File, s.Location)...)
		list = append(list, s)
	}
	return list, nil
}

// locationRef is a line reference in a location: "file.go:12", ":12",
// "file.go:12-20", ":12-20"; or, right after one and a comma, a bare line
// or range continuing its list: the 1330-1334 of "x.go:1317,1330-1334".
var locationRef = regexp.MustCompile(`(?:([\w./-]+\.go)?:|,[ \t]*)(\d+)(?:-(\d+))?`)

// parseLocation returns the lines a location names. A reference without a
// file is in the file of the reference before it, the site's file first; a
// file named by its base name alone, when that is the site's file's, is
// the site's file.
// Anything else (a constant's value, a note in parentheses) is not a line.
func parseLocation(file, location string) []lineRange {
	var out []lineRange
	cur := file
	end := -1 // where the last reference ended
	for _, m := range locationRef.FindAllStringSubmatchIndex(location, -1) {
		continued := location[m[0]] == ','
		if continued && m[0] != end {
			// A comma before a number that continues no list: a note's
			// "(const :7, 128)" is not a line.
			continue
		}
		end = m[1]
		if m[2] >= 0 {
			cur = location[m[2]:m[3]]
			if !strings.Contains(cur, "/") && cur == path.Base(file) {
				cur = file // "status.go:98" of the site's own internal/k8s/status.go
			}
		}
		from, _ := strconv.Atoi(location[m[4]:m[5]])
		to := from
		if m[6] >= 0 {
			to, _ = strconv.Atoi(location[m[6]:m[7]])
		}
		if to < from {
			from, to = to, from
		}
		out = append(out, lineRange{cur, from, to})
	}
	return out
}

// distance returns how many lines from the site a position in file at line
// lies, and whether it is within nearLines of a line the site names.
func (s *site) distance(file string, line int) (int, bool) {
	best, ok := 0, false
	for _, r := range s.lines {
		if r.file != file {
			continue
		}
		d := 0
		switch {
		case line < r.from:
			d = r.from - line
		case line > r.to:
			d = line - r.to
		}
		if d <= nearLines && (!ok || d < best) {
			best, ok = d, true
		}
	}
	return best, ok
}

// nearest returns the sites of sites that a position is on: those nearest to
// it among the ones within nearLines (several only when they tie), so that
// a finding between two neighbouring sites counts on the one it reports.
func nearest(sites []*site, file string, line int) []*site {
	var out []*site
	best := nearLines + 1
	for _, s := range sites {
		d, ok := s.distance(file, line)
		switch {
		case !ok || d > best:
		case d < best:
			best, out = d, []*site{s}
		default:
			out = append(out, s)
		}
	}
	return out
}

// censusTally counts one check's sites (or all checks') of one split.
type censusTally struct {
	sites                         int
	hazards, fine, debatable      int
	hazardsFound, fineFlagged     int
	debatableFlagged              int
	findings, onNoSite, fromFinds int
	blindHazards, blindFound      int // hazards of origin blind, and those found
}

// count adds the site c, flagged by some finding when hit.
func (t *censusTally) count(c *site, hit bool) {
	t.sites++
	if c.Origin == originFinding {
		t.fromFinds++
	}
	switch c.Verdict {
	case siteHazard:
		t.hazards++
		if hit {
			t.hazardsFound++
		}
		if c.Origin == originBlind {
			t.blindHazards++
			if hit {
				t.blindFound++
			}
		}
	case siteFine:
		t.fine++
		if hit {
			t.fineFlagged++
		}
	case siteDebatable:
		t.debatable++
		if hit {
			t.debatableFlagged++
		}
	}
}

func (t *censusTally) recall() string { return percent(t.hazardsFound, t.hazards) }

func (t *censusTally) fineRate() string { return percent(t.fineFlagged, t.fine) }

func percent(n, of int) string {
	if of == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%% (%d/%d)", 100*float64(n)/float64(of), n, of)
}

// A censusReport scores the suite's results against census.tsv.
type censusReport struct {
	sites      []*site
	split      map[string]string // service → split
	services   []*serviceResult
	byKey      map[[2]string]*censusTally // {split, check}
	perService map[string]*censusTally
	flagged    map[*site][]*finding
	unjudged   []located
	failures   []string
	lines      map[string]int // split → lines analyzed

	rules    ruleCounts                           // every silence, by check/rule
	silenced map[string]map[string]map[*site]bool // split → check/rule → the sites it silenced
}

func newCensusReport(sites []*site, services []*service) *censusReport {
	r := &censusReport{
		sites:      sites,
		split:      make(map[string]string),
		byKey:      make(map[[2]string]*censusTally),
		perService: make(map[string]*censusTally),
		flagged:    make(map[*site][]*finding),
		lines:      make(map[string]int),

		silenced: make(map[string]map[string]map[*site]bool),
	}
	for _, s := range services {
		r.split[s.Name] = s.Split
	}
	return r
}

// service returns the tally of one service's sites and findings.
func (r *censusReport) service(name string) *censusTally {
	t := r.perService[name]
	if t == nil {
		t = new(censusTally)
		r.perService[name] = t
	}
	return t
}

func (r *censusReport) tally(split, check string) *censusTally {
	k := [2]string{split, check}
	t := r.byKey[k]
	if t == nil {
		t = new(censusTally)
		r.byKey[k] = t
	}
	return t
}

// add matches a service's findings with its sites. A finding is on the
// sites nearest its position; only when it lies on none do its related
// positions (the consumer, the wait, the task) count.
func (r *censusReport) add(s *service, sr *serviceResult) {
	r.services = append(r.services, sr)
	var mine []*site
	for _, c := range r.sites {
		if c.Service == s.Name {
			mine = append(mine, c)
		}
	}
	for i := range sr.Modules {
		mr := &sr.Modules[i]
		r.lines[s.Split] += mr.Lines
		if mr.Error != "" {
			r.failures = append(r.failures, fmt.Sprintf("%s %s (exit %d): %s", s.Name, mr.Dir, mr.Exit, mr.Error))
		}
		for k := range mr.Findings {
			f := &mr.Findings[k]
			if !scored(s.Split, f.Check) {
				continue
			}
			on := nearest(mine, f.File, f.Line)
			for _, rel := range f.Related {
				if len(on) > 0 {
					break
				}
				on = nearest(mine, rel.File, rel.Line)
			}
			for _, t := range []*censusTally{r.tally(s.Split, f.Check), r.tally(s.Split, ""), r.service(s.Name)} {
				t.findings++
				if len(on) == 0 {
					t.onNoSite++
				}
			}
			if len(on) == 0 {
				r.unjudged = append(r.unjudged, located{s.Name, f})
			}
			for _, c := range on {
				r.flagged[c] = append(r.flagged[c], f)
			}
		}
	}
	r.rules.add(sr)
	for i := range sr.Modules {
		for _, sl := range sr.Modules[i].Silences {
			if !scored(s.Split, sl.Check) {
				continue
			}
			// A silence is on a site by the rule that puts a finding there:
			// the sites nearest its line.
			on := nearest(mine, sl.File, sl.Line)
			if len(on) == 0 {
				continue
			}
			byRule := r.silenced[s.Split]
			if byRule == nil {
				byRule = make(map[string]map[*site]bool)
				r.silenced[s.Split] = byRule
			}
			k := sl.Check + "/" + sl.Rule
			if byRule[k] == nil {
				byRule[k] = make(map[*site]bool)
			}
			for _, c := range on {
				byRule[k][c] = true
			}
		}
	}
	per := r.service(s.Name)
	for _, c := range mine {
		hit := len(r.flagged[c]) > 0
		for _, t := range []*censusTally{r.tally(s.Split, c.Check), r.tally(s.Split, ""), per} {
			t.count(c, hit)
		}
	}
}

func (r *censusReport) exitCode() int {
	switch {
	case len(r.failures) > 0:
		return exitFailure
	case len(r.unjudged) > 0:
		return exitUnjudged
	}
	return exitOK
}

// write prints the census tables per split, then what needs somebody:
// findings on no site (to judge), and for the tune split only, the hazards
// missed and the fine sites flagged. The holdout's are counted, never
// listed: a rule written from a holdout miss would make its number
// meaningless.
func (r *censusReport) write(w io.Writer) {
	for _, split := range splits {
		var names []string
		for _, sr := range r.services {
			if r.split[sr.Service] == split {
				names = append(names, sr.Service)
			}
		}
		if len(names) == 0 {
			continue
		}
		all := r.tally(split, "")
		fmt.Fprintf(w, "### Census, %s split: %d services, %d sites, %d hazards\n\n", split, len(names), all.sites, all.hazards)
		fmt.Fprintf(w, "| check | sites | hazards | found | recall | fine | fine flagged | debatable | debatable flagged | findings | on no site |\n")
		fmt.Fprintf(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		row := func(name string, t *censusTally) {
			fmt.Fprintf(w, "| %s | %d | %d | %d | %s | %d | %d | %d | %d | %d | %d |\n",
				name, t.sites, t.hazards, t.hazardsFound, t.recall(), t.fine, t.fineFlagged, t.debatable, t.debatableFlagged, t.findings, t.onNoSite)
		}
		for _, c := range checks {
			row(c, r.tally(split, c))
		}
		row("**all**", all)
		fmt.Fprintf(w, "\nHazards found: %s; of the hazards found by reading (origin `blind`), %s. Fine sites flagged: %s. Services: %s. Lines of production code analyzed: %s. Sites judged from a finding after the run (origin `finding`): %d.\n\n",
			all.recall(), percent(all.blindFound, all.blindHazards), all.fineRate(), strings.Join(names, ", "), thousands(r.lines[split]), all.fromFinds)
	}

	r.writeHoldouts(w)

	fmt.Fprintf(w, "### Census per service\n\n")
	fmt.Fprintf(w, "| service | split | kind | packages | lines | sites | hazards | found | fine | fine flagged | findings | on no site |\n")
	fmt.Fprintf(w, "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, sr := range r.services {
		var pkgs, lines int
		for _, m := range sr.Modules {
			pkgs += m.Packages
			lines += m.Lines
		}
		t := r.service(sr.Service)
		fmt.Fprintf(w, "| %s | %s | %s | %d | %s | %d | %d | %d | %d | %d | %d | %d |\n",
			sr.Service, r.split[sr.Service], sr.Kind, pkgs, thousands(lines), t.sites, t.hazards, t.hazardsFound, t.fine, t.fineFlagged, t.findings, t.onNoSite)
	}

	r.rules.write(w)
	r.writeSilenced(w)

	if len(r.failures) > 0 {
		fmt.Fprintf(w, "\n### Modules that failed\n\n")
		for _, f := range r.failures {
			fmt.Fprintf(w, "- %s\n", strings.ReplaceAll(f, "\n", "\n  "))
		}
	}
	if len(r.unjudged) > 0 {
		fmt.Fprintf(w, "\n### Findings on no site: judge each (read the code) and add it, with origin `finding`, to census.tsv (a tune service) or census-holdout.tsv.gz (a holdout service: by a reviewer who never runs the suite)\n\n```\n")
		for _, u := range r.unjudged {
			f := u.f
			fmt.Fprintln(w, strings.Join([]string{"?", u.repository, f.File, strconv.Itoa(f.Line), fmt.Sprintf("%s:%d", f.File, f.Line), f.Check, "?", originFinding, oneLine(f.Message)}, "\t"))
		}
		fmt.Fprintf(w, "```\n")
	}
	var missed, flaggedFine []*site
	for _, c := range r.sites {
		if !readable(r.split[c.Service]) || !r.ran(c.Service) {
			continue
		}
		switch hit := len(r.flagged[c]) > 0; {
		case c.Verdict == siteHazard && !hit:
			missed = append(missed, c)
		case c.Verdict == siteFine && hit:
			flaggedFine = append(flaggedFine, c)
		}
	}
	if len(flaggedFine) > 0 {
		fmt.Fprintf(w, "\n### Fine sites flagged (tune split): false alarms, each a negative case before its fix\n\n")
		for _, c := range flaggedFine {
			for _, f := range r.flagged[c] {
				fmt.Fprintf(w, "- %s %s %s:%d: %s\n  finding %s:%d %s: %s\n", c.ID, c.Check, c.File, c.Line, c.Why, f.File, f.Line, f.Category, f.Message)
			}
		}
	}
	if len(missed) > 0 {
		fmt.Fprintf(w, "\n### Hazards missed (tune split; the holdout's are never listed)\n\n")
		for _, c := range missed {
			fmt.Fprintf(w, "- %s %s %s %s: %s\n", c.ID, c.Service, c.Check, c.Location, c.Why)
		}
	}
}

// writeHoldouts prints the holdout splits summed, when more than one ran:
// the issues' targets are shares over every holdout site, and adding the
// tables by hand is where a number goes wrong. A timing-only split adds
// its waittiming sites alone, as its own table counts them.
func (r *censusReport) writeHoldouts(w io.Writer) {
	var ran []string
	services := 0
	for _, split := range splits {
		if readable(split) {
			continue
		}
		n := 0
		for _, sr := range r.services {
			if r.split[sr.Service] == split {
				n++
			}
		}
		if n > 0 {
			ran = append(ran, split)
			services += n
		}
	}
	if len(ran) < 2 {
		return
	}
	sum := func(check string) *censusTally {
		var t censusTally
		for _, split := range ran {
			t.add(r.tally(split, check))
		}
		return &t
	}
	all := sum("")
	fmt.Fprintf(w, "### Census, the holdout splits together (%s): %d services, %d sites, %d hazards\n\n", strings.Join(ran, ", "), services, all.sites, all.hazards)
	fmt.Fprintf(w, "| check | sites | hazards | found | recall | fine | fine flagged | fine flagged share | debatable | debatable flagged |\n")
	fmt.Fprintf(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	row := func(name string, t *censusTally) {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %s | %d | %d | %s | %d | %d |\n",
			name, t.sites, t.hazards, t.hazardsFound, t.recall(), t.fine, t.fineFlagged, t.fineRate(), t.debatable, t.debatableFlagged)
	}
	for _, c := range checks {
		row(c, sum(c))
	}
	row("**all**", all)
	fmt.Fprintln(w)
}

// add adds the counts of o to t.
func (t *censusTally) add(o *censusTally) {
	t.sites += o.sites
	t.hazards += o.hazards
	t.fine += o.fine
	t.debatable += o.debatable
	t.hazardsFound += o.hazardsFound
	t.fineFlagged += o.fineFlagged
	t.debatableFlagged += o.debatableFlagged
	t.findings += o.findings
	t.onNoSite += o.onNoSite
	t.fromFinds += o.fromFinds
	t.blindHazards += o.blindHazards
	t.blindFound += o.blindFound
}

// ran reports whether the run covered the service.
func (r *censusReport) ran(service string) bool {
	return slices.ContainsFunc(r.services, func(sr *serviceResult) bool { return sr.Service == service })
}

// writeSilenced prints, per split, how many census sites of each verdict
// each rule silenced (a why-diagnostic on the site), and how many of the
// hazards it silenced no finding flagged. Counts only: the holdout's sites
// are never named.
func (r *censusReport) writeSilenced(w io.Writer) {
	for _, split := range splits {
		byRule := r.silenced[split]
		if len(byRule) == 0 {
			continue
		}
		counts := make(ruleCounts)
		for k, sites := range byRule {
			counts[k] = len(sites)
		}
		fmt.Fprintf(w, "\n### Census sites silenced by each rule, %s split\n\n", split)
		fmt.Fprintf(w, "| check | rule | sites | hazards | hazards missed | fine | debatable |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n")
		for _, k := range counts.sorted() {
			var hazards, missed, fine, debatable int
			for c := range byRule[k] {
				switch c.Verdict {
				case siteHazard:
					hazards++
					if len(r.flagged[c]) == 0 {
						missed++
					}
				case siteFine:
					fine++
				case siteDebatable:
					debatable++
				}
			}
			check, rule, _ := strings.Cut(k, "/")
			fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %d |\n", check, rule, counts[k], hazards, missed, fine, debatable)
		}
	}
}
