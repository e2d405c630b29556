package main_test

import (
	"path/filepath"
	"testing"
)

// TestWaittimingRetriesAcrossPackages checks that waittiming's retries fact
// crosses a package boundary: package app times a call of lib.Fetch, whose
// loop sleeps between attempts, beside a twin that times lib.FetchOnce.
// Only the finding marked "want:waittiming" is reported, standalone and
// under go vet, whose vetx files carry the fact.
func TestWaittimingRetriesAcrossPackages(t *testing.T) {
	dir := module(t, "retries")
	file := filepath.Join(dir, "app", "app.go")
	want := markedLines(t, file, "waittiming")
	if len(want) != 1 {
		t.Fatalf("app.go marks %d lines, want 1: %v", len(want), want)
	}
	r := queuecheck(t, dir, "-json", "./...")
	r.want(t, 1)
	checkLines(t, "standalone", r.stdout, "app.go", "waittiming", want)
	if got := findingPositions(t, "standalone", r.stdout)["waittiming"]; len(got) != 1 {
		t.Errorf("standalone: waittiming findings %v, want only app.go:%d", got, want[0])
	}

	v := run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	checkLines(t, "go vet", v.stdout, "app.go", "waittiming", want)
}
