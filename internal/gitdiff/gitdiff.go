// Package gitdiff says which lines of a git working tree changed since a
// revision, so that a pull-request gate can report only the findings on
// them (-new-from-rev, -new-from-merge-base).
//
// It asks git, as golangci-lint's new-from-rev does: "git diff REV" compares
// the working tree (committed, staged and unstaged changes alike) with REV,
// and every line of an untracked file that git does not ignore is new.
package gitdiff

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Lines are the changed lines of a working tree, by absolute file name (with
// symbolic links resolved).
type Lines struct {
	files map[string]map[int]bool
	whole map[string]bool // untracked files: every line is new
}

// Changed returns the lines of the working tree around dir that changed since
// rev.
func Changed(dir, rev string) (*Lines, error) {
	root, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	root = strings.TrimSpace(root)
	if _, err := git(dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("-new-from-rev: %q is not a revision of the repository at %s", rev, root)
	}
	diff, err := git(root, "diff", "--no-color", "--no-ext-diff", "--no-renames", "--unified=0", "--src-prefix=a/", "--dst-prefix=b/", rev, "--")
	if err != nil {
		return nil, err
	}
	l := Parse([]byte(diff), root)
	untracked, err := git(root, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	root = resolved(root)
	for name := range strings.SplitSeq(untracked, "\x00") {
		if name != "" {
			l.whole[filepath.Join(root, filepath.FromSlash(name))] = true
		}
	}
	return l, nil
}

// MergeBase returns the best common ancestor of HEAD and branch: the
// revision a pull request from HEAD into branch is compared with.
func MergeBase(dir, branch string) (string, error) {
	out, err := git(dir, "merge-base", branch, "HEAD")
	if err != nil {
		return "", fmt.Errorf("-new-from-merge-base: %v", err)
	}
	return strings.TrimSpace(out), nil
}

// Parse reads the output of "git diff --unified=0" run in the directory root
// (file names "b/PATH"), recording the lines each hunk adds or changes.
func Parse(diff []byte, root string) *Lines {
	l := &Lines{files: make(map[string]map[int]bool), whole: make(map[string]bool)}
	root = resolved(root)
	var lines map[int]bool // of the file the hunks below belong to; nil for a deleted file
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		text := sc.Text()
		switch {
		case strings.HasPrefix(text, "+++ "):
			lines = nil
			name := unquote(strings.TrimPrefix(text, "+++ "))
			if rest, ok := strings.CutPrefix(name, "b/"); ok {
				file := filepath.Join(root, filepath.FromSlash(rest))
				lines = make(map[int]bool)
				l.files[file] = lines
			}
		case strings.HasPrefix(text, "@@ ") && lines != nil:
			start, count, ok := newRange(text)
			if !ok {
				continue
			}
			for n := start; n < start+count; n++ {
				lines[n] = true
			}
		}
	}
	return l
}

// newRange parses the new side of a hunk header, "@@ -a,b +c,d @@": the
// hunk's lines in the new file are c to c+d-1 (d is 1 when left out, and 0
// for a hunk that only deletes).
func newRange(header string) (start, count int, ok bool) {
	fields := strings.Fields(header)
	if len(fields) < 3 || !strings.HasPrefix(fields[2], "+") {
		return 0, 0, false
	}
	c, d, hasCount := strings.Cut(fields[2][1:], ",")
	start, err := strconv.Atoi(c)
	if err != nil {
		return 0, 0, false
	}
	count = 1
	if hasCount {
		if count, err = strconv.Atoi(d); err != nil {
			return 0, 0, false
		}
	}
	return start, count, true
}

// unquote undoes git's quoting of a file name with unusual characters.
func unquote(name string) string {
	if strings.HasPrefix(name, `"`) {
		if s, err := strconv.Unquote(name); err == nil {
			return s
		}
	}
	return name
}

// Has reports whether line of file (an absolute name) is new or changed.
func (l *Lines) Has(file string, line int) bool {
	file = canonical(file)
	return l.whole[file] || l.files[file][line]
}

// resolved returns dir with symbolic links resolved.
func resolved(dir string) string {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return filepath.Clean(dir)
}

// canonical resolves symbolic links in name's directory (a temporary
// directory is often reached through one), so that git's file names and the
// loader's compare equal.
func canonical(name string) string {
	dir, base := filepath.Split(name)
	return filepath.Join(resolved(dir), base)
}

// git runs git with args in dir and returns its standard output; an error
// carries what git printed on standard error.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	// The repository's own settings must not change the diff's shape.
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_EXTERNAL_DIFF=", "GIT_DIFF_OPTS=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return stdout.String(), nil
}
