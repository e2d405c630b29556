package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/queuecheck/queuecheck/internal/fix"
	"github.com/queuecheck/queuecheck/internal/output"
)

// A fixCheck is what applying every suggested fix of a module did: the
// fixes applied and left out (overlapping an earlier one), and whether the
// packages they edit still build.
type fixCheck struct {
	Applied int    `json:"applied"`
	Skipped int    `json:"skipped"`
	Build   string `json:"build"` // "ok", or what go build printed
}

// checkFixes applies, in memory, every fix the suite proposes on the
// module's packages (as queuecheck -fix would) and builds the packages that
// contain the fixed files through go build -overlay: the checkout is never
// written to. It runs the suite again with -json, whose edits carry byte
// offsets, rather than reading fixes back from SARIF.
func checkFixes(ctx context.Context, qc []string, dir string, m module, pkgs []listPackage) (*fixCheck, error) {
	args := []string{"-json"}
	if tags := buildTags(m.Patterns); tags != "" {
		args = append(args, "-tags="+tags)
	}
	for _, p := range pkgs {
		args = append(args, p.ImportPath)
	}
	cmd := exec.CommandContext(ctx, qc[0], append(slices.Clone(qc[1:]), args...)...)
	cmd.Dir = dir
	cmd.Env = append(goEnv(), childEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		return nil, err
	}
	fixes, err := jsonFixes(stdout.Bytes())
	if err != nil {
		return nil, err
	}
	fc := &fixCheck{Build: "ok"}
	if len(fixes) == 0 {
		return fc, nil
	}
	res, err := fix.Apply(fixes)
	if err != nil {
		return nil, err
	}
	fc.Applied, fc.Skipped = res.Applied, len(res.Skipped)

	tmp, err := os.MkdirTemp("", "corpus-fixcheck")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	overlay := struct{ Replace map[string]string }{Replace: make(map[string]string)}
	var dirs []string
	i := 0
	for name, ch := range res.Files {
		i++
		fixed := filepath.Join(tmp, fmt.Sprintf("%d.go", i))
		if err := os.WriteFile(fixed, ch.New, 0o644); err != nil {
			return nil, err
		}
		overlay.Replace[name] = fixed
		if d := filepath.Dir(name); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	data, err := json.Marshal(overlay)
	if err != nil {
		return nil, err
	}
	ovl := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovl, data, 0o644); err != nil {
		return nil, err
	}
	var build []string
	for _, p := range pkgs {
		if slices.Contains(dirs, p.Dir) {
			build = append(build, p.ImportPath)
		}
	}
	bargs := []string{"build", "-overlay=" + ovl}
	if tags := buildTags(m.Patterns); tags != "" {
		bargs = append(bargs, "-tags="+tags)
	}
	b := exec.CommandContext(ctx, "go", append(bargs, build...)...)
	b.Dir = dir
	b.Env = goEnv()
	if out, err := b.CombinedOutput(); err != nil {
		fc.Build = strings.TrimSpace(lastLines(string(out), 20))
	}
	return fc, nil
}

// jsonFixes reads the suggested fixes of queuecheck -json's output (go vet's
// JSON shape: package, then analyzer, then diagnostics).
func jsonFixes(out []byte) ([]*output.Fix, error) {
	type edit struct {
		Filename   string
		Start, End int
		New        string
	}
	type diag struct {
		SuggestedFixes []struct {
			Message string
			Edits   []edit
		} `json:"suggested_fixes"`
	}
	var fixes []*output.Fix
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			return nil, fmt.Errorf("reading the suite's JSON: %v", err)
		}
		for _, byCheck := range tree {
			for _, raw := range byCheck {
				var ds []diag
				if json.Unmarshal(raw, &ds) != nil {
					continue // {"error": ...}
				}
				for _, d := range ds {
					if len(d.SuggestedFixes) == 0 {
						continue
					}
					sf := d.SuggestedFixes[0]
					f := &output.Fix{Message: sf.Message}
					for _, e := range sf.Edits {
						f.Edits = append(f.Edits, output.Edit{Filename: e.Filename, Start: e.Start, End: e.End, New: e.New})
					}
					fixes = append(fixes, f)
				}
			}
		}
	}
	return fixes, nil
}
