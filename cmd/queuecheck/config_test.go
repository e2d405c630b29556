package main_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/queuecheck/queuecheck/internal/e2etest"
)

// configMarkers returns the findings testdata/e2e/config's queuecheck.toml
// files call for: "FILE:LINE" of every line marked "// want:NAME", sorted.
func configMarkers(t *testing.T, dir string) []string {
	t.Helper()
	want, err := e2etest.WantLines(dir)
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// fileLines returns the "FILE:LINE" of each finding of JSON output (go
// vet's or standalone), FILE relative to dir, sorted.
func fileLines(t *testing.T, mode, dir, out string) []string {
	t.Helper()
	var got []string
	for _, posns := range findingPositions(t, mode, out) {
		for _, posn := range posns {
			name, line := splitPosn(posn)
			if rel, err := filepath.Rel(dir, name); err == nil && !filepath.IsAbs(rel) {
				name = rel
			}
			got = append(got, filepath.ToSlash(name)+":"+line)
		}
	}
	slices.Sort(got)
	return got
}

// splitPosn splits "file:line:col" into file and line.
func splitPosn(posn string) (file, line string) {
	parts := strings.Split(posn, ":")
	if len(parts) < 3 {
		return posn, ""
	}
	return strings.Join(parts[:len(parts)-2], ":"), parts[len(parts)-2]
}

// TestConfigFile runs testdata/e2e/config, whose queuecheck.toml files turn
// checks off by path, set a check's flag in the module and again nearer a
// package, and add a function to a list, standalone and under go vet: both
// report exactly the marked lines.
func TestConfigFile(t *testing.T) {
	dir := module(t, "config")
	want := configMarkers(t, dir)
	if len(want) != 3 {
		t.Fatalf("testdata/e2e/config marks %d findings, want 3: %v", len(want), want)
	}
	r := queuecheck(t, dir, "-json", "./...")
	r.want(t, 1)
	if got := fileLines(t, "standalone", dir, r.stdout); !slices.Equal(got, want) {
		t.Errorf("standalone: findings at %v, want %v\n%s%s", got, want, r.stdout, r.stderr)
	}
	v := run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	if got := fileLines(t, "go vet", dir, v.stdout); !slices.Equal(got, want) {
		t.Errorf("go vet: findings at %v, want %v\n%s%s", got, want, v.stdout, v.stderr)
	}

	// The command line overrides the files everywhere: a max above every
	// buffer silences chansize, nearer files and overrides included.
	r = queuecheck(t, dir, "-chansize.max=100000", "./...")
	if strings.Contains(r.stdout, "channel buffer") {
		t.Errorf("-chansize.max=100000 did not override the files:\n%s", r.stdout)
	}
	v = run(t, dir, "go", "vet", "-vettool="+bin, "-chansize.max=100000", "./...")
	if strings.Contains(v.stderr, "channel buffer") {
		t.Errorf("go vet -chansize.max=100000 did not override the files:\n%s", v.stderr)
	}

	// -config-dump says where each value comes from.
	r = queuecheck(t, dir, "-config-dump", "./...")
	r.want(t, 0)
	for _, s := range []string{
		"# packages example.com/config/sub (sub)",
		"max = 50000  # sub/queuecheck.toml:4",
		`checks = ["unboundedqueue", "retrysend", "resolverpool"]  # queuecheck.toml:9`,
		`slow = ["example.com/config/store.Put"]  # crawl/queuecheck.toml:4`,
	} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("-config-dump lacks %q:\n%s", s, r.stdout)
		}
	}
	r = queuecheck(t, filepath.Join(dir, "sub"), "-explain", "chansize")
	if !strings.Contains(r.stdout, "-chansize.max=50000 (queuecheck.toml:4)") {
		t.Errorf("-explain chansize in sub does not show its setting:\n%s", r.stdout)
	}

	// -config replaces the files: this one turns chansize off and names
	// the slow function everywhere.
	alone := filepath.Join(t.TempDir(), "alone.toml")
	if err := os.WriteFile(alone, []byte("checks = [\"inherit\", \"-chansize\"]\n[resolverpool]\nslow = \"example.com/config/store.Put\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = queuecheck(t, dir, "-json", "-config="+alone, "./...")
	if got := fileLines(t, "-config", dir, r.stdout); !slices.Equal(got, []string{"crawl/crawl.go:21"}) {
		t.Errorf("-config: findings at %v, want crawl/crawl.go:21 only\n%s%s", got, r.stdout, r.stderr)
	}
}

// A changed queuecheck.toml is seen by go vet's cache: the vet tool's
// identity (-V=full) covers the module's configuration files.
func TestConfigFileVetCache(t *testing.T) {
	dir := module(t, "config")
	id := func() string {
		t.Helper()
		r := queuecheck(t, dir, "-V=full")
		r.want(t, 0)
		return r.stdout[strings.LastIndex(r.stdout, "buildID="):]
	}
	before := id()
	v := run(t, dir, "go", "vet", "-vettool="+bin, "./sub")
	if !strings.Contains(v.stderr, "sub/sub.go:8:") {
		t.Fatalf("go vet ./sub: want the finding at sub.go:8:\n%s", v.stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "queuecheck.toml"), []byte("[chansize]\nmax = 100000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if id() == before {
		t.Errorf("-V=full did not change with sub/queuecheck.toml")
	}
	v = run(t, dir, "go", "vet", "-vettool="+bin, "./sub")
	if v.code != 0 || strings.Contains(v.stderr, "sub.go") {
		t.Errorf("go vet ./sub after raising max: want no finding (a stale cache entry?), got status %d:\n%s", v.code, v.stderr)
	}
}

// A bad file is status 2 standalone and fails the package under go vet,
// naming the file, line and key either way.
func TestConfigFileErrors(t *testing.T) {
	dir := module(t, "config")
	if err := os.WriteFile(filepath.Join(dir, "sub", "queuecheck.toml"), []byte("[chansize]\nmax = 1\nmaxbyte = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := queuecheck(t, dir, "./...")
	r.want(t, 2)
	want := `sub/queuecheck.toml:3: chansize.maxbyte: chansize has no flag "maxbyte"; did you mean maxbytes?`
	if !strings.Contains(filepath.ToSlash(r.stderr), want) {
		t.Errorf("standalone: want %q in:\n%s", want, r.stderr)
	}
	r = queuecheck(t, dir, "-config-dump", "./...")
	r.want(t, 2)
	v := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if v.code == 0 || !strings.Contains(filepath.ToSlash(v.stderr), want) {
		t.Errorf("go vet: want a failure naming %q, got status %d:\n%s", want, v.code, v.stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "queuecheck.toml"), []byte("checks = [\"inherit\", \"-chansise\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = queuecheck(t, dir, "./...")
	r.want(t, 2)
	if want := `sub/queuecheck.toml:1: checks: unknown check "chansise"; did you mean chansize?`; !strings.Contains(filepath.ToSlash(r.stderr), want) {
		t.Errorf("want %q in:\n%s", want, r.stderr)
	}
}
