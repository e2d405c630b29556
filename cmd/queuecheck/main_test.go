package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// bin is the queuecheck binary under test, built once by TestMain.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "queuecheck-test")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "queuecheck")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// module copies testdata/e2e/name into a temporary directory, so tests may
// rewrite it, and returns the copy's path.
func module(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "e2e", name)
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

type result struct {
	stdout, stderr string
	code           int
}

// run runs name with args in dir and returns what it printed and its exit code.
func run(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return result{stdout.String(), stderr.String(), code}
}

func queuecheck(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return run(t, dir, bin, args...)
}

func (r result) want(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
}

var (
	eventsFinding = regexp.MustCompile(`(?m)^chans\.go:10:14: channel buffer of 100000 items of 10 KiB \(up to 977\.3 MiB\) stores overload instead of pushing back; bound it by acceptable wait × consumer rate$`)
	jobsFinding   = regexp.MustCompile(`(?m)^worker[/\\]worker\.go:10:12: channel buffer of 50000 items of 24 B \(up to 1.1 MiB\) stores overload`)
)

func TestFindings(t *testing.T) {
	dir := module(t, "chans")
	r := queuecheck(t, dir, "./...")
	r.want(t, 1)
	if !eventsFinding.MatchString(r.stdout) || !jobsFinding.MatchString(r.stdout) {
		t.Errorf("missing findings in:\n%s", r.stdout)
	}
	if n := strings.Count(r.stdout, "\n"); n != 2 {
		t.Errorf("got %d lines, want 2 (the ignored buffer stays silent):\n%s", n, r.stdout)
	}
	// No pattern means ./...
	if r2 := queuecheck(t, dir); r2.stdout != r.stdout || r2.code != 1 {
		t.Errorf("without patterns: exit %d\n%s", r2.code, r2.stdout)
	}
}

func TestClean(t *testing.T) {
	r := queuecheck(t, module(t, "chans"), "./clean")
	r.want(t, 0)
	if r.stdout != "" {
		t.Errorf("unexpected output:\n%s", r.stdout)
	}
}

func TestAnalyzerFlag(t *testing.T) {
	dir := module(t, "chans")
	r := queuecheck(t, dir, "-chansize.maxbytes=2000000", "./...")
	r.want(t, 1)
	if !eventsFinding.MatchString(r.stdout) || jobsFinding.MatchString(r.stdout) {
		t.Errorf("-chansize.maxbytes=2000000 should keep only the 977 MiB finding:\n%s", r.stdout)
	}
	// With limits that nothing reaches, only the now useless directive is reported.
	r = queuecheck(t, dir, "-chansize.maxbytes=1099511627776", "-chansize.max=1000000", "./...")
	r.want(t, 1)
	if r.stdout != "worker/worker.go:12:1: //queuecheck:ignore chansize silences nothing here; remove it\n" {
		t.Errorf("with high limits:\n%s", r.stdout)
	}
	// Disabling the only check that fires; then every check.
	queuecheck(t, dir, "-chansize=false", "./...").want(t, 0)
	off := []string{"./..."}
	for _, name := range []string{"chansize", "unboundedqueue", "retrysend", "resolverpool", "waittiming"} {
		off = append([]string{"-" + name + "=false"}, off...)
	}
	r = queuecheck(t, dir, off...)
	r.want(t, 2)
	if !strings.Contains(r.stderr, "every check is disabled") {
		t.Errorf("stderr: %s", r.stderr)
	}
	// Enabling one check runs only that one.
	queuecheck(t, dir, "-retrysend", "./...").want(t, 0)
}

func TestJSONMatchesGoVet(t *testing.T) {
	dir := module(t, "chans")
	r := queuecheck(t, dir, "-json", "./...")
	r.want(t, 1)
	mine := decodeVetJSON(t, r.stdout)

	v := run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	v.want(t, 0) // go vet -json exits 0 even with findings
	theirs := decodeVetJSON(t, v.stdout)

	if len(mine) == 0 || !equalJSON(mine, theirs) {
		t.Errorf("queuecheck -json and go vet -json differ\nqueuecheck:\n%s\ngo vet:\n%s", r.stdout, v.stdout)
	}
}

// decodeVetJSON decodes go vet's JSON output, which go vet prefixes with a
// "# pkg" comment line per package.
func decodeVetJSON(t *testing.T, out string) map[string]map[string]any {
	t.Helper()
	tree := make(map[string]map[string]any)
	dec := json.NewDecoder(strings.NewReader(stripComments(out)))
	for dec.More() {
		var part map[string]map[string]any
		if err := dec.Decode(&part); err != nil {
			t.Fatalf("decoding %q: %v", out, err)
		}
		for k, v := range part {
			tree[k] = v
		}
	}
	return tree
}

