package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestCensusSmoke runs the census on the local fake service: a hazard on
// the finding's line, a fine site near it that the finding is not nearest
// to, a hazard found through a related position, a hazard missed, and a
// finding on no site.
func TestCensusSmoke(t *testing.T) {
	t.Setenv("GOPROXY", "off")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := config{
		checkouts: filepath.Join("testdata", "checkouts"),
		out:       t.TempDir(),
		census:    true,
		services:  filepath.Join("testdata", "census-services.tsv"),
		sites:     filepath.Join("testdata", "census.tsv"),
		timeout:   time.Minute,
		suite:     []string{self},
		progress:  new(bytes.Buffer),
	}
	rep, err := run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep.write(&out)
	t.Logf("report:\n%s", &out)
	if got := rep.exitCode(); got != exitUnjudged {
		t.Errorf("exit code %d, want %d: the replay finding is on no site", got, exitUnjudged)
	}
	for _, want := range []string{
		"### Census, tune split: 1 services, 4 sites, 3 hazards",
		"| chansize | 1 | 1 | 1 | 100% (1/1) | 0 | 0 | 0 | 0 | 2 | 1 |",
		"| retrysend | 1 | 0 | 0 | – | 1 | 0 | 0 | 0 | 0 | 0 |",
		"| unboundedqueue | 2 | 2 | 1 | 50% (1/2) | 0 | 0 | 0 | 0 | 1 | 0 |",
		"| **all** | 4 | 3 | 2 | 67% (2/3) | 1 | 0 | 0 | 0 | 3 | 1 |",
		"| fakesvc | tune | queue | 2 | ",
		"?\tfakesvc\taudit/audit.go\t17\taudit/audit.go:17\tchansize\t?\tfinding\tchannel buffer of 200000",
		"- F4 fakesvc unboundedqueue queue/queue.go:5: a hazard the suite misses",
		// Every silence, counted per rule; the census sites each rule
		// silenced, per split: the holdout's counted, never named.
		"| chansize | zero-size-element | 2 |",
		"| retrysend | coalescing-wakeup | 2 |",
		"### Census sites silenced by each rule, holdout split",
		"| chansize | zero-size-element | 1 | 0 | 0 | 1 | 0 |",
		"| retrysend | coalescing-wakeup | 1 | 1 | 1 | 0 | 0 |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(out.String(), "F5") || strings.Contains(out.String(), "F6") {
		t.Errorf("the report names a holdout site")
	}
	if strings.Contains(out.String(), "Census sites silenced by each rule, tune split") {
		t.Errorf("a tune site is silenced: the tune split's sites lie on no silence")
	}

	// -rejudge scores the results already written.
	c.rejudge, c.checkouts = true, ""
	again, err := run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	var out2 bytes.Buffer
	again.write(&out2)
	if out2.String() != out.String() {
		t.Errorf("-rejudge reported otherwise:\n%s", &out2)
	}
}

