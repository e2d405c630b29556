package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The GitHub Action (action.yml) keeps its logic in action/queuecheck.sh;
// these tests run that script as the action's steps would, with the
// environment GitHub gives them.

var checkout = filepath.Join("..", "..")

// actionScript runs action/queuecheck.sh with arg in dir, with env added to
// this process's environment, and returns what it printed, its status and
// the step outputs it wrote.
func actionScript(t *testing.T, dir, arg string, env ...string) (result, map[string]string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the action's script is bash; GitHub runs it with bash on every runner, but this test needs a Unix bash")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	script, err := filepath.Abs(filepath.Join(checkout, "action", "queuecheck.sh"))
	if err != nil {
		t.Fatal(err)
	}
	outputs := filepath.Join(t.TempDir(), "github_output")
	cmd := exec.Command("bash", script, arg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GITHUB_OUTPUT="+outputs,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
		r.code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]string)
	data, _ := os.ReadFile(outputs)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			out[k] = v
		}
	}
	return r, out
}

// The run step on a pull request gates on the findings of the lines the
// branch changed since its merge base with the base branch (fetching that
// branch, as a shallow checkout lacks it), annotates them and writes SARIF
// of them.
func TestActionRun(t *testing.T) {
	dir := module(t, "chans")
	git := gitRepo(t, dir)
	git("remote", "add", "origin", dir) // fetching from itself stands in for GitHub
	git("checkout", "-q", "-b", "feature")
	appendTo(t, filepath.Join(dir, "chans.go"), "\nvar audit = make(chan Event, 200000)\n")
	git("commit", "-q", "-am", "audit buffer")

	pr := []string{"QUEUECHECK=" + bin, "GITHUB_EVENT_NAME=pull_request", "GITHUB_BASE_REF=main", "INPUT_PATTERNS=./...", "INPUT_SARIF_FILE=out/queuecheck.sarif"}
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, out := actionScript(t, dir, "run", pr...)
	r.want(t, 1)
	if !strings.Contains(r.stderr, "-new-from-merge-base=origin/main") {
		t.Errorf("the pull request was not gated on its merge base:\n%s", r.stderr)
	}
	if n := strings.Count(r.stdout, "::error "); n != 1 || !strings.Contains(r.stdout, "::error file=chans.go,line=15,") {
		t.Errorf("want one annotation, at chans.go:15:\n%s", r.stdout)
	}
	if out["status"] != "1" || out["sarif-file"] != filepath.Join(dir, "out", "queuecheck.sarif") && !strings.HasSuffix(out["sarif-file"], "/out/queuecheck.sarif") {
		t.Errorf("step outputs %v", out)
	}
	var sarif struct {
		Runs []struct{ Results []json.RawMessage }
	}
	data, err := os.ReadFile(filepath.Join(dir, "out", "queuecheck.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sarif); err != nil || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != 1 {
		t.Errorf("want SARIF with the one new finding: %v\n%s", err, data)
	}

	// fail-on-findings: false reports without failing.
	r, out = actionScript(t, dir, "run", append(pr, "INPUT_FAIL_ON_FINDINGS=false")...)
	r.want(t, 0)
	if out["status"] != "1" {
		t.Errorf("status output %q, want 1", out["status"])
	}

	// Outside a pull request, or with only-new false, every finding counts.
	r, _ = actionScript(t, dir, "run", "QUEUECHECK="+bin, "GITHUB_EVENT_NAME=push")
	r.want(t, 1)
	if n := strings.Count(r.stdout, "::error "); n != 3 {
		t.Errorf("on push: want 3 annotations, got:\n%s", r.stdout)
	}
	r, _ = actionScript(t, dir, "run", append(pr, "INPUT_ONLY_NEW=false")...)
	if n := strings.Count(r.stdout, "::error "); n != 3 {
		t.Errorf("only-new false: want 3 annotations, got:\n%s", r.stdout)
	}

	// A baseline gates instead; an explicit revision too.
	queuecheck(t, dir, "-write-baseline=base.json", "./...").want(t, 0)
	r, _ = actionScript(t, dir, "run", append(pr, "INPUT_BASELINE=base.json")...)
	r.want(t, 0)
	r, _ = actionScript(t, dir, "run", append(pr, "INPUT_NEW_FROM_REV=HEAD")...)
	r.want(t, 0)

	// The given configuration file is used: chansize off leaves nothing.
	if err := os.WriteFile(filepath.Join(dir, "off.toml"), []byte("checks = [\"inherit\", \"-chansize\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, _ = actionScript(t, dir, "run", "QUEUECHECK="+bin, "INPUT_CONFIG=off.toml", "INPUT_PATTERNS=./... ./worker")
	r.want(t, 0)

	// Two gates at once, no binary, a pattern that matches nothing: 2.
	r, _ = actionScript(t, dir, "run", append(pr, "INPUT_BASELINE=base.json", "INPUT_NEW_FROM_REV=HEAD")...)
	r.want(t, 2)
	r, _ = actionScript(t, dir, "run")
	r.want(t, 2)
	r, _ = actionScript(t, dir, "run", "QUEUECHECK="+bin, "INPUT_PATTERNS=./nosuchdir/...")
	r.want(t, 2)
}

// The install step builds queuecheck from the action's own checkout.
func TestActionInstall(t *testing.T) {
	actionPath, err := filepath.Abs(checkout)
	if err != nil {
		t.Fatal(err)
	}
	temp := t.TempDir()
	r, out := actionScript(t, temp, "install", "GITHUB_ACTION_PATH="+actionPath, "RUNNER_TEMP="+temp)
	r.want(t, 0)
	if out["bin"] == "" {
		t.Fatalf("no bin output:\n%s%s", r.stdout, r.stderr)
	}
	if v := run(t, temp, out["bin"], "-list"); v.code != 0 || !strings.Contains(v.stdout, "chansize") {
		t.Errorf("the installed binary does not run: %+v", v)
	}
	r, _ = actionScript(t, temp, "install", "RUNNER_TEMP="+temp)
	r.want(t, 2)
}

// action.yml passes every input to the script and the script reads nothing
// action.yml does not set, and the file references exist.
func TestActionMetadata(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(checkout, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	meta := string(data)
	script, err := os.ReadFile(filepath.Join(checkout, "action", "queuecheck.sh"))
	if err != nil {
		t.Fatal(err)
	}
	inputsPart, _, ok := strings.Cut(meta, "\noutputs:")
	if !ok {
		t.Fatal("action.yml has no outputs")
	}
	inputs := regexp.MustCompile(`(?m)^  ([a-z-]+):\n    description:`).FindAllStringSubmatch(inputsPart, -1)
	if len(inputs) < 10 {
		t.Fatalf("read %d inputs from action.yml", len(inputs))
	}
	passed := regexp.MustCompile(`(?m)^        (INPUT_[A-Z_]+): \$\{\{ (.*) \}\}$`).FindAllStringSubmatch(meta, -1)
	for _, in := range inputs {
		name := in[1]
		if name == "category" || name == "upload-sarif" {
			continue // used by the upload step, in action.yml itself
		}
		env := "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		if !slices.ContainsFunc(passed, func(p []string) bool { return p[1] == env && strings.Contains(p[2], "inputs."+name) }) {
			t.Errorf("input %s is not passed to the script as %s", name, env)
		}
		if !strings.Contains(string(script), env) {
			t.Errorf("the script does not read %s", env)
		}
	}
	for _, m := range regexp.MustCompile(`INPUT_[A-Z_]+`).FindAllString(string(script), -1) {
		if !strings.Contains(meta, m+":") {
			t.Errorf("the script reads %s, which action.yml does not set", m)
		}
	}
	if info, err := os.Stat(filepath.Join(checkout, "action", "queuecheck.sh")); err != nil || info.Mode()&0o111 == 0 {
		t.Errorf("action/queuecheck.sh must be executable: %v", err)
	}
}

// actionlint (a Go module, fetched from the module proxy) checks the
// repository's workflow and a workflow that uses the action, which makes it
// read action.yml's metadata and check the inputs given against it.
func TestActionlint(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches and builds actionlint; not in -short mode")
	}
	repo := t.TempDir()
	for _, name := range []string{"action.yml", "action/queuecheck.sh", ".github/workflows/queuecheck.yml"} {
		data, err := os.ReadFile(filepath.Join(checkout, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The docs/ci.md recipe, with the action referred to locally.
	recipe := `name: queuecheck
on: [pull_request]
permissions:
  contents: read
  security-events: write
jobs:
  queuecheck:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-go@v5
        with:
          go-version-file: go.mod
      - uses: ./
        id: qc
        with:
          patterns: ./...
          config: queuecheck.toml
          new-from-merge-base: origin/${{ github.base_ref }}
          flags: -chansize.maxbytes=4194304
      - if: always()
        run: echo "status ${{ steps.qc.outputs.status }}, ${{ steps.qc.outputs.sarif-file }}"
`
	if err := os.WriteFile(filepath.Join(repo, ".github", "workflows", "recipe.yml"), []byte(recipe), 0o644); err != nil {
		t.Fatal(err)
	}
	actionlint := func() ([]byte, error) {
		cmd := exec.Command("go", "run", "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12", "-shellcheck=", "-pyflakes=")
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
		return cmd.CombinedOutput()
	}
	git := exec.Command("git", "init", "-q")
	git.Dir = repo
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if out, err := actionlint(); err != nil {
		t.Errorf("actionlint: %v\n%s", err, out)
	}

	// actionlint does catch a wrong input: the check has teeth.
	bad := strings.Replace(recipe, "new-from-merge-base:", "new-from-merge-bse:", 1)
	if err := os.WriteFile(filepath.Join(repo, ".github", "workflows", "recipe.yml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := actionlint()
	if err == nil || !strings.Contains(string(out), "new-from-merge-bse") {
		t.Errorf("actionlint accepted an input action.yml does not declare:\n%s", out)
	}
}