func stripComments(s string) string {
	var b strings.Builder
	for line := range strings.SplitAfterSeq(s, "\n") {
		if !strings.HasPrefix(line, "#") {
			b.WriteString(line)
		}
	}
	return b.String()
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestVetTool(t *testing.T) {
	dir := module(t, "chans")
	v := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	v.want(t, 1)
	r := queuecheck(t, dir, "./...")
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if !strings.Contains(v.stderr, line) {
			t.Errorf("go vet -vettool does not report %q:\n%s", line, v.stderr)
		}
	}
	// Analyzer flags pass through go vet.
	v = run(t, dir, "go", "vet", "-vettool="+bin, "-chansize.maxbytes=1099511627776", "-chansize.max=1000000", "./...")
	v.want(t, 1)
	if strings.Contains(v.stderr, "channel buffer") || !strings.Contains(v.stderr, "silences nothing") {
		t.Errorf("go vet with high limits:\n%s", v.stderr)
	}
	// A cached re-run gives the same output.
	v1 := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	v2 := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	// go vet prints packages as they finish: compare the lines as sets.
	if sortedLines(v1.stderr) != sortedLines(v2.stderr) || v1.code != v2.code {
		t.Errorf("cached re-run differs:\n%s\n---\n%s", v1.stderr, v2.stderr)
	}
}

func TestFix(t *testing.T) {
	dir := module(t, "chans")
	r := queuecheck(t, dir, "-fix", "./...")
	r.want(t, 0)
	if !strings.Contains(r.stderr, "applied 2 fixes to 2 files") {
		t.Errorf("stderr: %s", r.stderr)
	}
	worker, _ := os.ReadFile(filepath.Join(dir, "worker", "worker.go"))
	if !strings.Contains(string(worker), "const backlog = 1024\n") {
		t.Errorf("the fix should edit the constant:\n%s", worker)
	}
	run(t, dir, "go", "build", "./...").want(t, 0)
	queuecheck(t, dir, "./...").want(t, 0)
}

func TestDiff(t *testing.T) {
	dir := module(t, "chans")
	before, _ := os.ReadFile(filepath.Join(dir, "chans.go"))
	r := queuecheck(t, dir, "-diff", "./...")
	r.want(t, 1)
	want := "--- a/chans.go\n+++ b/chans.go\n@@ -7,7 +7,7 @@\n \tPayload [10240]byte\n }\n \n-var events = make(chan Event, 100000)\n+var events = make(chan Event, 64)\n"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("diff:\n%s\nwant it to contain:\n%s", r.stdout, want)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "chans.go"))
	if !bytes.Equal(before, after) {
		t.Error("-diff changed the file")
	}
}

func TestVetFix(t *testing.T) {
	dir := module(t, "chans")
	run(t, dir, "go", "vet", "-vettool="+bin, "-fix", "./...").want(t, 0)
	run(t, dir, "go", "build", "./...").want(t, 0)
	run(t, dir, "go", "vet", "-vettool="+bin, "./...").want(t, 0)
}

func TestBrokenPackages(t *testing.T) {
	dir := module(t, "broken")
	for _, tc := range []struct{ pkg, msg string }{
		{"./syntax", "syntax/syntax.go:5:1: expected operand"},
		{"./types", `types/types.go:3:23: cannot use "forty-two" (untyped string constant) as int value in return statement`},
	} {
		r := queuecheck(t, dir, tc.pkg)
		r.want(t, 2)
		if !strings.Contains(filepath.ToSlash(r.stderr), tc.msg) {
			t.Errorf("%s: stderr does not give the compiler's message %q:\n%s", tc.pkg, tc.msg, r.stderr)
		}
	}
}

func TestBadInput(t *testing.T) {
	dir := module(t, "chans")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
		{[]string{"-chansize.maxbytes=lots"}, `invalid value "lots" for flag -chansize.maxbytes`},
		{[]string{"-retrysend.waits=Sleep"}, `invalid value "Sleep" for flag -retrysend.waits: "Sleep" is not a function name; want pkg/path.Func, pkg/path.Type.Method, (pkg/path.Type).Method or (*pkg/path.Type).Method`},
		{[]string{"-unboundedqueue.acquire=*example.com/pool.Pool.Get"}, `invalid value "*example.com/pool.Pool.Get" for flag -unboundedqueue.acquire`},
		{[]string{"-format=xml"}, `unknown -format "xml"`},
		{[]string{"./nosuchdir/..."}, "nosuchdir"},
		{[]string{"-explain", "nosuchcheck"}, `unknown check "nosuchcheck"`},
		{[]string{"-baseline", "missing.json"}, "reading baseline"},
	} {
		r := queuecheck(t, dir, tc.args...)
		r.want(t, 2)
		if !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("%v: stderr %q does not contain %q", tc.args, r.stderr, tc.msg)
		}
	}
}

