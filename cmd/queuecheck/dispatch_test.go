package main_test

import (
	"path/filepath"
	"testing"
)

// TestWaittimingDispatchAcrossPackages checks that the wait-inside fact
// crosses two package boundaries through dynamic calls: package connpool's
// interface method Pooler.Get has it from the one implementation that
// queues for a turn (the union, not every implementation); package client
// reaches it through a func type's receiver (cmdable), a func field (the
// hook) and the first attempt of a retry loop; package app times a ping
// and bounds one with a deadline. Both findings need both packages' facts,
// standalone and under go vet, whose vetx files carry them.
func TestWaittimingDispatchAcrossPackages(t *testing.T) {
	dir := module(t, "dispatch")
	file := filepath.Join(dir, "app", "app.go")
	want := markedLines(t, file, "waittiming")
	if len(want) != 2 {
		t.Fatalf("app.go marks %d lines, want 2: %v", len(want), want)
	}
	r := queuecheck(t, dir, "-json", "./...")
	r.want(t, 1)
	checkLines(t, "standalone", r.stdout, "app.go", "waittiming", want)
	if got := findingPositions(t, "standalone", r.stdout)["waittiming"]; len(got) != 2 {
		t.Errorf("standalone: waittiming findings %v, want only app.go:%v", got, want)
	}

	v := run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	checkLines(t, "go vet", v.stdout, "app.go", "waittiming", want)
}
