package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoTool installs queuecheck as a Go 1.24 tool dependency of a module
// that requires this checkout through a replace directive, as the README's
// Install section says, and runs it both ways: go tool queuecheck, and go
// vet with go tool -n queuecheck as the vet tool.
func TestGoTool(t *testing.T) {
	checkout, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := module(t, "chans")
	gomod := "module example.com/chans\n\ngo 1.26\n\n" +
		"require github.com/queuecheck/queuecheck v0.0.0\n\n" +
		"replace github.com/queuecheck/queuecheck => " + filepath.ToSlash(checkout) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	// The version is the replaced requirement's: go get would otherwise
	// ask the module proxy for the latest release.
	run(t, dir, "go", "get", "-tool", "github.com/queuecheck/queuecheck/cmd/queuecheck@v0.0.0").want(t, 0)
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\ntool github.com/queuecheck/queuecheck/cmd/queuecheck\n") {
		t.Fatalf("go get -tool did not add the tool directive:\n%s", data)
	}

	want := queuecheck(t, dir, "./...")
	want.want(t, 1)
	r := run(t, dir, "go", "tool", "queuecheck", "./...")
	r.want(t, 1)
	if r.stdout != want.stdout {
		t.Errorf("go tool queuecheck printed\n%s\nwant\n%s", r.stdout, want.stdout)
	}

	n := run(t, dir, "go", "tool", "-n", "queuecheck")
	n.want(t, 0)
	tool := strings.TrimSpace(n.stdout)
	v := run(t, dir, "go", "vet", "-vettool="+tool, "./...")
	v.want(t, 1)
	for _, line := range strings.Split(strings.TrimSpace(want.stdout), "\n") {
		if !strings.Contains(v.stderr, line) {
			t.Errorf("go vet -vettool=$(go tool -n queuecheck) does not report %q:\n%s", line, v.stderr)
		}
	}
}
