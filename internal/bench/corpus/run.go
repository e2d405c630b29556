package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"
)

// A finding is one queuecheck diagnostic, as the corpus tool keeps it.
type finding struct {
	Check       string     `json:"check"`
	Category    string     `json:"category"`
	File        string     `json:"file"` // relative to the repository root, with slashes
	Line        int        `json:"line"`
	Column      int        `json:"column"`
	Function    string     `json:"function,omitempty"` // the enclosing function declaration: F or T.M
	Message     string     `json:"message"`
	Fix         bool       `json:"fix"`               // it carries a suggested fix
	Fingerprint string     `json:"fingerprint"`       // as the baseline records it
	Related     []position `json:"related,omitempty"` // the other half of the story: the consumer, the wait, the task

	// Filled in by the judging step.
	Verdict string `json:"verdict,omitempty"` // "" when unjudged
	Why     string `json:"why,omitempty"`
}

// A silence is one why-diagnostic: the named rule of a check that kept a
// candidate at a line from being a finding.
type silence struct {
	Check string `json:"check"`
	Rule  string `json:"rule"`
	File  string `json:"file"` // relative to the repository root, with slashes
	Line  int    `json:"line"`
}

// A position is a line of a file, relative to the repository root.
type position struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// A moduleResult is what one run of the suite over one module produced.
type moduleResult struct {
	module
	Packages       int       `json:"packages"`
	Lines          int       `json:"lines"`           // non-test, non-generated Go lines of the analyzed packages
	GeneratedLines int       `json:"generated_lines"` // generated Go lines in them: analyzed, never reported
	Wall           float64   `json:"wall_seconds"`
	PeakRSSKiB     int64     `json:"peak_rss_kib"`
	Exit           int       `json:"exit"`
	Error          string    `json:"error,omitempty"`
	Findings       []finding `json:"findings"`
	Silences       []silence `json:"silences,omitempty"` // the suite's why-diagnostics: candidates a named rule kept quiet
	Fixes          *fixCheck `json:"fixes,omitempty"`    // with -fixcheck, when some finding has a fix
}

// goEnv is the environment of every go command and suite run: a module is
// analyzed on its own, as its go.mod says, whatever go.work its repository
// has.
func goEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=-buildvcs=false")
}

// listPackage is what go list says of one package.
type listPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Error      *struct{ Err string }
}

// buildTags returns the value of a "-tags=..." entry of the patterns, "" if
// there is none.
func buildTags(patterns []string) string {
	for _, p := range patterns {
		if tags, ok := strings.CutPrefix(p, "-tags="); ok {
			return tags
		}
	}
	return ""
}

// listPackages returns the packages the module's patterns match, less those
// its "-PATTERN" entries match; a "-tags=..." entry sets build tags.
func listPackages(ctx context.Context, dir string, patterns []string) ([]listPackage, error) {
	var include, exclude []string
	var flags []string
	if tags := buildTags(patterns); tags != "" {
		flags = []string{"-tags=" + tags}
	}
	for _, p := range patterns {
		if strings.HasPrefix(p, "-tags=") {
			continue
		}
		if rest, ok := strings.CutPrefix(p, "-"); ok {
			exclude = append(exclude, rest)
		} else {
			include = append(include, p)
		}
	}
	pkgs, err := goList(ctx, dir, flags, include)
	if err != nil {
		return nil, err
	}
	if len(exclude) > 0 {
		drop, err := goList(ctx, dir, flags, exclude)
		if err != nil {
			return nil, err
		}
		pkgs = slices.DeleteFunc(pkgs, func(p listPackage) bool {
			return slices.ContainsFunc(drop, func(d listPackage) bool { return d.ImportPath == p.ImportPath })
		})
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("the patterns %s match no packages", strings.Join(patterns, " "))
	}
	return pkgs, nil
}

