// Package report is the one way a queuecheck check reports a finding.
//
// Every check reports through a [Reporter], which
//   - drops findings in _test.go files and generated files (queuecheck targets
//     production code, and nobody edits generated code by hand);
//   - prefixes the diagnostic's kind with the check's name ("slicefifo" becomes
//     "unboundedqueue/slicefifo") and points its URL at the check's docs page;
//   - records, with [Reporter.Silence], the named [Rule] that kept a candidate
//     from being a finding, and reports it as a CHECK/why diagnostic when the
//     check's -why flag (every check has one, [AddWhyFlag]) asks about its
//     line: a flag of the analyzer, not of a driver, so it works the same
//     standalone, under go vet and as a golangci-lint setting;
//   - honours //queuecheck:ignore CHECK reason directives on the finding's line or
//     the line above, and reports directives that silence nothing, give no
//     reason, or name no check (each of those by exactly one of the checks that
//     run: see [SetRunning]).
//
// Suppression lives here, inside the analyzers, rather than in a driver: under
// "go vet -vettool" and golangci-lint the analyzers are all that runs.
package report

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
)

// DocsURL is where each check's documentation page lives.
const DocsURL = "https://github.com/queuecheck/queuecheck/blob/main/docs/checks/"

// URL returns the documentation page of check.
func URL(check string) string { return DocsURL + check + ".md" }

// Checks lists, in the suite's order, every check a directive may name:
// the names of analyzers.All, which this package cannot import (every check
// imports it). TestReportChecksAreTheSuite in package analyzers keeps the two
// equal.
var Checks = []string{"chansize", "unboundedqueue", "retrysend", "resolverpool", "waittiming"}

// directivePrefix starts a suppression comment.
const directivePrefix = "//queuecheck:ignore"

// Analyzer collects, once per package, what every check's Reporter needs: the
// files not to report in and the suppression directives. Checks list it in
// their Requires.
var Analyzer = &analysis.Analyzer{
	Name:             "queuecheckdirectives",
	Doc:              "collects //queuecheck:ignore directives and the files queuecheck does not report in",
	Run:              collect,
	ResultType:       reflect.TypeFor[*Package](),
	RunDespiteErrors: true,
}

// Package is the result of [Analyzer].
type Package struct {
	skip    map[*token.File]skipped // the files no check reports in, and why
	cgo     map[*token.File]bool    // cmd/cgo's copies of files that import "C"
	hooks   map[*token.File][]*ast.FuncDecl
	ignores []*Ignore
}

// testHooks returns the functions of f, a file that imports package
// testing and no test framework, whose signatures use package testing, when they are
// fewer than half of its functions: a production file with a hook for
// tests (kueue's scheduler has WithClock(_ testing.TB, c clock.Clock) beside
// the scheduling loop) is production, all but the hooks. ok is false when
// the file is test support: most of its functions use package testing, or
// it declares none.
func testHooks(info *types.Info, f *ast.File) (hooks []*ast.FuncDecl, ok bool) {
	name := ""
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		if knowledge.TestFrameworks.Match(path) {
			return nil, false
		}
		if path == "testing" {
			name = "testing"
			if imp.Name != nil {
				name = imp.Name.Name
			}
		}
	}
	if name == "" || name == "_" || name == "." {
		return nil, false
	}
	funcs := 0
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		funcs++
		if usesTesting(info, fd) {
			hooks = append(hooks, fd)
		}
	}
	return hooks, funcs > 0 && 2*len(hooks) < funcs
}

// usesTesting reports whether fd's signature (receiver, parameters,
// results) refers to package testing, under whatever name the file imports
// it: a function only a test can call (an option taking a testing.TB). A
// body that asks testing.Testing() runs in production too.
func usesTesting(info *types.Info, fd *ast.FuncDecl) bool {
	found := false
	visit := func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if pn, ok := info.Uses[id].(*types.PkgName); ok && pn.Imported().Path() == "testing" {
				found = true
			}
		}
		return !found
	}
	if fd.Recv != nil {
		ast.Inspect(fd.Recv, visit)
	}
	ast.Inspect(fd.Type, visit)
	return found
}

// supportsTests reports whether f is test support outside a _test.go file:
// it imports package testing or a test framework (a mock server, a fixture
// helper). Such code runs under tests only, not under production load.
func supportsTests(f *ast.File) bool {
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		if path == "testing" || knowledge.TestFrameworks.Match(path) {
			return true
		}
	}
	return false
}

// isTestSupportPackage reports whether the package at path holds test
// support by name: a path element such as mocks, fakes or testutil. Mocks
// and fixtures queue what a test gives them, not production load.
func isTestSupportPackage(path string) bool {
	return path != "testing" && knowledge.TestSupportElements.HasElement(path)
}

// An Ignore is one //queuecheck:ignore directive.
type Ignore struct {
	Pos, End token.Pos
	File     *token.File
	Line     int    // the directive's line
	Check    string // the check it names; "" if none
	Reason   string // "" if none was given
}