func TestInformation(t *testing.T) {
	dir := module(t, "chans")
	r := queuecheck(t, dir, "-list")
	r.want(t, 0)
	if !regexp.MustCompile(`(?m)^chansize +report oversized channel buffers$`).MatchString(r.stdout) {
		t.Errorf("-list:\n%s", r.stdout)
	}
	r = queuecheck(t, dir, "-explain", "chansize")
	r.want(t, 0)
	for _, s := range []string{"chansize: report oversized channel buffers", "-chansize.maxbytes=1048576", "docs/checks/chansize.md"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("-explain chansize lacks %q:\n%s", s, r.stdout)
		}
	}
	for _, flag := range []string{"-V", "-version"} {
		r = queuecheck(t, dir, flag)
		r.want(t, 0)
		if !strings.HasPrefix(r.stdout, "queuecheck version ") {
			t.Errorf("%s: %q", flag, r.stdout)
		}
	}
	r = queuecheck(t, dir, "-help")
	r.want(t, 0)
	if !strings.Contains(r.stderr, "Exit status: 0 no findings, 1 findings, 2") {
		t.Errorf("-help does not document the exit codes:\n%s", r.stderr)
	}
}

func TestGitHubFormat(t *testing.T) {
	r := queuecheck(t, module(t, "chans"), "-format=github", "./...")
	r.want(t, 1)
	want := "::error file=chans.go,line=10,col=14,endLine=10,endColumn=38,title=queuecheck chansize/memory::channel buffer of 100000 items"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("got:\n%s\nwant a line starting:\n%s", r.stdout, want)
	}
}

func TestSARIF(t *testing.T) {
	r := queuecheck(t, module(t, "chans"), "-format=sarif", "./...")
	r.want(t, 1)
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct{ ID, HelpURI string }
				}
			}
			Results []struct {
				RuleID              string
				PartialFingerprints map[string]string
				Locations           []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
				Fixes []any
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "queuecheck" {
		t.Fatalf("bad SARIF header:\n%s", r.stdout)
	}
	res := log.Runs[0].Results
	if len(res) != 2 {
		t.Fatalf("%d results, want 2", len(res))
	}
	var uris []string
	for _, x := range res {
		uris = append(uris, x.Locations[0].PhysicalLocation.ArtifactLocation.URI)
		if x.RuleID != "chansize/memory" || x.PartialFingerprints["queuecheck/v1"] == "" || len(x.Fixes) != 1 {
			t.Errorf("result: %+v", x)
		}
	}
	slices.Sort(uris)
	if !slices.Equal(uris, []string{"chans.go", "worker/worker.go"}) {
		t.Errorf("URIs %v are not relative to the module root", uris)
	}
}