func goList(ctx context.Context, dir string, flags, patterns []string) ([]listPackage, error) {
	args := slices.Concat([]string{"list", "-e", "-json=ImportPath,Dir,GoFiles,CgoFiles,Error"}, flags, patterns)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = goEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(patterns, " "), err, lastLines(stderr.String(), 20))
	}
	var pkgs []listPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listPackage
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("go list: %v", err)
		}
		if p.Error != nil && len(p.GoFiles)+len(p.CgoFiles) == 0 {
			continue // e.g. a directory with only test files or only other platforms' files
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

var generatedRE = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// countLines counts the lines of the packages' non-test Go files, those of
// generated files (as go/ast.IsGenerated decides, roughly: the marker line
// anywhere before the code) apart.
func countLines(pkgs []listPackage) (lines, generated int, err error) {
	for _, p := range pkgs {
		for _, name := range slices.Concat(p.GoFiles, p.CgoFiles) {
			data, err := os.ReadFile(filepath.Join(p.Dir, name))
			if err != nil {
				return 0, 0, err
			}
			n := bytes.Count(data, []byte("\n"))
			if len(data) > 0 && data[len(data)-1] != '\n' {
				n++
			}
			head := data
			if i := bytes.Index(head, []byte("\npackage ")); i >= 0 {
				head = head[:i+1]
			}
			if generatedRE.Match(head) {
				generated += n
			} else {
				lines += n
			}
		}
	}
	return lines, generated, nil
}

// runModule analyzes one module of a service whose checkout is root.
func runModule(ctx context.Context, qc []string, root string, m module, timeout time.Duration, fixcheck bool) moduleResult {
	res := moduleResult{module: m, Findings: []finding{}}
	dir := filepath.Join(root, filepath.FromSlash(m.Dir))
	pkgs, err := listPackages(ctx, dir, m.Patterns)
	if err != nil {
		res.Error = err.Error()
		res.Exit = -1
		return res
	}
	res.Packages = len(pkgs)
	if res.Lines, res.GeneratedLines, err = countLines(pkgs); err != nil {
		res.Error = err.Error()
		res.Exit = -1
		return res
	}
	args := []string{"-format=sarif", "-why=all"}
	if tags := buildTags(m.Patterns); tags != "" {
		args = append(args, "-tags="+tags)
	}
	for _, p := range pkgs {
		args = append(args, p.ImportPath)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, qc[0], append(slices.Clone(qc[1:]), args...)...)
	cmd.Dir = dir
	cmd.Env = append(goEnv(), childEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	res.Wall = time.Since(start).Seconds()
	if cmd.ProcessState == nil {
		res.Exit = -1
		res.Error = err.Error()
		return res
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		// The largest of queuecheck and the children it waited for (go
		// list): Linux reports kilobytes.
		res.PeakRSSKiB = ru.Maxrss
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		res.Exit = exit.ExitCode()
	case err != nil:
		res.Exit = -1
		res.Error = err.Error()
		return res
	}
	if ctx.Err() != nil {
		res.Error = fmt.Sprintf("timed out after %v", timeout)
		return res
	}
	if res.Exit > 1 {
		// Exit 2 with findings printed means some packages did not
		// type-check: the rest were analyzed. Keep what was found and say
		// what failed.
		res.Error = lastLines(stderr.String(), 20)
	}
	found, silences, err := parseSARIF(stdout.Bytes(), m.Dir, dir)
	if err != nil {
		if res.Error == "" {
			res.Error = err.Error()
		}
		return res
	}
	res.Findings = append(res.Findings, found...)
	res.Silences = append(res.Silences, silences...)
	if fixcheck && slices.ContainsFunc(found, func(f finding) bool { return f.Fix }) {
		fc, err := checkFixes(ctx, qc, dir, m, pkgs)
		if err != nil {
			fc = &fixCheck{Build: "fix check failed: " + err.Error()}
		}
		res.Fixes = fc
	}
	return res
}

// The subset of SARIF that queuecheck writes and the corpus tool reads.
type sarifLog struct {
	Runs []struct {
		Results []struct {
			RuleID  string `json:"ruleId"`
			Message struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations           []sarifLocation   `json:"locations"`
			RelatedLocations    []sarifLocation   `json:"relatedLocations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Fixes               []json.RawMessage `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine   int `json:"startLine"`
			StartColumn int `json:"startColumn"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

// sarifFingerprintKey names queuecheck's fingerprint in SARIF
// (output.FingerprintKey).
const sarifFingerprintKey = "queuecheck/v1"

// baselineFingerprint returns the fingerprint the baseline records for a
// finding, given the one SARIF carries: both are the hex SHA-256 of the
// finding's key (output.Finding.Key), SARIF's cut at 16 bytes and the
// baseline's (baseline.Fingerprint) at 12. The smoke test holds the two
// together by comparing with -write-baseline's file.
func baselineFingerprint(sarif string) string {
	if len(sarif) < 24 {
		return ""
	}
	return sarif[:24]
}

// parseSARIF reads queuecheck's SARIF output for a module in moduleDir
// (relative to the repository root) checked out at dir.
// Its why-diagnostics (CHECK/why: "not reported: RULE: DOC") are returned
// apart, as silences.
func parseSARIF(data []byte, moduleDir, dir string) ([]finding, []silence, error) {
	var log sarifLog
	if err := json.Unmarshal(data, &log); err != nil {
		return nil, nil, fmt.Errorf("reading queuecheck's SARIF: %v", err)
	}
	funcs := newFuncIndex()
	var out []finding
	var silences []silence
	for _, run := range log.Runs {
		for _, r := range run.Results {
			if len(r.Locations) == 0 {
				continue
			}
			loc := r.Locations[0].PhysicalLocation
			check, kind, _ := strings.Cut(r.RuleID, "/")
			if kind == "why" {
				rest, _ := strings.CutPrefix(r.Message.Text, "not reported: ")
				rule, _, _ := strings.Cut(rest, ":")
				silences = append(silences, silence{Check: check, Rule: rule, File: path.Join(filepath.ToSlash(moduleDir), loc.ArtifactLocation.URI), Line: loc.Region.StartLine})
				continue
			}
			f := finding{
				Check:       check,
				Category:    r.RuleID,
				File:        path.Join(filepath.ToSlash(moduleDir), loc.ArtifactLocation.URI),
				Line:        loc.Region.StartLine,
				Column:      loc.Region.StartColumn,
				Message:     r.Message.Text,
				Fix:         len(r.Fixes) > 0,
				Fingerprint: baselineFingerprint(r.PartialFingerprints[sarifFingerprintKey]),
			}
			if f.Fingerprint == "" {
				return nil, nil, fmt.Errorf("%s:%d: a finding without a fingerprint", f.File, f.Line)
			}
			for _, rel := range r.RelatedLocations {
				p := rel.PhysicalLocation
				f.Related = append(f.Related, position{path.Join(filepath.ToSlash(moduleDir), p.ArtifactLocation.URI), p.Region.StartLine})
			}
			f.Function = funcs.enclosing(filepath.Join(dir, filepath.FromSlash(loc.ArtifactLocation.URI)), f.Line)
			out = append(out, f)
		}
	}
	return out, silences, nil
}

// funcIndex names the function declaration around a line, parsing each file
// once.
type funcIndex struct {
	fset  *token.FileSet
	files map[string]*ast.File
}

func newFuncIndex() *funcIndex {
	return &funcIndex{fset: token.NewFileSet(), files: make(map[string]*ast.File)}
}

// enclosing returns the name of the function declaration that holds line in
// the file: "F" for a function, "T.M" for a method (pointer receivers and
// type parameters dropped), "" at package level or when the file does not
// parse.
func (x *funcIndex) enclosing(filename string, line int) string {
	f, ok := x.files[filename]
	if !ok {
		f, _ = parser.ParseFile(x.fset, filename, nil, parser.SkipObjectResolution)
		x.files[filename] = f
	}
	if f == nil {
		return ""
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if x.fset.Position(fd.Pos()).Line <= line && line <= x.fset.Position(fd.End()).Line {
			return funcName(fd)
		}
	}
	return ""
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		}
		break
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}

func lastLines(s string, n int) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(strings.TrimSpace(s)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
