// Package gclbuild builds a golangci-lint v2 with queuecheck's plugin compiled
// in, from the Go module proxy alone, and keeps it in a cache directory.
//
// The main module it builds is testdata/golangci/gcl of the checkout: a copy
// of upstream's cmd/golangci-lint/main.go that blank-imports
// github.com/queuecheck/queuecheck/plugin, with a go.mod requiring
// golangci-lint and replacing queuecheck with the checkout. The binary is
// keyed by a hash of everything that goes into it: the Go toolchain, that main
// module, the checkout's go.mod and go.sum, and the source of every package of
// the checkout the plugin imports. A cold build takes a few minutes; a cached
// one is found in well under a second.
//
// The cache lives in $QUEUECHECK_GCL_CACHE, or else queuecheck-gcl under the
// user cache directory (os.UserCacheDir). The few most recently used binaries
// are kept there.
package gclbuild

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// TemplateDir is the main module's directory, relative to the checkout.
const TemplateDir = "testdata/golangci/gcl"

const (
	modulePath = "github.com/queuecheck/queuecheck"
	pluginPkg  = modulePath + "/plugin"
	gclModule  = "github.com/golangci/golangci-lint/v2"
	keep       = 4 // binaries kept in the cache

	// recipe changes when the way the binary is built changes.
	recipe = "go build -ldflags=-s -w; v1"
)

// Binary returns the path of the custom golangci-lint for the checkout at
// root, building it if the cache has none for the checkout's current source.
// logf, if not nil, is told what takes time.
func Binary(root string, logf func(format string, args ...any)) (string, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	key, err := Key(root)
	if err != nil {
		return "", fmt.Errorf("hashing the plugin's inputs: %w", err)
	}
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, key)
	bin := filepath.Join(dir, "golangci-lint"+exeSuffix())
	if fi, err := os.Stat(bin); err == nil && fi.Mode().IsRegular() {
		now := time.Now()
		_ = os.Chtimes(dir, now, now) // most recently used
		return bin, nil
	}

	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	work, err := os.MkdirTemp(cache, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)

	if err := copyTemplate(filepath.Join(root, filepath.FromSlash(TemplateDir)), work); err != nil {
		return "", err
	}
	start := time.Now()
	if _, err := goCmd(work, "mod", "edit", "-replace="+modulePath+"="+root); err != nil {
		return "", err
	}
	logf("gclbuild: resolving the custom golangci-lint's modules (go mod tidy)")
	if _, err := goCmd(work, "mod", "tidy"); err != nil {
		return "", err
	}
	logf("gclbuild: building the custom golangci-lint into %s (a cold build takes a few minutes)", dir)
	tmp := filepath.Join(dir, fmt.Sprintf(".golangci-lint-%d%s", os.Getpid(), exeSuffix()))
	defer os.Remove(tmp)
	if _, err := goCmd(work, "build", "-ldflags=-s -w", "-o", tmp, "."); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	logf("gclbuild: built in %s", time.Since(start).Round(time.Second))
	prune(cache, dir)
	return bin, nil
}

// CacheDir returns the directory the binaries are kept in.
func CacheDir() (string, error) {
	if d := os.Getenv("QUEUECHECK_GCL_CACHE"); d != "" {
		return filepath.Abs(d)
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the custom golangci-lint (set QUEUECHECK_GCL_CACHE): %w", err)
	}
	return filepath.Join(d, "queuecheck-gcl"), nil
}

// GolangciLintVersion returns the golangci-lint version the main module
// requires.
func GolangciLintVersion(root string) (string, error) {
	out, err := goCmd(filepath.Join(root, filepath.FromSlash(TemplateDir)), "mod", "edit", "-json")
	if err != nil {
		return "", err
	}
	var mod struct {
		Require []struct{ Path, Version string }
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		return "", err
	}
	for _, r := range mod.Require {
		if r.Path == gclModule {
			return r.Version, nil
		}
	}
	return "", fmt.Errorf("%s/go.mod does not require %s", TemplateDir, gclModule)
}

// Key hashes everything the binary is built from.
func Key(root string) (string, error) {
	h := sha256.New()
	env, err := goCmd(root, "env", "GOVERSION", "GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT")
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "%s\ngo env\n%s\n", recipe, env)

	// Every file of the main module (its go.mod names the golangci-lint version).
	tmpl := filepath.Join(root, filepath.FromSlash(TemplateDir))
	entries, err := os.ReadDir(tmpl)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			if err := hashFile(h, tmpl, e.Name()); err != nil {
				return "", err
			}
		}
	}
	for _, name := range []string{"go.mod", "go.sum"} {
		if err := hashFile(h, root, name); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
	}

	// The source of every package of the checkout that the plugin imports.
	out, err := goCmd(root, "list", "-deps", "-json=ImportPath,Dir,Module,GoFiles,CgoFiles,EmbedFiles,SFiles,CFiles,HFiles", pluginPkg)
	if err != nil {
		return "", err
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Dir                                       string
			Module                                                *struct{ Path string }
			GoFiles, CgoFiles, EmbedFiles, SFiles, CFiles, HFiles []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return "", err
		}
		if p.Module == nil || p.Module.Path != modulePath {
			continue
		}
		files := slices.Concat(p.GoFiles, p.CgoFiles, p.EmbedFiles, p.SFiles, p.CFiles, p.HFiles)
		slices.Sort(files)
		fmt.Fprintf(h, "package %s\n", p.ImportPath)
		for _, f := range files {
			if err := hashFile(h, p.Dir, f); err != nil {
				return "", err
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

func hashFile(h io.Writer, dir, name string) error {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "file %s %d\n", filepath.ToSlash(name), len(data))
	_, err = h.Write(data)
	return err
}

// copyTemplate copies the main module's files (not a go.sum or binary left
// by building it in place) into work.
func copyTemplate(tmpl, work string) error {
	for _, name := range []string{"go.mod", "main.go"} {
		data, err := os.ReadFile(filepath.Join(tmpl, name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(work, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// goCmd runs the go command in dir, outside any workspace, and returns its
// standard output.
func goCmd(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s (in %s): %v\n%s", strings.Join(args, " "), dir, err, stderr.Bytes())
	}
	return out, nil
}

// prune removes all but the most recently used binaries, and build
// directories abandoned a day ago.
func prune(cache, current string) {
	entries, err := os.ReadDir(cache)
	if err != nil {
		return
	}
	type used struct {
		path string
		at   time.Time
	}
	var dirs []used
	for _, e := range entries {
		p := filepath.Join(cache, e.Name())
		fi, err := e.Info()
		if err != nil || !e.IsDir() || p == current {
			continue
		}
		if strings.HasPrefix(e.Name(), "build-") {
			if time.Since(fi.ModTime()) > 24*time.Hour {
				os.RemoveAll(p)
			}
			continue
		}
		dirs = append(dirs, used{p, fi.ModTime()})
	}
	slices.SortFunc(dirs, func(a, b used) int { return b.at.Compare(a.at) })
	for i, d := range dirs {
		if i >= keep-1 {
			os.RemoveAll(d.path)
		}
	}
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
