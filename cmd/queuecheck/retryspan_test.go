package main_test

import (
	"path/filepath"
	"testing"
)

// TestWaittimingRetriesAcrossPackages checks that waittiming's retries fact
// crosses a package boundary: package app times a call of lib.Fetch, whose
// loop sleeps between attempts, beside a twin that times lib.FetchOnce; and
// a call of the interface method lib.Placer.Place, whose only
// implementation is unexported and pauses with package pause's helper (two
// facts: the pause helper's, and the interface method's); and hands
// lib.Timed, which times a call of what it is handed (admission's timer
// helper fact), a literal that retries with sleeps. Only the findings
// marked "want:waittiming" are reported, standalone and under go vet, whose
// vetx files carry the facts.
func TestWaittimingRetriesAcrossPackages(t *testing.T) {
	wantAppFindings(t, "retries", 3)
}

// wantAppFindings runs queuecheck standalone and under go vet on the
// end-to-end module name, and requires waittiming findings at the n lines
// its app/app.go marks "want:waittiming", and, standalone, no other.
func wantAppFindings(t *testing.T, name string, n int) {
	t.Helper()
	dir := module(t, name)
	want := markedLines(t, filepath.Join(dir, "app", "app.go"), "waittiming")
	if len(want) != n {
		t.Fatalf("app.go marks %d lines, want %d: %v", len(want), n, want)
	}
	r := queuecheck(t, dir, "-json", "./...")
	r.want(t, 1)
	checkLines(t, "standalone", r.stdout, "app.go", "waittiming", want)
	if got := findingPositions(t, "standalone", r.stdout)["waittiming"]; len(got) != n {
		t.Errorf("standalone: waittiming findings %v, want only app.go:%v", got, want)
	}

	v := run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	checkLines(t, "go vet", v.stdout, "app.go", "waittiming", want)
}

// TestDepsFollowsOtherModules checks -deps: package app times a call of
// retrylib.Fetch, of another module (required through a replace), whose
// loop sleeps between attempts. Standalone follows it only with -deps, the
// retries fact then computed from the library's source; go vet always
// analyzes every dependency. The twin, FetchOnce, is never reported.
func TestDepsFollowsOtherModules(t *testing.T) {
	dir := module(t, "deps")
	want := markedLines(t, filepath.Join(dir, "app", "app.go"), "waittiming")
	if len(want) != 1 {
		t.Fatalf("app.go marks %d lines, want 1: %v", len(want), want)
	}
	without := queuecheck(t, dir, "-json", "./...")
	without.want(t, 0)
	with := queuecheck(t, dir, "-deps", "-json", "./...")
	with.want(t, 1)
	checkLines(t, "standalone -deps", with.stdout, "app.go", "waittiming", want)
	if got := findingPositions(t, "standalone -deps", with.stdout)["waittiming"]; len(got) != 1 {
		t.Errorf("standalone -deps: waittiming findings %v, want only app.go:%v", got, want)
	}
	v := run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	checkLines(t, "go vet", v.stdout, "app.go", "waittiming", want)
}
