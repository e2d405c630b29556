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

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// Analyzer reports non-blocking sends whose failure path bypasses the
// channel's bound: retry loops, polling timed sends and overflow stores.
var Analyzer = &analysis.Analyzer{
	Name:     "retrysend",
	Doc:      doc,
	URL:      report.URL("retrysend"),
	Requires: []*analysis.Analyzer{inspect.Analyzer, report.Analyzer, admission.Analyzer},
	Run:      run,
}

//go:embed doc.go
var docFile string

var doc = report.Doc(docFile, "retrysend")

// waits names extra functions that only wait (backoff helpers).
var waits = calls.New("-retrysend.waits")

func init() {
	report.AddWhyFlag(&Analyzer.Flags)
	Analyzer.Flags.Var(waits, "waits", "functions that only wait between attempts, such as backoff helpers, comma-separated: pkg/path.Func, pkg/path.Type.Method or (*pkg/path.Type).Method")
	knowledge.DropWords.Register(&Analyzer.Flags, Analyzer.Name)
	knowledge.LoggerMethods.Register(&Analyzer.Flags, Analyzer.Name)
}

// A send is one non-blocking send of the package.
type send struct {
	cur  inspector.Cursor // the select statement
	nb   sendselect.NonBlocking
	file inspector.Cursor
}

// A finding is one diagnostic with the plan of its fix, nil when no safe
// fix exists: the message then says what to do by hand.
type finding struct {
	file     inspector.Cursor
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
	var sends, tries []send // the sends of data, and every non-blocking send
	var files []inspector.Cursor
	for file := range insp.Root().Children() {
		if rep.Skip(file.Node().(*ast.File)) {
			continue
		}
		files = append(files, file)
		for cur := range file.Preorder((*ast.SelectStmt)(nil)) {
			nb, ok := sendselect.Match(cur.Node().(*ast.SelectStmt))
			if !ok {
				continue
			}
			tries = append(tries, send{cur, nb, file})
			if !sendselect.Coalesces(pass.TypesInfo, nb.Send) {
				sends = append(sends, send{cur, nb, file})
			} else {
				rep.Silence(nb.Send, ruleCoalesces)
			}
		}
	}
	res := pass.ResultOf[admission.Analyzer].(*admission.Result)
	if len(tries) == 0 && !res.HasTrySend() {
		return nil, nil // no non-blocking send, here or in a helper: nothing can bypass a bound or spin
	}

	c := newChecker(pass, res, rep)
	retry := &retryChecker{pkg: c.pkg, fix: c.fix}
	over := &overflowChecker{pkg: c.pkg, fix: c.fix}
	for _, s := range sends {
		if f := retry.retryLoop(s); f != nil {
			c.add(f)
		} else if f := over.overflow(s); f != nil {
			c.add(f)
		}
	}
	hc := &helperChecker{pkg: c.pkg, fix: c.fix, retry: retry}
	helpers := hc.trySendHelpers(sends)
	if len(helpers) > 0 || res.HasTrySend() {
		for _, file := range files {
			for cur := range file.Preorder((*ast.ForStmt)(nil)) {
				if f := hc.helperLoop(file, cur, helpers); f != nil {
					c.add(f)
				}
			}
		}
	}
	retried := make(map[token.Pos]bool)
	for _, f := range c.findings {
		if f.kind == "retryloop" || f.kind == "pollingsend" {
			retried[f.pos] = true
		}
	}
	spin := &spinChecker{pkg: c.pkg, add: c.add}
	spin.spinLoops(tries, retried)
	for _, d := range c.diagnostics() {
		rep.Report(d)
	}
	return nil, nil
}

// A pkg holds what every kind of check reads: the pass, its types, the
// admission result and the reporter.
type pkg struct {
	pass *analysis.Pass
	info *types.Info
	res  *admission.Result
	rep  *report.Reporter
}

// A checker holds the findings of one package while their fixes are planned.
type checker struct {
	*pkg
	fix      *fixer
	findings []*finding
}

// A fixer plans and completes the fixes: it holds the names they declare and
// the sentinel errors they add, per file and channel.
type fixer struct {
	*pkg
	freshNames *edits.Names // the names fixes declare
	sentinel   map[sentinelKey]*sentinel
}

// A retryChecker decides the retry loops and polling sends around a send.
type retryChecker struct {
	*pkg
	fix *fixer
}

// An overflowChecker decides the overflow stores that take a failed send's
// item, and how a fix makes the shed observable.
type overflowChecker struct {
	*pkg
	fix *fixer
}

// A helperChecker decides the loops that retry a try-send helper; it asks
// retry for what retry loops and helper loops share.
type helperChecker struct {
	*pkg
	fix   *fixer
	retry *retryChecker
}

// A spinChecker decides the loops that spin on a non-blocking send, adding
// what it finds.
type spinChecker struct {
	*pkg
	add func(*finding)
}

func newChecker(pass *analysis.Pass, res *admission.Result, rep *report.Reporter) *checker {
	p := &pkg{pass: pass, info: pass.TypesInfo, res: res, rep: rep}
	return &checker{
		pkg: p,
		fix: &fixer{
			pkg:        p,
			freshNames: edits.NewNames(pass),
			sentinel:   make(map[sentinelKey]*sentinel),
		},
	}
}

func (c *checker) add(f *finding) { c.findings = append(c.findings, f) }

// isWait reports whether a call of fn only waits between attempts: a
// function listed in -retrysend.waits, or one whose main path only pauses
// (sleeps, waits for a timer or a backoff), in this package or, through its
// fact, another.
func (c *pkg) isWait(fn *types.Func) bool {
	if waits.Contains(fn) {
		return true
	}
	h := c.res.Helper(fn)
	return h != nil && h.Pause != nil
}

// diagnostics completes the fixes, file by file (removing what they leave
// unused), and returns the diagnostics in source order.
func (c *checker) diagnostics() []analysis.Diagnostic {
	byFile := make(map[inspector.Cursor][]*finding)
	var files []inspector.Cursor
	for _, f := range c.findings {
		if byFile[f.file] == nil {
			files = append(files, f.file)
		}
		byFile[f.file] = append(byFile[f.file], f)
	}
	for _, file := range files {
		c.fix.cleanUp(file, byFile[file])
	}
	c.fix.removeHelpers(c.findings)
	var diags []analysis.Diagnostic
	for _, file := range files {
		for _, f := range byFile[file] {
			d := analysis.Diagnostic{
				Pos:      f.pos,
				End:      f.end,
				Category: f.kind,
				Message:  f.message,
				Related:  f.related,
			}
			if f.fix != nil {
				d.SuggestedFixes = []analysis.SuggestedFix{f.fix.suggested()}
			}
			diags = append(diags, d)
		}
	}
	slices.SortFunc(diags, func(a, b analysis.Diagnostic) int { return int(a.Pos - b.Pos) })
	return diags
}

func related(node ast.Node, msg string) analysis.RelatedInformation {
	return analysis.RelatedInformation{Pos: node.Pos(), End: node.End(), Message: msg}
}