func TestBaseline(t *testing.T) {
	dir := module(t, "chans")
	r := queuecheck(t, dir, "-write-baseline", "baseline.json", "./...")
	r.want(t, 0)
	queuecheck(t, dir, "-baseline", "baseline.json", "./...").want(t, 0)

	// Lines added above a recorded finding do not resurrect it.
	path := filepath.Join(dir, "chans.go")
	src, _ := os.ReadFile(path)
	src = bytes.Replace(src, []byte("package chans\n"), []byte("package chans\n\n// Added later.\n\n// More comment.\n"), 1)
	// A new finding is reported, alone.
	src = append(src, []byte("\nvar audit = make(chan Event, 200000)\n")...)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	r = queuecheck(t, dir, "-baseline", "baseline.json", "./...")
	r.want(t, 1)
	if strings.Count(r.stdout, "\n") != 1 || !strings.Contains(r.stdout, "200000 items") {
		t.Errorf("want only the new finding:\n%s", r.stdout)
	}

	// Fixing a recorded finding leaves a stale entry, which is counted.
	if err := os.WriteFile(path, bytes.Replace(src, []byte("make(chan Event, 100000)"), []byte("make(chan Event, 64)"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	r = queuecheck(t, dir, "-baseline", "baseline.json", "./...")
	if !strings.Contains(r.stderr, "1 baseline entries no longer match") {
		t.Errorf("stale entry not reported: %s", r.stderr)
	}
}

// TestCrossPackageFacts checks that resolverpool sees, through facts, that a
// function of another package resolves hostnames: standalone and under go vet,
// where the facts travel in go vet's vetx files.
func TestCrossPackageFacts(t *testing.T) {
	dir := module(t, "pools")
	const want = "crawl/crawl.go:22:2: token channel slots of 8 runs slow work (os.WriteFile) beside work that resolves hostnames (fetch.Page → http.Get), so lookups wait behind it; give the slow work a pool of its own"
	r := queuecheck(t, dir, "./...")
	r.want(t, 1)
	if !strings.Contains(r.stdout, want) {
		t.Errorf("standalone:\n%s\nwant:\n%s", r.stdout, want)
	}
	v := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	v.want(t, 1)
	if !strings.Contains(v.stderr, want) {
		t.Errorf("go vet:\n%s\nwant:\n%s", v.stderr, want)
	}
	// Only the root package is analyzed: fetch's facts still reach crawl.
	r = queuecheck(t, dir, "./crawl")
	r.want(t, 1)
	if !strings.Contains(r.stdout, want) {
		t.Errorf("standalone on ./crawl alone:\n%s", r.stdout)
	}
	// go vet -fix gives the slow work its own pool; the module still builds
	// and the finding is gone.
	run(t, dir, "go", "vet", "-vettool="+bin, "-fix", "./...").want(t, 0)
	run(t, dir, "go", "build", "./...").want(t, 0)
	run(t, dir, "go", "vet", "-vettool="+bin, "./...").want(t, 0)
}

// TestAdmissionFactsAcrossPackages checks that every check that consumes the
// admission facts (a wait, a send, a try-send, a pause in another package)
// finds its hazard in package app, where only lib's facts show it: standalone
// and under go vet, whose vetx files carry the facts. Each hazard is marked
// "want:CHECK" on its line.
func TestAdmissionFactsAcrossPackages(t *testing.T) {
	dir := module(t, "facts")
	app := filepath.Join(dir, "app", "app.go")
	want := wantMarkers(t, app)
	if len(want) != 4 {
		t.Fatalf("app.go marks %d checks, want 4: %v", len(want), want)
	}
	r := queuecheck(t, dir, "-json", "./...")
	r.want(t, 1)
	checkMarkers(t, "standalone", r.stdout, want)

	v := run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	checkMarkers(t, "go vet", v.stdout, want)

	// Every finding has a fix; applied, the module builds and is clean.
	run(t, dir, "go", "vet", "-vettool="+bin, "-fix", "./...").want(t, 0)
	run(t, dir, "go", "build", "./...").want(t, 0)
	run(t, dir, "go", "vet", "-vettool="+bin, "./...").want(t, 0)
}

// TestResolverpoolTasksAcrossPackages checks the resolverpool shapes whose
// evidence lies in other packages (module testdata/e2e/jobs): a worker pool
// that calls a Sink whose implementations package sinks records in its
// facts, and a slot held while retry.Do sleeps between attempts. Standalone,
// on the one package too, and under go vet, whose vetx files carry both
// facts; -fix moves the retrying task to a pool of its own and exits 1, for
// the finding without a fix stays.
func TestResolverpoolTasksAcrossPackages(t *testing.T) {
	dir := module(t, "jobs")
	relay := filepath.Join(dir, "relay", "relay.go")
	want := wantMarkers(t, relay)
	texts := map[string]string{
		"iface": "worker pool records runs slow work (sinks.file.Write → os.WriteFile) beside work that resolves hostnames (sinks.remote.Write → http.Post), so lookups wait behind it; by hand, run the slow implementations on workers or a pool of their own",
		"held":  "token channel slots holds a slot while a task waits between attempts (retry.Do → time.Sleep) beside work that resolves hostnames (net.Resolver.LookupHost), so lookups wait behind the wait; give the retrying work a pool of its own",
	}
	check := markedFindings(t, "relay/relay.go", want, texts)
	r := queuecheck(t, dir, "./...")
	r.want(t, 1)
	check("standalone", r.stdout, "iface", "held")
	r = queuecheck(t, dir, "./relay")
	r.want(t, 1)
	check("standalone on ./relay", r.stdout, "iface", "held")
	v := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	v.want(t, 1)
	check("go vet", v.stderr, "iface", "held")

	queuecheck(t, dir, "-fix", "./...").want(t, 1)
	run(t, dir, "go", "build", "./...").want(t, 0)
	v = run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	v.want(t, 1)
	check("go vet after -fix", v.stderr, "iface")
	if strings.Contains(v.stderr, "between attempts") {
		t.Errorf("the held finding survives its fix:\n%s", v.stderr)
	}
}

// wantMarkers returns, by check, the line of file marked "want:CHECK".
func wantMarkers(t *testing.T, file string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]int)
	re := regexp.MustCompile(`// want:(\w+)`)
	for i, line := range strings.Split(string(data), "\n") {
		if sub := re.FindStringSubmatch(line); sub != nil {
			m[sub[1]] = i + 1
		}
	}
	return m
}

// checkMarkers requires, in go vet's JSON output, a finding of each marked
// check on its marked line of app/app.go.
func checkMarkers(t *testing.T, mode, out string, want map[string]int) {
	t.Helper()
	got := findingPositions(t, mode, out)
	for check, line := range want {
		suffix := fmt.Sprintf("app.go:%d:", line)
		if !slices.ContainsFunc(got[check], func(p string) bool { return strings.Contains(p, suffix) }) {
			t.Errorf("%s: no %s finding at app/app.go:%d, which needs lib's facts; got %v", mode, check, line, got)
		}
	}
}

// findingPositions returns, by check, the positions of the findings in JSON
// output, standalone or go vet's.
func findingPositions(t *testing.T, mode, out string) map[string][]string {
	t.Helper()
	type diag struct{ Posn, Message string }
	got := make(map[string][]string) // check → positions
	// go vet prints a "# pkg" line before each package's JSON object.
	var objects []string
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "#") {
			objects = append(objects, line)
		}
	}
	dec := json.NewDecoder(strings.NewReader(strings.Join(objects, "\n")))
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			t.Fatalf("%s: reading JSON: %v\n%s", mode, err, out)
		}
		for _, byCheck := range tree {
			for check, raw := range byCheck {
				var ds []diag
				if json.Unmarshal(raw, &ds) != nil {
					continue // {"error": ...}
				}
				for _, d := range ds {
					got[check] = append(got[check], d.Posn)
				}
			}
		}
	}
	return got
}

