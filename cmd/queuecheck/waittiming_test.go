package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWaittimingFactsAcrossPackages checks the waittiming cases of package
// app that only lib's facts explain — a wait behind a method of no known
// shape, a timer written by hand, a pause between attempts — standalone and
// under go vet, whose vetx files carry the facts. Each is marked
// "want:waittiming" on its line of app/timing.go.
func TestWaittimingFactsAcrossPackages(t *testing.T) {
	dir := module(t, "facts")
	file := filepath.Join(dir, "app", "timing.go")
	want := markedLines(t, file, "waittiming")
	if len(want) != 3 {
		t.Fatalf("timing.go marks %d lines, want 3: %v", len(want), want)
	}
	r := queuecheck(t, dir, "-json", "./...")
	r.want(t, 1)
	checkLines(t, "standalone", r.stdout, "timing.go", "waittiming", want)

	v := run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	checkLines(t, "go vet", v.stdout, "timing.go", "waittiming", want)
}

// markedLines returns the lines of file marked "want:check".
func markedLines(t *testing.T, file, check string) []int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for i, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, "// want:"+check) {
			lines = append(lines, i+1)
		}
	}
	return lines
}

// checkLines requires, in JSON output (standalone or go vet's), a finding
// of check at each of the lines of the file named base.
func checkLines(t *testing.T, mode, out, base, check string, lines []int) {
	t.Helper()
	got := findingPositions(t, mode, out)[check]
	for _, line := range lines {
		suffix := fmt.Sprintf("%s:%d:", base, line)
		if !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, suffix) }) {
			t.Errorf("%s: no %s finding at %s:%d, which needs lib's facts; got %v", mode, check, base, line, got)
		}
	}
}