// TestCensusSplits checks the scoring rules on results made up in memory:
// related positions count only for a finding on no site, a finding counts on
// the nearest site, and the holdout's misses and false alarms are counted but
// never listed.
func TestCensusSplits(t *testing.T) {
	sites := []*site{
		{ID: "T1", Service: "a", File: "x.go", Line: 10, Check: "unboundedqueue", Verdict: siteHazard, Origin: originBlind},
		{ID: "T2", Service: "a", File: "x.go", Line: 30, Check: "waittiming", Verdict: siteFine, Origin: originBlind},
		{ID: "T3", Service: "a", File: "y.go", Line: 5, Check: "waittiming", Verdict: siteHazard, Origin: originBlind},
		{ID: "H1", Service: "b", File: "x.go", Line: 10, Check: "chansize", Verdict: siteHazard, Origin: originBlind},
		{ID: "H2", Service: "b", File: "x.go", Line: 50, Check: "chansize", Verdict: siteFine, Origin: originFinding},
		{ID: "H3", Service: "b", File: "x.go", Line: 90, Check: "retrysend", Verdict: siteDebatable, Origin: originBlind},
	}
	for _, s := range sites {
		s.lines = []lineRange{{s.File, s.Line, s.Line}}
	}
	sites[2].lines = append(sites[2].lines, parseLocation("y.go", "y.go:5, z.go:40-44")...)
	services := []*service{{Name: "a", Split: splitTune}, {Name: "b", Split: splitHoldout}}
	r := newCensusReport(sites, services)
	r.add(services[0], &serviceResult{Service: "a", Modules: []moduleResult{{Findings: []finding{
		// On T1, whose related position lies on T2: T2 stays unflagged.
		{Check: "unboundedqueue", File: "x.go", Line: 12, Related: []position{{"x.go", 30}}},
		// On no site but through its related position, within z.go's range of T3.
		{Check: "waittiming", File: "w.go", Line: 1, Related: []position{{"z.go", 46}}},
	}}}})
	r.add(services[1], &serviceResult{Service: "b", Modules: []moduleResult{{Findings: []finding{
		{Check: "chansize", File: "x.go", Line: 52},
		{Check: "retrysend", File: "x.go", Line: 70},
	}}}})
	tune, hold := r.tally(splitTune, ""), r.tally(splitHoldout, "")
	if want := (censusTally{sites: 3, hazards: 2, fine: 1, hazardsFound: 2, findings: 2, blindHazards: 2, blindFound: 2}); *tune != want {
		t.Errorf("tune: %+v, want %+v", *tune, want)
	}
	if want := (censusTally{sites: 3, hazards: 1, fine: 1, debatable: 1, fineFlagged: 1, findings: 2, onNoSite: 1, fromFinds: 1, blindHazards: 1}); *hold != want {
		t.Errorf("holdout: %+v, want %+v", *hold, want)
	}
	var out bytes.Buffer
	r.write(&out)
	for _, leak := range []string{"H1", "H2"} {
		if strings.Contains(out.String(), leak) {
			t.Errorf("the report names holdout site %s:\n%s", leak, &out)
		}
	}
	if !strings.Contains(out.String(), "?\tb\tx.go\t70\t") {
		t.Errorf("the holdout finding on no site is not listed for judging:\n%s", &out)
	}
}

func TestParseLocation(t *testing.T) {
	got := parseLocation("a/b.go", "a/b.go:12-14, :30 (const :7, max=128); c/d.go:5 and :9, see e.go; f.go:1,3-4,g.go:6, 8 (size 64, 7); b.go:40, :42")
	want := []lineRange{{"a/b.go", 12, 14}, {"a/b.go", 30, 30}, {"a/b.go", 7, 7}, {"c/d.go", 5, 5}, {"c/d.go", 9, 9},
		{"f.go", 1, 1}, {"f.go", 3, 4}, {"g.go", 6, 6}, {"g.go", 8, 8}, {"a/b.go", 40, 40}, {"a/b.go", 42, 42}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseLocation = %v, want %v", got, want)
	}
}

