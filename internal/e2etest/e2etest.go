// Package e2etest holds what the end-to-end tests of the binary and of the
// golangci-lint plugin share: how a test module marks the findings it
// expects.
package e2etest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// marker is the comment an end-to-end module puts on a line that must
// carry a finding: "// want:NAME", NAME the configuration that expects it.
var marker = regexp.MustCompile(`// want:\w+`)

// WantLines returns "FILE:LINE" of every line of dir's Go files marked
// with a want: comment, FILE relative to dir with forward slashes, sorted.
func WantLines(dir string) ([]string, error) {
	var want []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if marker.MatchString(line) {
				want = append(want, filepath.ToSlash(rel)+":"+strconv.Itoa(i+1))
			}
		}
		return nil
	})
	slices.Sort(want)
	return want, err
}
