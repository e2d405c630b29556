package plugin_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers"
	"github.com/queuecheck/queuecheck/plugin/internal/gclbuild"
)

// The end-to-end test builds golangci-lint v2 with the plugin from the Go
// module proxy (plugin/internal/gclbuild; a cold build takes minutes, a cached
// one milliseconds) and runs it on testdata/golangci/lint. It asserts on
// chansize's findings only, so checks added to the suite later do not break
// it.

const lintModule = "../testdata/golangci/lint"

var (
	binOnce sync.Once
	binPath string
	binErr  error

	// lintCache is golangci-lint's cache for this test process: shared by its
	// runs (its keys cover the binary, the configuration and the sources, so
	// sharing is sound and spares re-deriving the standard library's facts),
	// and never by another process.
	lintCache string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "queuecheck-gcl-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	lintCache = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// golangciLint returns the custom binary, building it once per test process.
func golangciLint(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds golangci-lint from the module proxy (minutes when not cached); not in -short mode")
	}
	binOnce.Do(func() {
		binPath, binErr = gclbuild.Binary("..", t.Logf)
	})
	if binErr != nil {
		t.Fatalf("building the custom golangci-lint: %v", binErr)
	}
	return binPath
}

// An issue is one entry of golangci-lint's JSON output.
type issue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename     string
		Line, Column int
	}
}

// A run is one golangci-lint invocation's outcome.
type run struct {
	code           int
	stdout, stderr string
	issues         []issue
}

// lint runs golangci-lint in dir with args (starting "run") and a JSON report.
func lint(t *testing.T, bin, dir string, args ...string) run {
	t.Helper()
	report := filepath.Join(t.TempDir(), "report.json")
	// golangci-lint's lock guards its default cache; these runs use a cache
	// of their own (see golangci), which is safe to share.
	args = append(args[:len(args):len(args)], "--allow-parallel-runners", "--output.json.path="+report)
	r := golangci(t, bin, dir, args...)
	if data, err := os.ReadFile(report); err == nil && len(data) > 0 {
		var out struct{ Issues []issue }
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatalf("golangci-lint %s: JSON report: %v\n%s", strings.Join(args, " "), err, data)
		}
		r.issues = out.Issues
	}
	return r
}

// golangci runs golangci-lint in dir with args.
func golangci(t *testing.T, bin, dir string, args ...string) run {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GOLANGCI_LINT_CACHE="+lintCache, // results and facts of this test process only
		"GOWORK=off",
	)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := run{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("golangci-lint %s: %v", strings.Join(args, " "), err)
	}
	return r
}

// chansizeLines returns the lines of queue.go chansize reported in r, and fails
// the test on any other chansize issue.
func chansizeLines(t *testing.T, r run) []int {
	t.Helper()
	var lines []int
	for _, is := range r.issues {
		if is.FromLinter != "chansize" {
			continue
		}
		if filepath.Base(is.Pos.Filename) != "queue.go" || !strings.Contains(is.Text, "stores overload instead of pushing back") {
			t.Errorf("unexpected chansize issue: %s:%d: %s", is.Pos.Filename, is.Pos.Line, is.Text)
			continue
		}
		lines = append(lines, is.Pos.Line)
	}
	slices.Sort(lines)
	return lines
}

// markers maps each "want:NAME" marker of queue.go to its line.
func markers(t *testing.T, dir string) map[string]int {
	t.Helper()
	m := markersIn(t, filepath.Join(dir, "queue", "queue.go"))
	for _, name := range []string{"frames", "ids", "nolint", "ignore", "small"} {
		if m[name] == 0 {
			t.Fatalf("queue.go has no want:%s marker", name)
		}
	}
	return m
}

// markersIn maps each "want:NAME" marker in a line of code of file to its line.
func markersIn(t *testing.T, file string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	re := regexp.MustCompile(`want:(\w+)`)
	for n := 1; sc.Scan(); n++ {
		if sub := re.FindStringSubmatch(sc.Text()); sub != nil && !strings.HasPrefix(strings.TrimSpace(sc.Text()), "//") {
			m[sub[1]] = n
		}
	}
	return m
}