func collect(pass *analysis.Pass) (any, error) {
	p := &Package{skip: make(map[*token.File]skipped), cgo: make(map[*token.File]bool), hooks: make(map[*token.File][]*ast.FuncDecl)}
	support := isTestSupportPackage(pass.Pkg.Path())
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.Pos())
		if tf == nil {
			continue
		}
		switch orig := cgoOriginal(f); {
		case orig != "":
			// A file that imports "C" reaches every driver as cmd/cgo's copy,
			// whose //line directives map positions back to the user's file:
			// its findings are reported there, without fixes, whose edits
			// would land in the copy.
			if strings.HasSuffix(orig, "_test.go") {
				p.skip[tf] = skippedTest
				continue
			}
			p.cgo[tf] = true
		case strings.HasSuffix(tf.Name(), "_test.go"):
			p.skip[tf] = skippedTest
			continue
		case ast.IsGenerated(f):
			p.skip[tf] = skippedGenerated
			continue
		case support:
			p.skip[tf] = skippedSupport
			continue
		case supportsTests(f):
			hooks, ok := testHooks(pass.TypesInfo, f)
			if !ok {
				p.skip[tf] = skippedSupport
				continue
			}
			p.hooks[tf] = hooks
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if ig := parseIgnore(c.Text); ig != nil {
					ig.Pos, ig.End, ig.File = c.Pos(), c.End(), tf
					ig.Line = tf.Line(c.Pos())
					p.ignores = append(p.ignores, ig)
				}
			}
		}
	}
	return p, nil
}

// cgoOriginal returns the name of the user's file that f is cmd/cgo's copy
// of, or "" when f is not such a copy: generated by cmd/cgo, with a //line
// directive naming a Go file before its package clause.
func cgoOriginal(f *ast.File) string {
	if !ast.IsGenerated(f) {
		return ""
	}
	generatedByCgo := false
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if c.Text == "// Code generated by cmd/cgo; DO NOT EDIT." {
				generatedByCgo = true
			}
			if rest, ok := strings.CutPrefix(c.Text, "//line "); ok && generatedByCgo {
				// //line path/x.go:1:1
				name := rest
				for range 2 {
					if i := strings.LastIndexByte(name, ':'); i > 0 {
						name = name[:i]
					}
				}
				if strings.HasSuffix(name, ".go") {
					return name
				}
			}
		}
	}
	return ""
}

// parseIgnore parses a directive comment, or returns nil if text is not one.
func parseIgnore(text string) *Ignore {
	rest, ok := strings.CutPrefix(text, directivePrefix)
	if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return nil
	}
	fields := strings.Fields(rest)
	ig := new(Ignore)
	if len(fields) > 0 {
		ig.Check = fields[0]
	}
	if len(fields) > 1 {
		ig.Reason = strings.Join(fields[1:], " ")
	}
	return ig
}

// A Reporter reports one check's findings in one package.
type Reporter struct {
	pass  *analysis.Pass
	check string
	pkg   *Package
	used  map[*Ignore]bool
	said  map[silence]bool // the why-diagnostics reported
}

// New returns the Reporter for pass. The pass's analyzer must require [Analyzer].
func New(pass *analysis.Pass) *Reporter {
	return &Reporter{
		pass:  pass,
		check: pass.Analyzer.Name,
		pkg:   pass.ResultOf[Analyzer].(*Package),
		used:  make(map[*Ignore]bool),
	}
}

// Skip reports whether f is a file queuecheck never reports in, so a check
// need not look at it at all.
func (r *Reporter) Skip(f *ast.File) bool {
	return r.pkg.skip[r.pass.Fset.File(f.Pos())] != 0
}

// InHook reports whether pos lies in a test hook of the production file f
// (testHooks): walks that gather candidates leave them out, so that no
// finding or shared edit is built for code that is never reported.
func (r *Reporter) InHook(f *ast.File, pos token.Pos) bool {
	if len(r.pkg.hooks) == 0 {
		return false
	}
	for _, fd := range r.pkg.hooks[r.pass.Fset.File(f.Pos())] {
		if fd.Pos() <= pos && pos < fd.End() {
			return true
		}
	}
	return false
}

// SkipPos reports whether pos lies in a file queuecheck never reports in,
// or in a test hook of a production file (testHooks).
func (r *Reporter) SkipPos(pos token.Pos) bool {
	tf := r.pass.Fset.File(pos)
	if r.pkg.skip[tf] != 0 {
		return true
	}
	for _, fd := range r.pkg.hooks[tf] {
		if fd.Pos() <= pos && pos < fd.End() {
			return true
		}
	}
	return false
}

// Report reports d unless it sits in a skipped file or a directive silences it.
// d.Category holds the kind alone ("slicefifo"); Report qualifies it with the
// check's name and sets d.URL to the kind's section of the docs page.
func (r *Reporter) Report(d analysis.Diagnostic) {
	if r.SkipPos(d.Pos) {
		return
	}
	if ig := r.ignoreFor(d.Pos); ig != nil {
		r.used[ig] = true
		r.SilenceAt(d.Pos, d.End, ignoreRules[r.check])
		return
	}
	if r.pkg.cgo[r.pass.Fset.File(d.Pos)] {
		d.SuggestedFixes = nil // its edits would land in cmd/cgo's copy
	}
	if oneFileFixes.Load() && r.spansFiles(d) {
		d.SuggestedFixes = nil // the driver would apply part of it
	}
	if d.Category != "" {
		d.URL = URL(r.check) + "#" + d.Category
		d.Category = r.check + "/" + d.Category
	} else {
		d.Category = r.check
		d.URL = URL(r.check)
	}
	r.pass.Report(d)
}

