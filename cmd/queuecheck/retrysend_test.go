package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRetrySendAcrossPackages checks retrysend's retries of try-send helpers
// of another package (module testdata/e2e/trysend), which only the
// admission facts reveal: standalone and under go vet, whose vetx files
// carry the facts, every marked loop is found; go vet -fix replaces those
// with a fix by the blocking sibling, the module still builds, and only the
// findings marked nofix remain.
func TestRetrySendAcrossPackages(t *testing.T) {
	dir := module(t, "trysend")
	app := filepath.Join(dir, "app", "app.go")
	all, nofix := retrysendMarkers(t, app)
	if len(all) != 3 || len(nofix) != 1 {
		t.Fatalf("app.go marks %v (%v without a fix), want 3 and 1", all, nofix)
	}
	r := queuecheck(t, dir, "-json", "./...")
	r.want(t, 1)
	if got := retrysendLines(t, r.stdout); !slices.Equal(got, all) {
		t.Errorf("standalone: retrysend findings on app.go lines %v, want %v\n%s", got, all, r.stdout)
	}
	v := run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	if got := retrysendLines(t, v.stdout); !slices.Equal(got, all) {
		t.Errorf("go vet: retrysend findings on app.go lines %v, want %v\n%s%s", got, all, v.stdout, v.stderr)
	}

	run(t, dir, "go", "vet", "-vettool="+bin, "-fix", "./...")
	run(t, dir, "go", "build", "./...").want(t, 0)
	fixed, err := os.ReadFile(app)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fixed), "q.Push(v)") {
		t.Errorf("the fix does not call Push:\n%s", fixed)
	}
	_, nofix = retrysendMarkers(t, app) // lines moved with the fixes
	v = run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	if got := retrysendLines(t, v.stdout); !slices.Equal(got, nofix) {
		t.Errorf("after -fix: retrysend findings on app.go lines %v, want only %v\n%s", got, nofix, v.stdout)
	}
}

// retrysendMarkers returns the lines of file marked "want:retrysend", and
// those of them marked nofix too.
func retrysendMarkers(t *testing.T, file string) (all, nofix []int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		if _, mark, ok := strings.Cut(line, "// want:retrysend"); ok {
			all = append(all, i+1)
			if strings.TrimSpace(mark) == "nofix" {
				nofix = append(nofix, i+1)
			}
		}
	}
	return all, nofix
}

// retrysendLines returns the lines of app/app.go that retrysend reports in
// JSON output (the shape go vet -json prints), in order.
func retrysendLines(t *testing.T, out string) []int {
	t.Helper()
	var objects []string
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "#") {
			objects = append(objects, line)
		}
	}
	dec := json.NewDecoder(strings.NewReader(strings.Join(objects, "\n")))
	var lines []int
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			t.Fatalf("reading JSON: %v\n%s", err, out)
		}
		for _, byCheck := range tree {
			var ds []struct{ Posn string }
			if json.Unmarshal(byCheck["retrysend"], &ds) != nil {
				continue
			}
			for _, d := range ds {
				var line, col int
				_, posn, ok := strings.Cut(d.Posn, "app.go:")
				if ok {
					if _, err := fmt.Sscanf(posn, "%d:%d", &line, &col); err == nil {
						lines = append(lines, line)
					}
				}
			}
		}
	}
	slices.Sort(lines)
	return lines
}
