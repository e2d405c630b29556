// Package baseline records the findings a codebase already has, so that a
// pull-request gate fails only on new ones.
//
// An entry is a finding's fingerprint: its check and kind, its file, and a
// hash of the flagged source text with its rank among identical texts in the
// file. Line numbers are not part of it, so edits above a finding do not bring
// it back; editing the flagged code itself does, which is the point.
package baseline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/queuecheck/queuecheck/internal/output"
)

// Version is the format version written to and required of baseline files.
const Version = 1

// A Baseline is a set of recorded findings.
type Baseline struct {
	Version  int     `json:"version"`
	Findings []Entry `json:"findings"`
}

// An Entry is one recorded finding. File, Line and Message are for people
// reading the file; only Category, File and Fingerprint are matched.
type Entry struct {
	Category    string `json:"category"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	Message     string `json:"message"`
	Fingerprint string `json:"fingerprint"`
}

// Fingerprint returns the line-independent fingerprint of a finding's key.
func Fingerprint(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:12])
}

func fileOf(key string) string {
	parts := strings.Split(key, "\x00")
	if len(parts) > 1 {
		return parts[1]
	}
	return ""
}

// FromFindings records findings.
func FromFindings(findings []output.Finding) *Baseline {
	b := &Baseline{Version: Version, Findings: []Entry{}}
	for _, f := range findings {
		b.Findings = append(b.Findings, Entry{
			Category:    f.Category,
			File:        fileOf(f.Key),
			Line:        f.Pos.Line,
			Message:     f.Message,
			Fingerprint: Fingerprint(f.Key),
		})
	}
	slices.SortFunc(b.Findings, func(x, y Entry) int {
		if c := strings.Compare(x.File, y.File); c != 0 {
			return c
		}
		return x.Line - y.Line
	})
	return b
}

// ReadFile reads a baseline written by WriteFile.
func ReadFile(name string) (*Baseline, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading baseline: %v", err)
	}
	b := new(Baseline)
	if err := json.Unmarshal(data, b); err != nil {
		return nil, fmt.Errorf("baseline %s: %v", name, err)
	}
	if b.Version != Version {
		return nil, fmt.Errorf("baseline %s has version %d; this queuecheck reads version %d", name, b.Version, Version)
	}
	return b, nil
}

// WriteFile writes b as indented JSON, one entry per finding, sorted by file
// and line so that diffs of the baseline read well in review.
func (b *Baseline) WriteFile(name string) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append(data, '\n'), 0o644)
}

// Len returns the number of entries.
func (b *Baseline) Len() int { return len(b.Findings) }

// Filter returns the findings b does not record, and how many of b's entries
// matched a finding (the rest are stale and can be pruned).
func (b *Baseline) Filter(findings []output.Finding) (fresh []output.Finding, matched int) {
	type key struct{ category, file, fp string }
	recorded := make(map[key]int)
	for _, e := range b.Findings {
		recorded[key{e.Category, e.File, e.Fingerprint}]++
	}
	for _, f := range findings {
		k := key{f.Category, fileOf(f.Key), Fingerprint(f.Key)}
		if recorded[k] > 0 {
			recorded[k]--
			matched++
			continue
		}
		fresh = append(fresh, f)
	}
	return fresh, matched
}
