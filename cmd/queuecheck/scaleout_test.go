package main_test

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestScaleOutSharedVetCache simulates CI machines that share go vet's cache
// through GOCACHEPROG (internal/cacheprog, on a directory standing in for a
// bucket), each with an empty GOCACHE of its own, as docs/scale-out.md
// describes:
//
//   - machine 1 vets testdata/e2e/chans: queuecheck analyzes every package;
//   - machine 2 vets a fresh copy at the same path: go vet takes every
//     package's findings and facts from the shared cache, never runs
//     queuecheck on a package, and prints the same findings and exit status;
//   - machine 3 vets a copy at another path: the package directory is part of
//     the cache key, so queuecheck analyzes every package again;
//   - with -trimpath the directory leaves the key, and machine 3 is served
//     machine 1's findings, which name machine 1's files.
//
// The vet tool is a wrapper script that logs its arguments and execs
// queuecheck, so the test sees which packages queuecheck analyzed.
func TestScaleOutSharedVetCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cacheprog and runs go vet five times")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the vet tool wrapper is a shell script")
	}
	tools := t.TempDir()
	cacheprog := filepath.Join(tools, "cacheprog")
	run(t, ".", "go", "build", "-o", cacheprog, "../../internal/cacheprog").want(t, 0)

	// The wrapper passes every argument through, including -V=full: go vet
	// keys its cache by the hash queuecheck prints for -V=full, which is the
	// hash of the queuecheck executable, not of the script.
	log := filepath.Join(tools, "invocations")
	wrapper := filepath.Join(tools, "queuecheck-logged")
	script := "#!/bin/sh\necho \"$*\" >> " + shellQuote(log) + "\nexec " + shellQuote(bin) + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}

	shared := t.TempDir() // the remote cache
	for _, p := range []string{cacheprog, shared} {
		if strings.ContainsAny(p, "\"' \t") {
			t.Skipf("GOCACHEPROG cannot quote the path %q", p)
		}
	}

	type machine struct {
		r       result
		cfgs    int // packages queuecheck analyzed
		elapsed time.Duration
	}
	vet := func(dir string, flags ...string) machine {
		t.Helper()
		t.Setenv("GOCACHE", t.TempDir()) // a new machine: empty local cache
		t.Setenv("GOCACHEPROG", `"`+cacheprog+`" "`+shared+`"`)
		if err := os.WriteFile(log, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		args := append(append([]string{"vet", "-vettool=" + wrapper}, flags...), "./...")
		start := time.Now()
		r := run(t, dir, "go", args...)
		m := machine{r: r, elapsed: time.Since(start)}
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		versioned := false
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasSuffix(line, ".cfg") {
				m.cfgs++
			}
			versioned = versioned || line == "-V=full"
		}
		if !versioned {
			t.Errorf("go vet did not ask the vet tool for -V=full:\n%s", data)
		}
		return m
	}

	dir := module(t, "chans")
	m1 := vet(dir)
	m1.r.want(t, 1)
	if !eventsFinding.MatchString(m1.r.stderr) || !jobsFinding.MatchString(m1.r.stderr) {
		t.Fatalf("machine 1: missing findings:\n%s", m1.r.stderr)
	}
	if m1.cfgs != 3 {
		t.Errorf("machine 1: queuecheck analyzed %d packages, want the module's 3", m1.cfgs)
	}

	// Machine 2 checks out the same commit at the same path.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dir, os.DirFS(module(t, "chans"))); err != nil {
		t.Fatal(err)
	}
	m2 := vet(dir)
	if m2.cfgs != 0 {
		t.Errorf("machine 2: queuecheck analyzed %d packages; the shared cache should have served them all", m2.cfgs)
	}
	if !sameFindings(m2.r, m1.r) {
		t.Errorf("machine 2 differs from machine 1:\nexit %d, %d\nmachine 1:\n%s\nmachine 2:\n%s", m1.r.code, m2.r.code, m1.r.stderr, m2.r.stderr)
	}
	t.Logf("machine 1 (cold) %v, machine 2 (served from the shared cache) %v", m1.elapsed.Round(time.Millisecond), m2.elapsed.Round(time.Millisecond))

	// Machine 3 checks out the same commit at another path.
	other := module(t, "chans")
	m3 := vet(other)
	if m3.cfgs != m1.cfgs || !sameFindings(m3.r, m1.r) {
		t.Errorf("machine 3 (another path): queuecheck analyzed %d packages, want %d; exit %d\n%s", m3.cfgs, m1.cfgs, m3.r.code, m3.r.stderr)
	}

	// -trimpath takes the directory out of the key, but not out of the
	// cached findings: machine 3 then reports machine 1's files.
	m4 := vet(dir, "-trimpath")
	m5 := vet(other, "-trimpath")
	if m4.cfgs != 3 || !sameFindings(m4.r, m1.r) {
		t.Errorf("-trimpath, machine 1: queuecheck analyzed %d packages; exit %d\n%s", m4.cfgs, m4.r.code, m4.r.stderr)
	}
	if m5.cfgs != 0 || eventsFinding.MatchString(m5.r.stderr) || !strings.Contains(m5.r.stderr, "chans.go:10:14: channel buffer") {
		t.Errorf("-trimpath, machine 3 at another path: queuecheck analyzed %d packages (want 0) and printed\n%s\n"+
			"want machine 1's findings under machine 1's paths; if go vet changed this, update docs/scale-out.md", m5.cfgs, m5.r.stderr)
	}
}

// sameFindings reports whether two go vet runs exited alike and printed the
// same lines: go vet prints each package's findings when its analysis (or
// cache lookup) completes, so packages may come out in any order.
func sameFindings(a, b result) bool {
	lines := func(s string) []string {
		l := strings.Split(s, "\n")
		slices.Sort(l)
		return l
	}
	return a.code == b.code && slices.Equal(lines(a.stdout), lines(b.stdout)) && slices.Equal(lines(a.stderr), lines(b.stderr))
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