// ignoreFor returns the well-formed directive for this check on pos's line or
// the line above, if any.
func (r *Reporter) ignoreFor(pos token.Pos) *Ignore {
	tf := r.pass.Fset.File(pos)
	if tf == nil {
		return nil
	}
	line := tf.Line(pos)
	for _, ig := range r.pkg.ignores {
		if ig.File == tf && ig.Check == r.check && ig.Reason != "" && (ig.Line == line || ig.Line == line-1) {
			return ig
		}
	}
	return nil
}

// Finish reports this check's directives that silenced nothing or lack a
// reason, and the directives naming no known check that this check owns
// (see [SetRunning]): each of those is reported by exactly one of the checks
// that run. Call it once, after the last Report, including on a fast path
// that returns early.
func (r *Reporter) Finish() {
	r.silenceSkipped()
	for _, ig := range r.pkg.ignores {
		switch {
		case ig.Check == r.check && ig.Reason == "":
			r.pass.Report(analysis.Diagnostic{
				Pos: ig.Pos, End: ig.End,
				Category: r.check + "/directive",
				URL:      URL(r.check) + "#suppressing-a-finding",
				Message:  "//queuecheck:ignore " + r.check + " needs a reason after the check name; it silences nothing without one",
			})
		case ig.Check == r.check && !r.used[ig]:
			d := analysis.Diagnostic{
				Pos: ig.Pos, End: ig.End,
				Category: r.check + "/directive",
				URL:      URL(r.check) + "#suppressing-a-finding",
				Message:  "//queuecheck:ignore " + r.check + " silences nothing here; remove it",
			}
			if !r.pkg.cgo[ig.File] {
				d.SuggestedFixes = []analysis.SuggestedFix{removeComment(r.pass, ig)}
			}
			r.pass.Report(d)
		case !slices.Contains(Checks, ig.Check) && ownerOf(ig.Check) == r.check:
			r.pass.Report(analysis.Diagnostic{
				Pos: ig.Pos, End: ig.End,
				Category: r.check + "/directive",
				URL:      URL(r.check) + "#suppressing-a-finding",
				Message:  unknownMessage(ig.Check),
			})
		}
	}
}

// removeComment deletes a directive: its whole line when the comment stands
// alone on it, otherwise the comment and the blanks before it.
func removeComment(pass *analysis.Pass, ig *Ignore) analysis.SuggestedFix {
	tf := ig.File
	start, end := ig.Pos, ig.End
	if content, err := edits.FileContent(pass, tf); err == nil {
		lineStart := tf.LineStart(ig.Line)
		before := content[tf.Offset(lineStart):tf.Offset(ig.Pos)]
		if strings.TrimSpace(string(before)) == "" {
			start = lineStart
			if ig.Line < tf.LineCount() {
				end = tf.LineStart(ig.Line + 1)
			}
			// gofmt separates a directive from the doc comment above it with
			// an empty "//" line; without the directive that line would end
			// the comment, and gofmt would delete it: delete it too.
			if ig.Line > 1 && trimmedLine(content, tf, ig.Line-1) == "//" && !strings.HasPrefix(trimmedLine(content, tf, ig.Line+1), "//") {
				start = tf.LineStart(ig.Line - 1)
			}
			// At the end of the file, take the blank lines before the
			// directive and whatever follows it, so the file still ends
			// in a single newline, as gofmt ends it.
			if eof := token.Pos(tf.Base() + tf.Size()); strings.TrimSpace(string(content[tf.Offset(end):])) == "" {
				line := tf.Line(start)
				for line > 1 && trimmedLine(content, tf, line-1) == "" {
					line--
				}
				start, end = tf.LineStart(line), eof
			}
		} else {
			trimmed := strings.TrimRight(string(before), " \t")
			start = lineStart + token.Pos(len(trimmed))
		}
	}
	return analysis.SuggestedFix{
		Message:   "Remove the unused //queuecheck:ignore directive",
		TextEdits: []analysis.TextEdit{{Pos: start, End: end}},
	}
}

// trimmedLine returns line of the file tf (with content), without its
// surrounding blanks; "" past the end of the file.
func trimmedLine(content []byte, tf *token.File, line int) string {
	if line < 1 || line > tf.LineCount() {
		return ""
	}
	start := tf.Offset(tf.LineStart(line))
	end := len(content)
	if line < tf.LineCount() {
		end = tf.Offset(tf.LineStart(line + 1))
	}
	if start > end || end > len(content) {
		return ""
	}
	return strings.TrimSpace(string(content[start:end]))
}
