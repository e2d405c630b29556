package plugin_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/queuecheck/queuecheck/internal/e2etest"
)

// TestConfigFileInEveryMode runs testdata/e2e/config — a module whose
// queuecheck.toml files turn a check off by path, set chansize's max in the
// module and again nearer a package, and add a slow function to
// resolverpool's list in one package — standalone, under go vet -vettool
// and in golangci-lint with every check enabled, and requires the same
// findings of all three: the lines the module marks "// want:NAME".
func TestConfigFileInEveryMode(t *testing.T) {
	gcl := golangciLint(t)
	t.Parallel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../testdata/e2e/config")); err != nil {
		t.Fatal(err)
	}
	want, err := e2etest.WantLines(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 3 {
		t.Fatalf("testdata/e2e/config marks %d findings, want 3: %v", len(want), want)
	}

	qc := filepath.Join(t.TempDir(), "queuecheck")
	if out, err := exec.Command("go", "build", "-o", qc, "../cmd/queuecheck").CombinedOutput(); err != nil {
		t.Fatalf("building queuecheck: %v\n%s", err, out)
	}

	standalone := command(t, dir, qc, "-json", "./...")
	vet := command(t, dir, "go", "vet", "-vettool="+qc, "-json", "./...")
	cfg := writeConfig(t, t.TempDir(), "golangci.yml", linterConfig(allChecks()))
	r := lint(t, gcl, dir, "run", "--config="+cfg, "./...")
	var golangci []string
	for _, is := range r.issues {
		if strings.Contains(is.Text, "(related information)") {
			continue // golangci-lint's copy of a related position
		}
		name := is.Pos.Filename
		if !filepath.IsAbs(name) {
			name = filepath.Join(filepath.Dir(cfg), name) // golangci-lint's paths are relative to its configuration
		}
		golangci = append(golangci, fmt.Sprintf("%s:%d", filepath.ToSlash(relTo(dir, name)), is.Pos.Line))
	}
	slices.Sort(golangci)

	for mode, got := range map[string][]string{
		"standalone":    vetJSONLines(t, dir, standalone),
		"go vet":        vetJSONLines(t, dir, vet),
		"golangci-lint": golangci,
	} {
		if !slices.Equal(got, want) {
			t.Errorf("%s: findings at %v, want %v\nstandalone:\n%s\ngo vet:\n%s\ngolangci-lint:\n%s%s", mode, got, want, standalone, vet, r.stdout, r.stderr)
		}
	}

	// A setting of .golangci.yml overrides the files: a max above every
	// buffer leaves only resolverpool's finding.
	cfg = writeConfig(t, t.TempDir(), "golangci.yml", strings.Replace(linterConfig(allChecks()),
		"      chansize:\n        type: module\n", "      chansize:\n        type: module\n        settings:\n          max: 100000\n", 1))
	r = lint(t, gcl, dir, "run", "--config="+cfg, "./...")
	for _, is := range r.issues {
		if is.FromLinter == "chansize" {
			t.Errorf(".golangci.yml's max did not override queuecheck.toml's: %s:%d: %s", is.Pos.Filename, is.Pos.Line, is.Text)
		}
	}

	// A bad file fails, naming file, line and key.
	if err := os.WriteFile(filepath.Join(dir, "queuecheck.toml"), []byte("[chansize]\nmaxbyte = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = lint(t, gcl, dir, "run", "--config="+cfg, "./...")
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, `queuecheck.toml:2: chansize.maxbyte: chansize has no flag "maxbyte"; did you mean maxbytes?`) {
		t.Errorf("golangci-lint with a bad queuecheck.toml: status %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func relTo(dir, name string) string {
	if rel, err := filepath.Rel(dir, name); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return name
}

// command runs name with args in dir and returns its standard output; a
// status other than 0 or 1 fails the test.
func command(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && (!errors.As(err, &exit) || exit.ExitCode() != 1) {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// vetJSONLines returns "FILE:LINE" of each finding in go vet's JSON (which
// queuecheck -json prints too), sorted.
func vetJSONLines(t *testing.T, dir, out string) []string {
	t.Helper()
	var objects []string
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "#") {
			objects = append(objects, line)
		}
	}
	var got []string
	dec := json.NewDecoder(strings.NewReader(strings.Join(objects, "\n")))
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			t.Fatalf("reading JSON: %v\n%s", err, out)
		}
		for _, byCheck := range tree {
			for _, raw := range byCheck {
				var ds []struct{ Posn string }
				if json.Unmarshal(raw, &ds) != nil {
					continue
				}
				for _, d := range ds {
					parts := strings.Split(d.Posn, ":")
					if len(parts) < 3 {
						continue
					}
					file := strings.Join(parts[:len(parts)-2], ":")
					got = append(got, filepath.ToSlash(relTo(dir, file))+":"+parts[len(parts)-2])
				}
			}
		}
	}
	slices.Sort(got)
	return got
}