// linterConfig returns a .golangci.yml that enables the checks named and
// configures those and the ones in configure, with every issue reported.
func linterConfig(enable []string, configure ...string) string {
	var b strings.Builder
	b.WriteString("version: \"2\"\nlinters:\n  default: none\n  enable:\n")
	for _, name := range enable {
		fmt.Fprintf(&b, "    - %s\n", name)
	}
	b.WriteString("  settings:\n    custom:\n")
	for _, name := range append(slices.Clip(enable), configure...) {
		fmt.Fprintf(&b, "      %s:\n        type: module\n", name)
	}
	b.WriteString("issues:\n  max-issues-per-linter: 0\n  max-same-issues: 0\n")
	return b.String()
}

// allChecks returns the names of the suite's checks.
func allChecks() []string {
	var names []string
	for _, a := range analyzers.All {
		names = append(names, a.Name)
	}
	return names
}

// copyModule copies the linted module into a fresh directory.
func copyModule(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(lintModule)); err != nil {
		t.Fatal(err)
	}
	return dst
}

func writeConfig(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// config is a .golangci.yml that enables only chansize, with settings (YAML
// lines under "settings:") if any.
func config(settings ...string) string {
	var b strings.Builder
	b.WriteString("version: \"2\"\nlinters:\n  default: none\n  enable: [chansize]\n  settings:\n    custom:\n      chansize:\n        type: module\n")
	if len(settings) > 0 {
		b.WriteString("        settings:\n")
		for _, s := range settings {
			b.WriteString("          " + s + "\n")
		}
	}
	b.WriteString("issues:\n  max-issues-per-linter: 0\n  max-same-issues: 0\n")
	return b.String()
}

func TestGolangciLintFindings(t *testing.T) {
	bin := golangciLint(t)
	t.Parallel()
	dir := copyModule(t)
	want := markers(t, dir)

	r := lint(t, bin, dir, "run", "./...")
	if r.code != 1 {
		t.Errorf("exit code %d, want 1 (findings)\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	// .golangci.yml lowers maxbytes to 4096, so the 8000-byte IDs buffer is
	// reported; //nolint:chansize and //queuecheck:ignore silence theirs.
	if got, exp := chansizeLines(t, r), []int{want["frames"], want["ids"]}; !slices.Equal(got, exp) {
		t.Errorf("chansize reported lines %v, want %v (frames, ids)\nstdout:\n%s\nstderr:\n%s", got, exp, r.stdout, r.stderr)
	}
	for _, is := range r.issues {
		if is.FromLinter == "chansize" && is.Pos.Line == want["frames"] &&
			!strings.Contains(is.Text, "channel buffer of 2048 items of 1 KiB (up to 2 MiB)") {
			t.Errorf("frames finding reads %q", is.Text)
		}
	}
}

// Settings mean what the flags mean, and a mistake in them stops the run with
// an error naming the key.
func TestGolangciLintSettings(t *testing.T) {
	bin := golangciLint(t)
	t.Parallel()
	dir := copyModule(t)
	want := markers(t, dir)

	tests := []struct {
		name     string
		settings []string
		lines    []int
	}{
		{"defaults", nil, []int{want["frames"]}},
		{"maxbytes above the frames buffer", []string{"maxbytes: 4194304"}, nil},
		{"max counts elements", []string{"max: 1000"}, []int{want["frames"], want["ids"]}},
		{"max as a YAML string", []string{`max: "1000"`}, []int{want["frames"], want["ids"]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := writeConfig(t, t.TempDir(), "golangci.yml", config(tt.settings...))
			r := lint(t, bin, dir, "run", "--config="+cfg, "./...")
			if got := chansizeLines(t, r); !slices.Equal(got, tt.lines) {
				t.Errorf("chansize reported lines %v, want %v\nstdout:\n%s\nstderr:\n%s", got, tt.lines, r.stdout, r.stderr)
			}
		})
	}

	errTests := []struct {
		name     string
		settings []string
		want     []string
	}{
		{"unknown key", []string{"maxbyte: 4096"}, []string{`unknown setting "maxbyte"`, "maxbytes"}},
		{"bad value", []string{"maxbytes: lots"}, []string{`setting "maxbytes"`, `"lots"`}},
	}
	for _, tt := range errTests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := writeConfig(t, t.TempDir(), "golangci.yml", config(tt.settings...))
			r := lint(t, bin, dir, "run", "--config="+cfg, "./...")
			out := r.stdout + r.stderr
			if r.code == 0 || r.code == 1 {
				t.Errorf("exit code %d, want a failure\n%s", r.code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output does not contain %q:\n%s", w, out)
				}
			}
		})
	}
}

