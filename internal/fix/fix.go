// Package fix applies queuecheck's suggested fixes to files and renders them
// as unified diffs.
//
// The x/tools checker has no public fix applier, and the standalone driver
// needs one beside its own output formats. Fixes are applied whole or not at
// all: a fix that overlaps one already accepted is skipped and counted, never
// half-applied. Identical edits (two findings adding the same import) count
// once.
package fix

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"sort"

	"github.com/queuecheck/queuecheck/internal/output"
)

// A Result is the outcome of applying a set of fixes.
type Result struct {
	// Files maps each changed file to its old and new contents.
	Files map[string]Change
	// Applied counts the fixes applied.
	Applied int
	// Skipped holds the fixes that overlapped an earlier fix and were left out.
	Skipped []*output.Fix
}

// Change is one file's contents before and after the fixes.
type Change struct {
	Old, New []byte
}

// Apply computes the effect of fixes, in order, on the files they edit,
// reading each file once. It writes nothing.
func Apply(fixes []*output.Fix) (*Result, error) {
	type span struct {
		start, end int
		text       string
	}
	accepted := make(map[string][]span) // by file, sorted by start
	res := &Result{Files: make(map[string]Change)}

	overlaps := func(file string, s span) (dup, clash bool) {
		for _, a := range accepted[file] {
			if a == s {
				return true, false
			}
			// Insertions at the same point conflict too: their order is undefined.
			if s.start < a.end && a.start < s.end || s.start == a.start && (s.start == s.end || a.start == a.end) {
				return false, true
			}
		}
		return false, false
	}

next:
	for _, f := range fixes {
		var add []struct {
			file string
			s    span
		}
		for _, e := range f.Edits {
			s := span{e.Start, e.End, e.New}
			if s.end < s.start {
				return nil, fmt.Errorf("%s: invalid edit [%d,%d)", e.Filename, e.Start, e.End)
			}
			dup, clash := overlaps(e.Filename, s)
			if clash {
				res.Skipped = append(res.Skipped, f)
				continue next
			}
			if !dup {
				add = append(add, struct {
					file string
					s    span
				}{e.Filename, s})
			}
		}
		for _, a := range add {
			accepted[a.file] = append(accepted[a.file], a.s)
		}
		res.Applied++
	}

	for file, spans := range accepted {
		old, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
		var out bytes.Buffer
		last := 0
		for _, s := range spans {
			if s.end > len(old) {
				return nil, fmt.Errorf("%s: edit [%d,%d) past the end of the file; was it changed since it was analyzed?", file, s.start, s.end)
			}
			out.Write(old[last:s.start])
			out.WriteString(s.text)
			last = s.end
		}
		out.Write(old[last:])
		if !bytes.Equal(old, out.Bytes()) {
			res.Files[file] = Change{Old: old, New: out.Bytes()}
		}
	}
	return res, nil
}

// Write writes every changed file, keeping its permissions.
func (r *Result) Write() error {
	for _, file := range r.Filenames() {
		info, err := os.Stat(file)
		if err != nil {
			return err
		}
		if err := os.WriteFile(file, r.Files[file].New, info.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

// Filenames returns the changed files in sorted order.
func (r *Result) Filenames() []string {
	var names []string
	for name := range r.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