func TestReadCensusRejects(t *testing.T) {
	for what, row := range map[string]string{
		"bad verdict":   "S1\ts\tf.go\t3\tf.go:3\tchansize\tmaybe\tblind\twhy",
		"bad check":     "S1\ts\tf.go\t3\tf.go:3\tqueues\thazard\tblind\twhy",
		"bad origin":    "S1\ts\tf.go\t3\tf.go:3\tchansize\thazard\tguess\twhy",
		"no line":       "S1\ts\tf.go\t\tf.go:3\tchansize\thazard\tblind\twhy",
		"no why":        "S1\ts\tf.go\t3\tf.go:3\tchansize\thazard\tblind\t",
		"too few":       "S1\ts\tf.go\t3\tf.go:3\tchansize\thazard\tblind",
		"duplicated id": "S1\ts\tf.go\t3\tf.go:3\tchansize\thazard\tblind\twhy\nS1\ts\tg.go\t3\tg.go:3\tchansize\tfine\tblind\twhy",
	} {
		name := filepath.Join(t.TempDir(), "census.tsv")
		if err := os.WriteFile(name, []byte(strings.Join(censusColumns, "\t")+"\n"+row+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readCensus(name); err == nil {
			t.Errorf("%s: accepted %q", what, row)
		}
	}
	name := filepath.Join(t.TempDir(), "census-services.tsv")
	row := "s\tmaybe\tkind\tr\t0123456789abcdef0123456789abcdef01234567\t.\t./..."
	if err := os.WriteFile(name, []byte(strings.Join(censusServicesColumns, "\t")+"\n"+row+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readCensusServices(name); err == nil {
		t.Errorf("a split other than tune or holdout was accepted")
	}
}

// TestReadSitesKeepsHoldoutApart checks that the holdout's rows are read
// from their compressed file and that a row in the wrong file, or an id in
// both, is refused.
func TestReadSitesKeepsHoldoutApart(t *testing.T) {
	services := []*service{{Name: "t", Split: splitTune}, {Name: "h", Split: splitHoldoutWaittiming}}
	tuneRow := "T1\tt\tf.go\t3\tf.go:3\twaittiming\thazard\tblind\twhy"
	holdRow := "H1\th\tg.go\t4\tg.go:4\twaittiming\tfine\tblind\twhy"
	write := func(name, rows string) string {
		t.Helper()
		name = filepath.Join(t.TempDir(), name)
		data := []byte(strings.Join(censusColumns, "\t") + "\n" + rows + "\n")
		if strings.HasSuffix(name, ".gz") {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			if _, err := zw.Write(data); err != nil {
				t.Fatal(err)
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			data = buf.Bytes()
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	sites, err := readSites(write("census.tsv", tuneRow), write("holdout.tsv.gz", holdRow), services)
	if err != nil {
		t.Fatal(err)
	}
	if len(sites) != 2 || sites[0].ID != "T1" || sites[1].ID != "H1" || sites[1].Line != 4 {
		t.Errorf("read %d sites, want T1 from the tune file and H1 (line 4) from the compressed one", len(sites))
	}
	for what, files := range map[string][2]string{
		"a holdout row among the tune rows": {tuneRow + "\n" + holdRow, strings.Replace(holdRow, "H1", "H2", 1)},
		"a tune row among the holdout rows": {tuneRow, holdRow + "\n" + strings.Replace(tuneRow, "T1", "T2", 1)},
		"an id in both files":               {tuneRow, strings.Replace(holdRow, "H1", "T1", 1)},
		"a service no split lists":          {tuneRow, strings.Replace(holdRow, "\th\t", "\tx\t", 1)},
	} {
		if _, err := readSites(write("census.tsv", files[0]), write("holdout.tsv.gz", files[1]), services); err == nil {
			t.Errorf("%s: accepted", what)
		}
	}
	// Without a holdout file (the smoke test's census), every row is read
	// from the one file, wherever its split.
	if sites, err := readSites(write("census.tsv", tuneRow+"\n"+holdRow), "", services); err != nil || len(sites) != 2 {
		t.Errorf("one file: %d sites, error %v; want 2 and none", len(sites), err)
	}
}

// TestCensusFiles reads the project's own census: every row parses, every
// site belongs to a listed service, and every service has sites, so that
// a census run cannot fail on its input after an hour of checkouts.
func TestCensusFiles(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "docs", "corpus")
	services, err := readCensusServices(filepath.Join(dir, "census-services.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	sites, err := readSites(filepath.Join(dir, "census.tsv"), filepath.Join(dir, "census-holdout.tsv.gz"), services)
	if err != nil {
		t.Fatal(err)
	}
	bySvc := make(map[string]int)
	for _, s := range sites {
		bySvc[s.Service]++
	}
	listed := make(map[string]bool)
	for _, s := range services {
		listed[s.Name] = true
		if bySvc[s.Name] == 0 {
			t.Errorf("service %s (split %s) has no judged site", s.Name, s.Split)
		}
	}
	for name, n := range bySvc {
		if !listed[name] {
			t.Errorf("%d sites of service %s, which census-services.tsv does not list", n, name)
		}
	}
}

// TestCensusTimingOnly: a service of a tune-waittiming or holdout-waittiming
// split was read for its timing sites alone, so only waittiming's findings
// count there. The tune splits' misses are listed; the holdout's never are.
func TestCensusTimingOnly(t *testing.T) {
	for _, split := range []string{splitTuneWaittiming, splitTuneWaittiming2, splitTuneWaittiming3, splitHoldoutWaittiming} {
		sites := []*site{
			{ID: "W1", Service: "w", File: "x.go", Line: 10, Check: "waittiming", Verdict: siteFine, Origin: originBlind},
			{ID: "W2", Service: "w", File: "x.go", Line: 40, Check: "waittiming", Verdict: siteHazard, Origin: originBlind},
			{ID: "W3", Service: "w", File: "x.go", Line: 70, Check: "waittiming", Verdict: siteHazard, Origin: originBlind},
		}
		for _, s := range sites {
			s.lines = []lineRange{{s.File, s.Line, s.Line}}
		}
		services := []*service{{Name: "w", Split: split}}
		r := newCensusReport(sites, services)
		r.add(services[0], &serviceResult{Service: "w", Modules: []moduleResult{{Findings: []finding{
			{Check: "unboundedqueue", File: "x.go", Line: 11}, // beside a fine timing site: not scored
			{Check: "unboundedqueue", File: "y.go", Line: 1},  // on no site: not scored either
			{Check: "waittiming", File: "x.go", Line: 41},
		}}}})
		got := r.tally(split, "")
		if want := (censusTally{sites: 3, hazards: 2, fine: 1, hazardsFound: 1, findings: 1, blindHazards: 2, blindFound: 1}); *got != want {
			t.Errorf("%s: %+v, want %+v", split, *got, want)
		}
		var out bytes.Buffer
		r.write(&out)
		if listed, want := strings.Contains(out.String(), "W3"), split != splitHoldoutWaittiming; listed != want {
			t.Errorf("%s: the miss W3 listed: %v, want %v:\n%s", split, listed, want, &out)
		}
		if r.exitCode() != exitOK {
			t.Errorf("%s: exit code %d, want %d: the other checks' findings are not to judge", split, r.exitCode(), exitOK)
		}
	}
}

// TestCensusHoldoutsTogether: with more than one holdout split in the run,
// the report sums them, each timing-only split by its timing sites alone,
// and names no site.
func TestCensusHoldoutsTogether(t *testing.T) {
	sites := []*site{
		{ID: "H1", Service: "h", File: "x.go", Line: 10, Check: "waittiming", Verdict: siteHazard, Origin: originBlind},
		{ID: "H2", Service: "h", File: "x.go", Line: 40, Check: "chansize", Verdict: siteFine, Origin: originBlind},
		{ID: "W1", Service: "w", File: "x.go", Line: 10, Check: "waittiming", Verdict: siteHazard, Origin: originBlind},
		{ID: "W2", Service: "w", File: "x.go", Line: 40, Check: "waittiming", Verdict: siteFine, Origin: originBlind},
		{ID: "T1", Service: "t", File: "x.go", Line: 10, Check: "waittiming", Verdict: siteHazard, Origin: originBlind},
	}
	for _, s := range sites {
		s.lines = []lineRange{{s.File, s.Line, s.Line}}
	}
	services := []*service{{Name: "h", Split: splitHoldout}, {Name: "w", Split: splitHoldoutWaittiming}, {Name: "t", Split: splitTune}}
	r := newCensusReport(sites, services)
	r.add(services[0], &serviceResult{Service: "h", Modules: []moduleResult{{Findings: []finding{
		{Check: "waittiming", File: "x.go", Line: 10},
	}}}})
	r.add(services[1], &serviceResult{Service: "w", Modules: []moduleResult{{Findings: []finding{
		{Check: "waittiming", File: "x.go", Line: 41},
		{Check: "chansize", File: "x.go", Line: 11}, // not scored in a timing-only split
	}}}})
	r.add(services[2], &serviceResult{Service: "t", Modules: []moduleResult{{Findings: []finding{
		{Check: "waittiming", File: "x.go", Line: 10},
	}}}})
	var out bytes.Buffer
	r.write(&out)
	for _, want := range []string{
		"### Census, the holdout splits together (holdout, holdout-waittiming): 2 services, 4 sites, 2 hazards",
		"| waittiming | 3 | 2 | 1 | 50% (1/2) | 1 | 1 | 100% (1/1) | 0 | 0 |",
		"| **all** | 4 | 2 | 1 | 50% (1/2) | 2 | 1 | 50% (1/2) | 0 | 0 |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in:\n%s", want, &out)
		}
	}
	for _, leak := range []string{"H1", "H2", "W1", "W2"} {
		if strings.Contains(out.String(), leak) {
			t.Errorf("the report names holdout site %s", leak)
		}
	}

	// One holdout split alone: its own table says it all.
	r = newCensusReport(sites, services[:1])
	r.add(services[0], &serviceResult{Service: "h"})
	out.Reset()
	r.write(&out)
	if strings.Contains(out.String(), "holdout splits together") {
		t.Errorf("a single holdout split was summed:\n%s", &out)
	}
}
