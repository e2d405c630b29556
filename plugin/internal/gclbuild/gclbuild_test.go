package gclbuild

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestKeyIsStableAndNamesTheVersion(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	k1, err := Key(root)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := Key(root)
	if err != nil {
		t.Fatal(err)
	}
	if k1 != k2 || len(k1) != 24 {
		t.Errorf("Key = %q then %q, want one 24-digit key", k1, k2)
	}
	v, err := GolangciLintVersion(root)
	if err != nil {
		t.Fatal(err)
	}
	if v != "v2.15.0" {
		t.Errorf("the main module requires golangci-lint %s; the docs and tests say v2.15.0", v)
	}
}

func TestCacheDirOverride(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("QUEUECHECK_GCL_CACHE", dir)
	got, err := CacheDir()
	if err != nil || got != dir {
		t.Errorf("CacheDir() = %q, %v; want %q", got, err, dir)
	}
}

func TestPruneKeepsTheMostRecent(t *testing.T) {
	cache := t.TempDir()
	old := time.Now().Add(-48 * time.Hour)
	for i, name := range []string{"a", "b", "c", "d", "e", "current", "build-1"} {
		p := filepath.Join(cache, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		at := old.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	prune(cache, filepath.Join(cache, "current"))
	for _, name := range []string{"c", "d", "e", "current"} {
		if _, err := os.Stat(filepath.Join(cache, name)); err != nil {
			t.Errorf("%s pruned, want kept", name)
		}
	}
	for _, name := range []string{"a", "b", "build-1"} {
		if _, err := os.Stat(filepath.Join(cache, name)); err == nil {
			t.Errorf("%s kept, want pruned", name)
		}
	}
}
