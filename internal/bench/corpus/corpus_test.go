package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/queuecheck/queuecheck/internal/baseline"
)

// TestMain makes the test binary the suite when the corpus tool runs it as
// a child, as the corpus binary does for itself: no build step.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		main()
	}
	os.Exit(m.Run())
}

// TestSmoke runs the tool on the local fake service in testdata: one module,
// the standard library only, no network.
func TestSmoke(t *testing.T) {
	t.Setenv("GOPROXY", "off")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var progress bytes.Buffer
	c := config{
		checkouts: filepath.Join("testdata", "checkouts"),
		out:       out,
		services:  filepath.Join("testdata", "services.tsv"),
		judged:    filepath.Join("testdata", "judged.tsv"),
		timeout:   time.Minute,
		suite:     []string{self},
		progress:  &progress,
		fixcheck:  true,
	}
	sc, err := run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	rep := sc.(*report)
	if rep.failed() {
		t.Fatalf("failures: %v", rep.failures)
	}
	var table bytes.Buffer
	rep.write(&table)
	t.Logf("progress:\n%s\nreport:\n%s", &progress, &table)

	if !strings.Contains(progress.String(), "[1/1] fakesvc .: 2 packages, ") {
		t.Errorf("no progress line for the module (tools/ excluded, so 2 packages):\n%s", &progress)
	}
	for _, want := range []string{
		// chansize: one true, one unjudged; the judged false row is gone.
		"| chansize | 2 | 1 | 0 | 0 | 1 | 0 | 100% (1/1) | 100% (2/2) |",
		// unboundedqueue: the finding is unjudged, the miss stands until judged.
		"| unboundedqueue | 1 | 0 | 0 | 0 | 1 | 1 | 0% (0/1) | 100% (1/1) |",
		// retrysend's miss belongs to a service this run does not cover.
		"| retrysend | 0 | 0 | 0 | 0 | 0 | 0 | – | – |",
		"| **all** | 3 | 1 | 0 | 0 | 2 | 1 | 50% (1/2) | 100% (3/3) |",
		"example.com/fakesvc\taudit/audit.go\t8ece7bc4a87d0a3edd201336\t17\t",
		"judged.tsv:4 false chansize/count example.com/fakesvc audit/audit.go:30",
		"judged.tsv:5 example.com/fakesvc func:Queue.Push",
		"| fakesvc | queue | 1 | 2 | ",
		"### Why candidates were not reported (-why all)",
		"| chansize | zero-size-element | 1 |",
		"| retrysend | coalescing-wakeup | 1 |",
		// -fixcheck: the three fixes apply and the fixed packages build.
		"| fakesvc | . | 3 | 0 | ok |",
	} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(table.String(), "tools/tools.go") {
		t.Errorf("a finding in the excluded package tools/ was reported")
	}

	// -rejudge reads the results back and reports the same.
	c.rejudge, c.checkouts = true, ""
	again, err := run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	var table2 bytes.Buffer
	again.write(&table2)
	if table2.String() != table.String() {
		t.Errorf("-rejudge reported otherwise:\n%s", &table2)
	}

	// The result file, and its fingerprints are the baseline's.
	data, err := os.ReadFile(filepath.Join(out, "fakesvc.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sr serviceResult
	if err := json.Unmarshal(data, &sr); err != nil {
		t.Fatal(err)
	}
	if len(sr.Modules) != 1 || sr.Modules[0].Lines == 0 || sr.Modules[0].Wall == 0 || sr.Modules[0].PeakRSSKiB == 0 {
		t.Fatalf("module result lacks its measurements: %+v", sr.Modules)
	}
	var got []string
	for _, f := range sr.Modules[0].Findings {
		got = append(got, f.Category+" "+f.File+" "+f.Fingerprint)
		if f.Category == "unboundedqueue/slicefifo" && f.Function != "Queue.Push" {
			t.Errorf("slicefifo finding in function %q, want Queue.Push", f.Function)
		}
	}
	if len(sr.Missed) != 1 || sr.Missed[0].Status != "possibly found" {
		t.Errorf("missed rows: %+v, want the Queue.Push miss, possibly found", sr.Missed)
	}

	base := filepath.Join(t.TempDir(), "baseline.json")
	cmd := exec.Command(self, "-write-baseline", base, "./audit", "./queue")
	cmd.Dir = filepath.Join("testdata", "checkouts", "fakesvc")
	cmd.Env = append(goEnv(), childEnv+"=1")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("-write-baseline: %v\n%s", err, msg)
	}
	b, err := baseline.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range b.Findings {
		want = append(want, e.Category+" "+e.File+" "+e.Fingerprint)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("fingerprints differ from the baseline's:\n got %q\nwant %q", got, want)
	}
}

func TestReadJudgedRejects(t *testing.T) {
	for what, row := range map[string]string{
		"bad verdict":       "maybe\tchansize\tchansize/memory\tr\tf.go\te68dae55bed84da2793da8fd\t1\twhy",
		"finding by func":   "true\tchansize\tchansize/memory\tr\tf.go\tfunc:F\t1\twhy",
		"no why":            "true\tchansize\tchansize/memory\tr\tf.go\te68dae55bed84da2793da8fd\t1\t",
		"category mismatch": "missed\tretrysend\tchansize/memory\tr\tf.go\tfunc:F\t1\twhy",
		"too few columns":   "true\tchansize\tchansize/memory\tr\tf.go\te68dae55bed84da2793da8fd\t1",
		"line not a number": "missed\tretrysend\tretrysend/retryloop\tr\tf.go\tfunc:F\tx\twhy",
		"short fingerprint": "false\tchansize\tchansize/memory\tr\tf.go\te68dae55\t1\twhy",
	} {
		name := filepath.Join(t.TempDir(), "judged.tsv")
		if err := os.WriteFile(name, []byte(strings.Join(judgedColumns, "\t")+"\n"+row+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readJudged(name); err == nil {
			t.Errorf("%s: accepted %q", what, row)
		}
	}
}

// TestFixedVerdict checks that a false alarm judged fixed is counted as
// judged, expected to be gone, and reported as a regression when it comes
// back.
func TestFixedVerdict(t *testing.T) {
	const fp1, fp2 = "aaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbb"
	judged := []*judgement{
		{Verdict: verdictFixed, Check: "chansize", Category: "chansize/memory", Repository: "example.com/svc", File: "a.go", Locator: fp1, Why: "fixed", row: 2},
		{Verdict: verdictFixed, Check: "chansize", Category: "chansize/memory", Repository: "example.com/svc", File: "b.go", Locator: fp2, Why: "fixed", row: 3},
	}
	s := &service{Name: "svc", Repository: "example.com/svc"}
	sr := &serviceResult{Service: "svc", Modules: []moduleResult{{Findings: []finding{
		{Check: "chansize", Category: "chansize/memory", File: "b.go", Fingerprint: fp2},
	}}}}
	r := newReport(judged)
	r.add(s, sr)
	if len(r.gone) != 0 {
		t.Errorf("a fixed false alarm that stays gone is listed as gone: %v", r.gone)
	}
	if len(r.back) != 1 || r.back[0] != judged[1] || !r.failed() {
		t.Errorf("the fixed false alarm that is back is not a failure: back %v", r.back)
	}
	if got := r.byCheck["chansize"].isFalse; got != 1 {
		t.Errorf("a fixed false alarm back counts %d times as false, want 1", got)
	}
	var out bytes.Buffer
	r.write(&out)
	if !strings.Contains(out.String(), "Judged rows: 2 (0 findings, 0 misses, 2 false alarms since fixed, 1 of them back).") ||
		!strings.Contains(out.String(), "judged.tsv:3 chansize/memory example.com/svc b.go") {
		t.Errorf("the report does not say so:\n%s", &out)
	}
}