// Without its //nolint:chansize comment the Replay buffer is reported: the
// comment is what silences it.
func TestGolangciLintNolint(t *testing.T) {
	bin := golangciLint(t)
	t.Parallel()
	dir := copyModule(t)
	want := markers(t, dir)
	file := filepath.Join(dir, "queue", "queue.go")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte("//nolint:chansize // "), []byte("// "), 1)
	if bytes.Equal(edited, data) {
		t.Fatal("queue.go has no //nolint:chansize comment")
	}
	if err := os.WriteFile(file, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	r := lint(t, bin, dir, "run", "./...")
	if got, exp := chansizeLines(t, r), []int{want["frames"], want["ids"], want["nolint"]}; !slices.Equal(got, exp) {
		t.Errorf("chansize reported lines %v, want %v (frames, ids, the line without nolint)\n%s%s", got, exp, r.stdout, r.stderr)
	}
}

// --fix applies chansize's fixes; the fixed module builds and is clean.
func TestGolangciLintFix(t *testing.T) {
	bin := golangciLint(t)
	t.Parallel()
	dir := copyModule(t)
	want := markers(t, dir)
	file := filepath.Join(dir, "queue", "queue.go")
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}

	lint(t, bin, dir, "run", "--fix", "./...")

	after, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(after), "\n")
	for name, old := range map[string]string{"frames": "make(chan Frame, 2048)", "ids": "make(chan int64, 1000)"} {
		if got := lines[want[name]-1]; strings.Contains(got, old) || !strings.Contains(got, "make(chan ") {
			t.Errorf("line %d after --fix: %q; want the capacity in %q bounded", want[name], got, old)
		}
	}
	beforeLines := strings.Split(string(before), "\n")
	for _, name := range []string{"nolint", "ignore", "small"} {
		if got, was := lines[want[name]-1], beforeLines[want[name]-1]; got != was {
			t.Errorf("--fix changed the %s line: %q, was %q", name, got, was)
		}
	}

	if out, err := goVet(dir); err != nil {
		t.Errorf("go vet on the fixed module: %v\n%s\n%s", err, out, after)
	}
	r := lint(t, bin, dir, "run", "./...")
	if got := chansizeLines(t, r); len(got) != 0 {
		t.Errorf("after --fix chansize still reports lines %v\n%s", got, after)
	}
}

// golangci-lint applies only the edits of a fix that lie in the finding's
// own file. A fix that edits two files (unboundedqueue's limit beside the
// queue's type, its guard beside the append) is left out rather than half
// applied, which would leave the package not compiling.
func TestGolangciLintFixAcrossFiles(t *testing.T) {
	bin := golangciLint(t)
	t.Parallel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../testdata/golangci/twofiles")); err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, t.TempDir(), "golangci.yml", strings.ReplaceAll(config(), "chansize", "unboundedqueue"))
	lint(t, bin, dir, "run", "--config="+cfg, "--fix", "./...")

	if out, err := goVet(dir); err != nil {
		src, _ := os.ReadFile(filepath.Join(dir, "mailer", "mailer.go"))
		t.Errorf("go vet on the module after --fix: %v\n%s\n%s", err, out, src)
	}
	r := lint(t, bin, dir, "run", "--config="+cfg, "./...")
	line := markersIn(t, filepath.Join(dir, "mailer", "mailer.go"))["unboundedqueue"]
	if !slices.ContainsFunc(r.issues, func(is issue) bool {
		return is.FromLinter == "unboundedqueue" && is.Pos.Line == line && !strings.Contains(is.Text, "(related information)")
	}) {
		t.Errorf("after --fix, no unboundedqueue finding at mailer.go:%d (its fix must be left for queuecheck -fix)\n%s%s", line, r.stdout, r.stderr)
	}
}

