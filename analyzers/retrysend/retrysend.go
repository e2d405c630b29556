package retrysend

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// Analyzer reports non-blocking sends whose failure path bypasses the
// channel's bound: retry loops, polling timed sends and overflow stores.
var Analyzer = &analysis.Analyzer{
	Name:     "retrysend",
	Doc:      doc,
	URL:      report.URL("retrysend"),
	Requires: []*analysis.Analyzer{inspect.Analyzer, report.Analyzer},
	Run:      run,
}

//go:embed doc.go
var docFile string

var doc = report.Doc(docFile, "retrysend")

// waits names extra functions that only wait (backoff helpers).
var waits = calls.New("-retrysend.waits")

func init() {
	Analyzer.Flags.Var(waits, "waits", "functions that only wait between attempts, such as backoff helpers, comma-separated: pkg/path.Func, pkg/path.Type.Method or (*pkg/path.Type).Method")
}

// A send is one non-blocking send of the package.
type send struct {
	cur  inspector.Cursor // the select statement
	nb   sendselect.NonBlocking
	file inspector.Cursor
}

// A finding is one diagnostic with the plan of its fix.
type finding struct {
	kind     string
	pos, end token.Pos
	message  string
	related  []analysis.RelatedInformation
	fix      *fixPlan
}

func run(pass *analysis.Pass) (any, error) {
	rep := report.New(pass)
	defer rep.Finish()
	waits.Verify(pass.Pkg)

	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	var sends []send
	var files []inspector.Cursor
	for file := range insp.Root().Children() {
		if rep.Skip(file.Node().(*ast.File)) {
			continue
		}
		files = append(files, file)
		for cur := range file.Preorder((*ast.SelectStmt)(nil)) {
			nb, ok := sendselect.Match(cur.Node().(*ast.SelectStmt))
			if ok && !coalesces(pass.TypesInfo, nb.Send) {
				sends = append(sends, send{cur, nb, file})
			}
		}
	}
	if len(sends) == 0 {
		return nil, nil // no non-blocking send: nothing can bypass a bound
	}

	c := newChecker(pass)
	for _, s := range sends {
		if f := c.retryLoop(s); f != nil {
			c.add(f)
		} else if f := c.overflow(s); f != nil {
			c.add(f)
		}
	}
	if helpers := c.trySendHelpers(sends); len(helpers) > 0 {
		for _, file := range files {
			for cur := range file.Preorder((*ast.ForStmt)(nil)) {
				if f := c.helperLoop(file, cur, helpers); f != nil {
					c.add(f)
				}
			}
		}
	}
	for _, d := range c.diagnostics() {
		rep.Report(d)
	}
	return nil, nil
}

// coalesces reports whether the send carries no data, only a wake-up: a
// struct{} or bool. A full channel of those already holds the news, so
// dropping, retrying or parking one is not a queue that grows.
func coalesces(info *types.Info, s *ast.SendStmt) bool {
	t := info.TypeOf(s.Chan)
	if t == nil {
		return true // a type error: stay silent
	}
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return true
	}
	switch elem := ch.Elem().Underlying().(type) {
	case *types.Struct:
		return elem.NumFields() == 0
	case *types.Basic:
		return elem.Kind() == types.Bool || elem.Kind() == types.UntypedBool
	}
	return false
}

// A checker holds the findings of one package while their fixes are planned.
type checker struct {
	pass       *analysis.Pass
	info       *types.Info
	findings   []*finding
	taken      map[string]bool              // package-level names fixes declare
	localNames map[ast.Node]map[string]bool // per function: names used or declared by fixes
	sentinel   map[sentinelKey]*sentinel
}

func newChecker(pass *analysis.Pass) *checker {
	return &checker{
		pass:       pass,
		info:       pass.TypesInfo,
		taken:      make(map[string]bool),
		localNames: make(map[ast.Node]map[string]bool),
		sentinel:   make(map[sentinelKey]*sentinel),
	}
}

func (c *checker) add(f *finding) { c.findings = append(c.findings, f) }

// diagnostics completes the fixes, file by file (removing what they leave
// unused), and returns the diagnostics in source order.
func (c *checker) diagnostics() []analysis.Diagnostic {
	byFile := make(map[inspector.Cursor][]*finding)
	var files []inspector.Cursor
	for _, f := range c.findings {
		if byFile[f.fix.file] == nil {
			files = append(files, f.fix.file)
		}
		byFile[f.fix.file] = append(byFile[f.fix.file], f)
	}
	var diags []analysis.Diagnostic
	for _, file := range files {
		for _, f := range c.cleanUp(file, byFile[file]) {
			diags = append(diags, analysis.Diagnostic{
				Pos:            f.pos,
				End:            f.end,
				Category:       f.kind,
				Message:        f.message,
				Related:        f.related,
				SuggestedFixes: []analysis.SuggestedFix{f.fix.suggested()},
			})
		}
	}
	slices.SortFunc(diags, func(a, b analysis.Diagnostic) int { return int(a.Pos - b.Pos) })
	return diags
}

func related(node ast.Node, msg string) analysis.RelatedInformation {
	return analysis.RelatedInformation{Pos: node.Pos(), End: node.End(), Message: msg}
}