// TestFactsFromUnnamedModulePackages checks that a package of the main module
// that the patterns do not name is analyzed for its facts but not reported
// in.
func TestFactsFromUnnamedModulePackages(t *testing.T) {
	dir := module(t, "pools")
	// fetch gets its own finding-worthy code; it must stay unreported.
	extra := "\nvar backlog = make(chan [4096]byte, 100000)\n"
	f, err := os.OpenFile(filepath.Join(dir, "fetch", "fetch.go"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(extra); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	r := queuecheck(t, dir, "./crawl")
	r.want(t, 1)
	if strings.Contains(r.stdout, "fetch.go") || !strings.Contains(r.stdout, "fetch.Page → http.Get") {
		t.Errorf("want the crawl finding, through fetch's facts, and nothing in fetch:\n%s", r.stdout)
	}
	r = queuecheck(t, dir, "./fetch")
	r.want(t, 1)
	if !strings.Contains(r.stdout, "fetch/fetch.go:") || strings.Contains(r.stdout, "crawl") {
		t.Errorf("want only the fetch finding:\n%s", r.stdout)
	}
}

func sortedLines(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// TestOddInput runs queuecheck on inputs that break naive tools: each gives a
// clear result and never a crash.
func TestOddInput(t *testing.T) {
	dir := module(t, "odd")
	for _, tc := range []struct {
		pkg    string
		code   int
		stdout string // a substring of the output, or "" for none
		stderr string // a substring of standard error
	}{
		// A missing import: the go command's message, exit 2.
		{"./missing", 2, "", "missing/missing.go:4:8: could not import example.com/odd/nosuchpackage"},
		// cgo: the package is analyzed; files that import "C" reach the
		// analyzers as cmd/cgo's copies, which report at the user's lines.
		{"./cgo", 1, "cgo/queue.go:4:14: channel buffer of 100000 items", ""},
		{"./cgo", 1, "cgo/cgo.go:14:17: channel buffer of 100000 items", ""},
		// Build tags: only the files of this build; never.go is excluded.
		{"./tagged", 0, "", ""},
		// A package every file of which is excluded: named, it is an error.
		{"./ignored", 2, "", "build constraints exclude all Go files"},
		// Generics everywhere: nothing to report, nothing to crash on.
		{"./generics", 0, "", ""},
	} {
		r := queuecheck(t, dir, tc.pkg)
		if r.code != tc.code || (tc.stdout == "") != (r.stdout == "") || !strings.Contains(r.stdout, tc.stdout) || !strings.Contains(r.stderr, tc.stderr) {
			t.Errorf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.pkg, r.code, tc.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stderr, "panic") {
			t.Errorf("%s: panic:\n%s", tc.pkg, r.stderr)
		}
	}
	// ./... skips the excluded package silently, as the go command does, and
	// still fails on the missing import.
	r := queuecheck(t, dir, "./...")
	r.want(t, 2)
	if strings.Contains(r.stderr, "ignored") || !strings.Contains(r.stdout, "cgo/queue.go") {
		t.Errorf("./...:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
}

// TestCgoFindings checks that a finding in a file that imports "C" is
// reported at its line of the user's file, in both modes, and carries no
// fix: -fix changes nothing in that file, fixes the other, and exits 1.
func TestCgoFindings(t *testing.T) {
	dir := module(t, "odd")
	const want = "cgo/cgo.go:14:17: channel buffer of 100000 items"
	v := run(t, dir, "go", "vet", "-vettool="+bin, "./cgo")
	v.want(t, 1)
	if !strings.Contains(v.stderr, want) {
		t.Errorf("go vet:\n%s\nwant %s", v.stderr, want)
	}
	r := queuecheck(t, dir, "-json", "./cgo")
	if strings.Count(r.stdout, "suggested_fixes") != 1 {
		t.Errorf("want a fix for queue.go's finding only:\n%s", r.stdout)
	}
	before, err := os.ReadFile(filepath.Join(dir, "cgo", "cgo.go"))
	if err != nil {
		t.Fatal(err)
	}
	r = queuecheck(t, dir, "-fix", "./cgo")
	r.want(t, 1)
	if !strings.Contains(r.stdout, want) {
		t.Errorf("-fix: want the cgo finding left:\n%s", r.stdout)
	}
	after, err := os.ReadFile(filepath.Join(dir, "cgo", "cgo.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("-fix changed cgo.go:\n%s", after)
	}
	run(t, dir, "go", "build", "./cgo").want(t, 0)
}

// TestHugeGeneratedFile checks that a large generated file is skipped
// quickly: never reported in, whatever it holds.
func TestHugeGeneratedFile(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("// Code generated by a test. DO NOT EDIT.\n\npackage gen\n\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "var q%d = make(chan [4096]byte, 100000)\n", i)
	}
	files := map[string]string{
		"go.mod": "module example.com/gen\n\ngo 1.26\n",
		"gen.go": b.String(),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := queuecheck(t, dir, "./...")
	r.want(t, 0)
	if r.stdout != "" {
		t.Errorf("findings in a generated file:\n%s", r.stdout)
	}
}

// TestFixLeavesWhatHasNoFix checks that -fix exits 1 and prints the findings
// it could not fix.
func TestFixLeavesWhatHasNoFix(t *testing.T) {
	dir := module(t, "chans")
	path := filepath.Join(dir, "chans.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src = append(src, []byte("\n//queuecheck:ignore chansize\nvar noReason = make(chan Event, 10)\n")...)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	r := queuecheck(t, dir, "-fix", "./...")
	r.want(t, 1)
	if !strings.Contains(r.stdout, "needs a reason") || strings.Contains(r.stdout, "channel buffer") {
		t.Errorf("want only the directive that has no fix:\n%s", r.stdout)
	}
	run(t, dir, "go", "build", "./...").want(t, 0)
}

// TestUnknownDirective checks that a directive naming no check is reported
// exactly once whichever checks run, standalone and under go vet alike: by
// the check it misspells when that one runs, otherwise by one of those that
// run, the same one in both modes.
func TestUnknownDirective(t *testing.T) {
	dir := module(t, "chans")
	const directive = "//queuecheck:ignore chansise a misspelling\n"
	src := "package chans\n\n" + directive + "var tiny = make(chan int, 1)\n"
	if err := os.WriteFile(filepath.Join(dir, "typo.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	const message = "typo.go:3:1: //queuecheck:ignore names unknown check chansise; did you mean chansize?"
	for _, tc := range []struct {
		flags []string
		by    string // the check that reports it; "" for one that runs but is not chansize
	}{
		{nil, "chansize"},
		{[]string{"-chansize=false"}, ""},
		{[]string{"-chansize=false", "-resolverpool=false", "-waittiming=false"}, ""},
		{[]string{"-retrysend"}, "retrysend"},
		{[]string{"-waittiming"}, "waittiming"},
	} {
		t.Run(strings.Join(append([]string{"flags"}, tc.flags...), " "), func(t *testing.T) {
			args := slices.Concat(tc.flags, []string{"./..."})
			r := queuecheck(t, dir, args...)
			r.want(t, 1)
			if n := strings.Count(r.stdout, message); n != 1 {
				t.Errorf("standalone reports the directive %d times, want once:\n%s", n, r.stdout)
			}
			v := run(t, dir, "go", append([]string{"vet", "-vettool=" + bin}, args...)...)
			v.want(t, 1)
			if n := strings.Count(v.stderr, message); n != 1 {
				t.Errorf("go vet reports the directive %d times, want once:\n%s", n, v.stderr)
			}

			// Which check reports it shows in the JSON, where the two
			// modes must agree.
			r = queuecheck(t, dir, append([]string{"-json"}, args...)...)
			v = run(t, dir, "go", append([]string{"vet", "-vettool=" + bin, "-json"}, args...)...)
			mine, theirs := decodeVetJSON(t, r.stdout), decodeVetJSON(t, v.stdout)
			if !equalJSON(mine, theirs) {
				t.Errorf("queuecheck -json and go vet -json differ\nqueuecheck:\n%s\ngo vet:\n%s", r.stdout, v.stdout)
			}
			var by []string
			for check, diags := range mine["example.com/chans"] {
				if strings.Contains(fmt.Sprint(diags), "unknown check chansise") {
					by = append(by, check)
				}
			}
			switch {
			case len(by) != 1:
				t.Errorf("reported by %v, want exactly one check\n%s", by, r.stdout)
			case tc.by != "" && by[0] != tc.by:
				t.Errorf("reported by %s, want %s", by[0], tc.by)
			case tc.by == "" && (by[0] == "chansize" || slices.Contains(tc.flags, "-"+by[0]+"=false")):
				t.Errorf("reported by %s, which does not run", by[0])
			}
		})
	}
}

// TestFunctionFlags checks that a flag naming functions rejects a malformed
// name in either mode, and warns once on standard error about a name that
// names nothing: one whose package is imported but has no such function,
// and, standalone, one whose package nothing imports.
func TestFunctionFlags(t *testing.T) {
	dir := module(t, "chans")
	files := map[string]string{
		"retry/retry.go": "package retry\n\n// Wait backs off.\nfunc Wait() {}\n",
		"a/a.go":         "package a\n\nimport \"example.com/chans/retry\"\n\n// A waits.\nfunc A() { retry.Wait() }\n",
		"b/b.go":         "package b\n\nimport \"example.com/chans/retry\"\n\n// B waits.\nfunc B() { retry.Wait() }\n",
	}
	for name, content := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	const bad = `invalid value "Sleep" for flag -retrysend.waits: "Sleep" is not a function name`
	v := run(t, dir, "go", "vet", "-vettool="+bin, "-retrysend.waits=Sleep", "./...")
	if v.code == 0 || !strings.Contains(v.stderr, bad) {
		t.Errorf("go vet with a malformed name: exit %d, want a failure with %q:\n%s", v.code, bad, v.stderr)
	}

	const (
		misspelt = "queuecheck: warning: -retrysend.waits: example.com/chans/retry.Wiat names nothing: package example.com/chans/retry has no function Wiat"
		nowhere  = "queuecheck: warning: -retrysend.waits: example.com/nowhere.Wait names nothing: no package analyzed imports example.com/nowhere"
	)
	flag := "-retrysend.waits=example.com/chans/retry.Wait,example.com/chans/retry.Wiat,example.com/nowhere.Wait"
	r := queuecheck(t, dir, flag, "./...")
	r.want(t, 1) // the chans findings
	for _, w := range []string{misspelt, nowhere} {
		if n := strings.Count(r.stderr, w); n != 1 {
			t.Errorf("standalone warns %d times, want once: %s\nstderr:\n%s", n, w, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "retry.Wait names nothing") {
		t.Errorf("warned about a name that names a function:\n%s", r.stderr)
	}
	// go vet runs a process per package: the warning comes with each
	// package that has the named package in view (retry, a and b).
	v = run(t, dir, "go", "vet", "-vettool="+bin, flag, "./...")
	v.want(t, 1)
	if n := strings.Count(v.stderr, misspelt); n != 3 {
		t.Errorf("go vet warns %d times, want once per package that imports or is retry (3):\n%s", n, v.stderr)
	}
}

// TestWhy checks that -why reports the rule that silenced each candidate at
// a line as a diagnostic that is no finding: the standalone exit status
// stays 0, and no baseline records it. go vet passes -why on.
func TestWhy(t *testing.T) {
	dir := module(t, "chans")
	r := queuecheck(t, dir, "-why", "clean/clean.go:6", "./clean")
	r.want(t, 0)
	want := regexp.MustCompile(`(?m)^clean[/\\]clean\.go:6:9: not reported: not-constant: `)
	if !want.MatchString(r.stdout) || strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("-why clean/clean.go:6: want one why-diagnostic, got:\n%s", r.stdout)
	}
	r = queuecheck(t, dir, "-why", "all", "-format=json", "./clean")
	r.want(t, 0)
	if !strings.Contains(r.stdout, `"category": "chansize/why"`) || !strings.Contains(r.stdout, "zero-size-element") {
		t.Errorf("-why all -format=json:\n%s", r.stdout)
	}
	// Beside findings, the findings alone set the status.
	r = queuecheck(t, dir, "-why", "all", "./...")
	r.want(t, 1)
	base := filepath.Join(dir, "baseline.json")
	queuecheck(t, dir, "-why", "all", "-write-baseline", base, "./...").want(t, 0)
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "/why") {
		t.Errorf("the baseline records why-diagnostics:\n%s", data)
	}
	r = queuecheck(t, dir, "-why", "all", "-baseline", base, "./...")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "not reported: ") {
		t.Errorf("-why with a baseline of every finding prints no why-diagnostic:\n%s", r.stdout)
	}
	queuecheck(t, dir, "-why", "clean.go", "./clean").want(t, 2)
	// The formats show a why-diagnostic as a note, not a warning or an error.
	r = queuecheck(t, dir, "-why", "clean/clean.go:6", "-format=github", "./clean")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "::notice file=clean/clean.go,line=6,") {
		t.Errorf("-format=github: want a notice, got:\n%s", r.stdout)
	}
	r = queuecheck(t, dir, "-why", "clean/clean.go:6", "-format=sarif", "./clean")
	r.want(t, 0)
	if !strings.Contains(r.stdout, `"level": "note"`) || strings.Contains(r.stdout, `"level": "warning"`) {
		t.Errorf("-format=sarif: want a note, got:\n%s", r.stdout)
	}

	v := run(t, dir, "go", "vet", "-vettool="+bin, "-why", "clean/clean.go:6", "./clean")
	if !want.MatchString(strings.ReplaceAll(v.stderr, "./", "")) && !strings.Contains(v.stderr, "clean.go:6:9: not reported: not-constant: ") {
		t.Errorf("go vet -why: exit %d\n%s", v.code, v.stderr)
	}
}

// TestCondWaitFactsAcrossPackages checks the waits that hide in callees
// (module testdata/e2e/condwait): a timestamp taken before lib.Store.Take,
// which waits on its condition variable, and a deadline handed to
// lib.Client.Do, whose first step waits for a slot on it, and a duration
// over lib.Scanner.Scan, an interface method whose one implementation in
// lib queues jobs on a shared pool and waits for them. Standalone, on
// ./app alone and under go vet, whose vetx files carry lib's InnerWait
// facts; -fix moves the timestamp below the call and exits 1, for the
// deadline and the pool wait have no fix.
func TestCondWaitFactsAcrossPackages(t *testing.T) {
	dir := module(t, "condwait")
	want := wantMarkers(t, filepath.Join(dir, "app", "app.go"))
	texts := map[string]string{
		"staletime": "now is taken before (*lib.Store).Take, which waits for a queue to fill (s.cond.Wait() while len(s.items) == 0 && !s.closed, lib.go:",
		"deadline":  "the 1s timeout from context.WithTimeout is handed to (*lib.Client).Do, whose first step waits on it (the send to semaphore channel slots, lib.go:",
		"jobqueue":  "the duration since start spans (lib.Scanner).Scan, which hands its work to a shared pool and waits for it (the jobs sent on p.queue and the wait for their results, lib.go:",
	}
	check := markedFindings(t, "app/app.go", want, texts)
	r := queuecheck(t, dir, "./...")
	r.want(t, 1)
	check("standalone", r.stdout, "staletime", "deadline", "jobqueue")
	r = queuecheck(t, dir, "./app")
	r.want(t, 1)
	check("standalone on ./app", r.stdout, "staletime", "deadline", "jobqueue")
	v := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	v.want(t, 1)
	check("go vet", v.stderr, "staletime", "deadline", "jobqueue")

	queuecheck(t, dir, "-fix", "./...").want(t, 1)
	run(t, dir, "go", "build", "./...").want(t, 0)
	v = run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	v.want(t, 1)
	check("go vet after -fix", v.stderr, "deadline", "jobqueue")
	if strings.Contains(v.stderr, "now is taken before") {
		t.Errorf("go vet after -fix still reports the timestamp:\n%s", v.stderr)
	}
}

// markedFindings returns a check that the output of a mode carries, for
// each named marker of file (a path relative to the module), a finding on
// the marked line with the marker's text.
func markedFindings(t *testing.T, file string, want map[string]int, texts map[string]string) func(mode, out string, marks ...string) {
	return func(mode, out string, marks ...string) {
		t.Helper()
		for _, m := range marks {
			line := fmt.Sprintf("%s:%d:", filepath.Base(file), want[m])
			if !strings.Contains(out, line) || !strings.Contains(out, texts[m]) {
				t.Errorf("%s: no %s finding at %s:%d:\n%s", mode, m, file, want[m], out)
			}
		}
	}
}
