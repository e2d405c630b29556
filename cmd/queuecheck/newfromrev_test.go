package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes dir a git repository with everything in it committed on
// branch main, and returns a function running git there.
func gitRepo(t *testing.T, dir string) func(args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(),
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-q", "-m", "initial")
	return git
}

func appendTo(t *testing.T, file, text string) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func replaceIn(t *testing.T, file, old, new string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s has no %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNewFromRev gates on the findings of changed lines only: nothing when
// nothing changed; an uncommitted new buffer, a committed one and one in an
// untracked file; against a revision and against a merge base.
func TestNewFromRev(t *testing.T) {
	dir := module(t, "chans")
	git := gitRepo(t, dir)

	// Two findings in the tree, none changed.
	queuecheck(t, dir, "./...").want(t, 1)
	r := queuecheck(t, dir, "-new-from-rev=HEAD", "./...")
	r.want(t, 0)
	if r.stdout != "" {
		t.Errorf("nothing changed, yet:\n%s", r.stdout)
	}

	// An uncommitted buffer counts; the old findings stay out.
	appendTo(t, filepath.Join(dir, "chans.go"), "\nvar audit = make(chan Event, 200000)\n")
	r = queuecheck(t, dir, "-new-from-rev=HEAD", "./...")
	r.want(t, 1)
	if got := strings.TrimSpace(r.stdout); !strings.HasPrefix(got, "chans.go:15:") || strings.Count(got, "\n") != 0 {
		t.Errorf("want the one finding at chans.go:15, got:\n%s", r.stdout)
	}

	// Committed on a branch: against main's tip, and against the merge base
	// once main has moved on.
	git("checkout", "-q", "-b", "feature")
	git("commit", "-q", "-am", "audit buffer")
	for _, args := range [][]string{{"-new-from-rev=HEAD~1"}, {"-new-from-rev=main"}, {"-new-from-merge-base=main"}} {
		r = queuecheck(t, dir, append(args, "./...")...)
		r.want(t, 1)
		if !strings.HasPrefix(r.stdout, "chans.go:15:") || strings.Count(r.stdout, "\n") != 1 {
			t.Errorf("%s: want the one finding at chans.go:15, got:\n%s", args[0], r.stdout)
		}
	}
	git("checkout", "-q", "main")
	appendTo(t, filepath.Join(dir, "worker", "worker.go"), "\n// Cap is the queue's capacity.\nfunc Cap() int { return cap(Jobs) }\n")
	git("commit", "-q", "-am", "main moves on")
	git("checkout", "-q", "feature")
	r = queuecheck(t, dir, "-new-from-merge-base=main", "./...")
	r.want(t, 1)
	if !strings.HasPrefix(r.stdout, "chans.go:15:") || strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("-new-from-merge-base=main: want the one finding at chans.go:15, got:\n%s", r.stdout)
	}

	// An untracked file is new throughout.
	if err := os.WriteFile(filepath.Join(dir, "more.go"), []byte("package chans\n\nvar more = make(chan Event, 300000)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = queuecheck(t, dir, "-new-from-rev=HEAD", "./...")
	r.want(t, 1)
	if !strings.HasPrefix(r.stdout, "more.go:3:") || strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("want the one finding at more.go:3, got:\n%s", r.stdout)
	}

	// Bad input is status 2.
	for _, args := range [][]string{
		{"-new-from-rev=nosuchrev"},
		{"-new-from-merge-base=nosuchbranch"},
		{"-new-from-rev=HEAD", "-new-from-merge-base=main"},
		{"-new-from-rev=HEAD", "-write-baseline=b.json"},
	} {
		r = queuecheck(t, dir, append(args, "./...")...)
		r.want(t, 2)
	}
}

// TestNewFromRevRelated counts a finding whose related position changed: a
// slow task is old, but the resolving task beside it in the pool is new.
func TestNewFromRevRelated(t *testing.T) {
	dir := module(t, "pools")
	gitRepo(t, dir)
	crawl := filepath.Join(dir, "crawl", "crawl.go")

	// A comment changed above the finding: nothing new.
	replaceIn(t, crawl, "// Package crawl downloads", "// Package crawl fetches")
	r := queuecheck(t, dir, "-new-from-rev=HEAD", "./...")
	r.want(t, 0)

	// The resolving task's acquire changed: the slow work it now shares a
	// pool with is reported.
	replaceIn(t, crawl, "\tslots <- struct{}{}\n\tdefer func() { <-slots }()\n\treturn fetch.Page(url)", "\tslots <- struct{}{} // one slot per download\n\tdefer func() { <-slots }()\n\treturn fetch.Page(url)")
	r = queuecheck(t, dir, "-new-from-rev=HEAD", "./...")
	r.want(t, 1)
	if !strings.Contains(r.stdout, "crawl/crawl.go:22:2: token channel slots") {
		t.Errorf("want the finding whose related position changed, got:\n%s", r.stdout)
	}
}