// goVet runs go vet on the module in dir: it compiles, and the fixes left
// nothing vet objects to.
func goVet(dir string) ([]byte, error) {
	vet := exec.Command("go", "vet", "./...")
	vet.Dir = dir
	vet.Env = append(os.Environ(), "GOWORK=off")
	return vet.CombinedOutput()
}

// --output.sarif.path writes SARIF with chansize as the rule id.
func TestGolangciLintSARIF(t *testing.T) {
	bin := golangciLint(t)
	t.Parallel()
	dir := copyModule(t)
	want := markers(t, dir)
	sarif := filepath.Join(t.TempDir(), "out.sarif")

	r := lint(t, bin, dir, "run", "--output.sarif.path="+sarif, "./...")
	data, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatalf("no SARIF written: %v\n%s%s", err, r.stdout, r.stderr)
	}
	var log struct {
		Version string
		Runs    []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Message struct{ Text string }
				Level   string
				// Locations holds the physical location of the finding.
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("SARIF does not parse: %v\n%s", err, data)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("SARIF version %q with %d runs, want 2.1.0 with 1\n%s", log.Version, len(log.Runs), data)
	}
	var lines []int
	for _, res := range log.Runs[0].Results {
		if res.RuleID != "chansize" {
			continue
		}
		if len(res.Locations) != 1 || res.Locations[0].PhysicalLocation.ArtifactLocation.URI != "queue/queue.go" {
			t.Errorf("chansize result at %+v, want queue/queue.go", res.Locations)
			continue
		}
		if !strings.Contains(res.Message.Text, "stores overload") {
			t.Errorf("chansize result message %q", res.Message.Text)
		}
		lines = append(lines, res.Locations[0].PhysicalLocation.Region.StartLine)
	}
	slices.Sort(lines)
	if exp := []int{want["frames"], want["ids"]}; !slices.Equal(lines, exp) {
		t.Errorf("SARIF chansize results on lines %v, want %v\n%s", lines, exp, data)
	}
}

// The admission facts travel in golangci-lint too: each check that consumes
// them finds, in package app of testdata/e2e/facts, the hazard marked
// "want:CHECK" that only lib's facts reveal.
func TestGolangciLintAdmissionFacts(t *testing.T) {
	bin := golangciLint(t)
	t.Parallel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../testdata/e2e/facts")); err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, t.TempDir(), "golangci.yml", linterConfig(allChecks()))

	r := lint(t, bin, dir, "run", "--config="+cfg, "./...")
	want := markersIn(t, filepath.Join(dir, "app", "app.go"))
	if len(want) != 4 {
		t.Fatalf("app.go marks %d checks, want 4: %v", len(want), want)
	}
	for check, line := range want {
		found := slices.ContainsFunc(r.issues, func(is issue) bool {
			return is.FromLinter == check && filepath.Base(is.Pos.Filename) == "app.go" && is.Pos.Line == line
		})
		if !found {
			t.Errorf("no %s finding at app/app.go:%d, which needs lib's facts\n%s%s", check, line, r.stdout, r.stderr)
		}
	}
}

// resolverpool's facts about interface implementations and retry helpers
// travel in golangci-lint too: in package relay of testdata/e2e/jobs, a
// worker pool calling a Sink and a slot held while retry.Do sleeps are found
// only through the facts of packages sinks and retry.
func TestGolangciLintResolverpoolTasks(t *testing.T) {
	bin := golangciLint(t)
	t.Parallel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../testdata/e2e/jobs")); err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, t.TempDir(), "golangci.yml", `version: "2"
linters:
  default: none
  enable:
    - resolverpool
  settings:
    custom:
      resolverpool:
        type: module
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
`)
	r := lint(t, bin, dir, "run", "--config="+cfg, "./...")
	want := markersIn(t, filepath.Join(dir, "relay", "relay.go"))
	texts := map[string]string{
		"iface": "runs slow work (sinks.file.Write → os.WriteFile) beside work that resolves hostnames (sinks.remote.Write → http.Post)",
		"held":  "holds a slot while a task waits between attempts (retry.Do → time.Sleep)",
	}
	if len(want) != len(texts) {
		t.Fatalf("relay.go marks %v, want %d markers", want, len(texts))
	}
	for m, line := range want {
		found := slices.ContainsFunc(r.issues, func(is issue) bool {
			return is.FromLinter == "resolverpool" && filepath.Base(is.Pos.Filename) == "relay.go" && is.Pos.Line == line &&
				strings.Contains(is.Text, texts[m])
		})
		if !found {
			t.Errorf("no %s finding at relay/relay.go:%d, which needs the facts of sinks and retry\n%s%s", m, line, r.stdout, r.stderr)
		}
	}
}

// Every check of the suite loads and runs as a custom linter, together, with
// default settings (checks with facts or shared prerequisites included), and
// chansize's findings are unchanged by the company. Once resolverpool is in
// the suite, its cross-package finding shows that golangci-lint carries its
// facts from package lib to package app.
func TestGolangciLintEveryCheck(t *testing.T) {
	bin := golangciLint(t)
	t.Parallel()
	dir := copyModule(t)
	want := markers(t, dir)

	cfg := writeConfig(t, t.TempDir(), "golangci.yml", linterConfig(allChecks()))

	r := lint(t, bin, dir, "run", "--config="+cfg, "./...")
	if r.code != 1 {
		t.Errorf("exit code %d, want 1 (findings)\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got, exp := chansizeLines(t, r), []int{want["frames"]}; !slices.Equal(got, exp) {
		t.Errorf("chansize reported lines %v, want %v\n%s%s", got, exp, r.stdout, r.stderr)
	}
	for _, is := range r.issues {
		if !slices.ContainsFunc(analyzers.All, func(a *analysis.Analyzer) bool { return a.Name == is.FromLinter }) {
			t.Errorf("issue from %q, which is not a queuecheck check: %s:%d: %s", is.FromLinter, is.Pos.Filename, is.Pos.Line, is.Text)
		}
	}
	if slices.ContainsFunc(analyzers.All, func(a *analysis.Analyzer) bool { return a.Name == "resolverpool" }) {
		line := markersIn(t, filepath.Join(dir, "app", "app.go"))["resolverpool"]
		found := slices.ContainsFunc(r.issues, func(is issue) bool {
			return is.FromLinter == "resolverpool" && filepath.Base(is.Pos.Filename) == "app.go" && is.Pos.Line == line &&
				!strings.Contains(is.Text, "(related information)")
		})
		if !found {
			t.Errorf("no resolverpool finding at app/app.go:%d, which needs lib's facts\n%s%s", line, r.stdout, r.stderr)
		}
	} else {
		t.Log("resolverpool is not in analyzers.All yet: its cross-package (facts) finding is not checked")
	}

	// The checks are listed as enabled, under their own names.
	r = golangci(t, bin, dir, "linters", "--config="+cfg)
	enabled, _, _ := strings.Cut(r.stdout, "Disabled by your configuration")
	for _, a := range analyzers.All {
		if !regexp.MustCompile(`(?m)^` + a.Name + `\b`).MatchString(enabled) {
			t.Errorf("golangci-lint linters does not list %s as enabled:\n%s%s", a.Name, r.stdout, r.stderr)
		}
	}
}

// The project's own .golangci.yml, which .ci/run lints the project with,
// enables every check of the suite.
func TestDogfoodConfigEnablesEveryCheck(t *testing.T) {
	bin := golangciLint(t)
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	r := golangci(t, bin, root, "linters", "--config="+filepath.Join(root, ".golangci.yml"))
	if r.code != 0 {
		t.Fatalf("golangci-lint linters: exit code %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	enabled, _, _ := strings.Cut(r.stdout, "Disabled by your configuration")
	for _, a := range analyzers.All {
		if !regexp.MustCompile(`(?m)^` + a.Name + `\b`).MatchString(enabled) {
			t.Errorf(".golangci.yml does not enable %s; add under linters.settings.custom:\n      %s:\n        type: module\n        description: ...\n        original-url: github.com/queuecheck/queuecheck\n\ngolangci-lint linters says:\n%s%s",
				a.Name, a.Name, r.stdout, r.stderr)
		}
	}
}

// A directive that names no check is reported once, by one enabled linter:
// the check it misspells when that one runs, otherwise another. golangci-lint
// tells a plugin which linters it constructs (those configured under
// linters.settings.custom), not which it enables, so a directive nearest a
// check configured but not enabled goes unreported, as docs/golangci-lint.md
// says.
func TestGolangciLintUnknownDirective(t *testing.T) {
	bin := golangciLint(t)
	t.Parallel()
	dir := copyModule(t)
	src := "package queue\n\n//queuecheck:ignore chansise a misspelling\nvar tiny = make(chan int, 1)\n"
	writeConfig(t, filepath.Join(dir, "queue"), "typo.go", src)
	const text = "//queuecheck:ignore names unknown check chansise; did you mean chansize?"

	all := allChecks()
	tests := []struct {
		name      string
		enable    []string
		configure []string // besides those enabled
		by        string   // the linter that reports it; "" for none
	}{
		{"every check", all, nil, "chansize"},
		{"only waittiming", []string{"waittiming"}, nil, "waittiming"},
		{"all but chansize", all[1:], nil, "any"},
		{"chansize configured, not enabled", []string{"waittiming"}, []string{"chansize"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := writeConfig(t, t.TempDir(), "golangci.yml", linterConfig(tt.enable, tt.configure...))
			r := lint(t, bin, dir, "run", "--config="+cfg, "./...")
			var by []string
			for _, is := range r.issues {
				if is.Text == text {
					if filepath.Base(is.Pos.Filename) != "typo.go" || is.Pos.Line != 3 {
						t.Errorf("reported at %s:%d, want typo.go:3", is.Pos.Filename, is.Pos.Line)
					}
					by = append(by, is.FromLinter)
				}
			}
			switch {
			case tt.by == "" && len(by) != 0:
				t.Errorf("reported by %v, want no report", by)
			case tt.by != "" && len(by) != 1:
				t.Errorf("reported by %v, want exactly one linter\n%s%s", by, r.stdout, r.stderr)
			case tt.by != "" && tt.by != "any" && by[0] != tt.by:
				t.Errorf("reported by %s, want %s", by[0], tt.by)
			case tt.by == "any" && !slices.Contains(tt.enable, by[0]):
				t.Errorf("reported by %s, which is not enabled", by[0])
			}
		})
	}
}

// A list of functions in the settings is checked as the flag checks it: a
// malformed name stops the run with an error naming the setting, and a name
// that names nothing is warned about once on standard error.
func TestGolangciLintFunctionListSettings(t *testing.T) {
	bin := golangciLint(t)
	t.Parallel()
	dir := copyModule(t)
	configWith := func(waits string) string {
		return "version: \"2\"\nlinters:\n  default: none\n  enable: [retrysend]\n  settings:\n    custom:\n      retrysend:\n        type: module\n        settings:\n          waits: " + waits + "\n"
	}

	cfg := writeConfig(t, t.TempDir(), "golangci.yml", configWith(`["queuecheck.example/gcllint/lib.Dial", "Sleep"]`))
	r := lint(t, bin, dir, "run", "--config="+cfg, "./...")
	out := r.stdout + r.stderr
	if r.code == 0 || r.code == 1 || !strings.Contains(out, `setting "waits"`) || !strings.Contains(out, `"Sleep" is not a function name`) {
		t.Errorf("malformed name: exit code %d, want a failure naming the setting and the name\n%s", r.code, out)
	}

	const warning = "queuecheck: warning: -retrysend.waits: queuecheck.example/gcllint/lib.Dail names nothing: package queuecheck.example/gcllint/lib has no function Dail"
	cfg = writeConfig(t, t.TempDir(), "golangci.yml", configWith(`"queuecheck.example/gcllint/lib.Dail"`))
	r = lint(t, bin, dir, "run", "--config="+cfg, "./...")
	if n := strings.Count(r.stderr, warning); n != 1 {
		t.Errorf("warned %d times, want once (lib and app both have lib in view)\n%s%s", n, r.stdout, r.stderr)
	}
}
