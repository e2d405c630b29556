package resolverpool

import (
	_ "embed"
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
	"github.com/queuecheck/queuecheck/analyzers/internal/pools"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
)

// Analyzer reports slow work that shares a bounded pool with work that
// resolves hostnames.
var Analyzer = &analysis.Analyzer{
	Name:      "resolverpool",
	Doc:       doc,
	URL:       report.URL("resolverpool"),
	Requires:  []*analysis.Analyzer{inspect.Analyzer, report.Analyzer, admission.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{new(funcFact)},
}

//go:embed doc.go
var docFile string

var doc = report.Doc(docFile, "resolverpool")

var (
	resolveTable = calls.NewResolving("-resolverpool.resolve")
	slowTable    = calls.NewSlow("-resolverpool.slow")
)

func init() {
	Analyzer.Flags.Var(resolveTable, "resolve", "extra functions that resolve hostnames, comma-separated: pkg/path.Func, pkg/path.Type.Method or (*pkg/path.Type).Method")
	Analyzer.Flags.Var(slowTable, "slow", "extra functions that are slow blocking work, comma-separated: pkg/path.Func, pkg/path.Type.Method or (*pkg/path.Type).Method")
}

// A task is a pool's task with what it does while it holds its slot.
type task struct {
	*pools.Task
	resolve, slow chain
}

func run(pass *analysis.Pass) (any, error) {
	rep := report.New(pass)
	defer rep.Finish()
	resolveTable.Verify(pass.Pkg)
	slowTable.Verify(pass.Pkg)

	// The tables describe the standard library: its bodies need no walk,
	// and it runs no pools of its own that anyone could fix.
	if code.IsStd(pass) {
		return nil, nil
	}
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	fs := summarize(pass, insp)
	if !fs.anyResolve || !fs.anySlow {
		return nil, nil
	}

	fx := newFixer(pass, insp)
	adm := pass.ResultOf[admission.Analyzer].(*admission.Result).Finder(admission.Options{})
	for _, p := range pools.Find(pass, insp, adm, rep.Skip) {
		resolving, slowOnly := classify(fs, p)
		if len(resolving) == 0 || len(slowOnly) == 0 {
			continue // a pool of one kind of work: nothing waits behind another kind
		}
		for _, t := range slowOnly {
			fix, ok := fx.fix(p, t.Task)
			if !ok {
				continue // no fix that compiles: stay silent rather than half-report
			}
			rep.Report(analysis.Diagnostic{
				Pos:            t.Submit.Pos(),
				End:            t.Submit.End(),
				Category:       shapes[p.Kind].kind,
				Message:        message(pass, p, t, resolving[0]),
				SuggestedFixes: []analysis.SuggestedFix{fix},
				Related: []analysis.RelatedInformation{{
					Pos:     resolving[0].Submit.Pos(),
					End:     resolving[0].Submit.End(),
					Message: "resolving task (" + resolving[0].resolve.format(pass.Pkg.Path()) + ")",
				}},
			})
		}
	}
	return nil, nil
}

// shapes name each pool shape: its diagnostic category and its noun in
// messages.
var shapes = map[pools.Kind]struct{ kind, noun string }{
	pools.Semaphore: {"semaphore", "semaphore"},
	pools.Group:     {"errgroup", "errgroup"},
	pools.TokenChan: {"tokenchan", "token channel"},
	pools.Workers:   {"workers", "worker pool"},
}

// classify returns the tasks of p that resolve hostnames and those that are
// slow without resolving, each in source order.
func classify(fs *facts, p *pools.Pool) (resolving, slowOnly []task) {
	for _, pt := range p.Tasks {
		t := task{Task: pt}
		t.resolve, t.slow = taskChains(fs, pt)
		switch {
		case t.resolve != nil:
			resolving = append(resolving, t)
		case t.slow != nil:
			slowOnly = append(slowOnly, t)
		}
	}
	return resolving, slowOnly
}

// taskChains returns the first resolving and the first slow chain of what a
// task runs, without the goroutines it starts.
func taskChains(fs *facts, t *pools.Task) (r, sl chain) {
	add := func(cr, csl chain) {
		if r == nil {
			r = cr
		}
		if sl == nil {
			sl = csl
		}
	}
	for _, n := range t.Body {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				return false
			case *ast.CallExpr:
				if fn := calls.Callee(fs.pass.TypesInfo, n); fn != nil && fn.Pkg() != nil {
					add(fs.chains(fn))
				}
				// A function handed to a call may resolve there (see note).
				for _, arg := range n.Args {
					if fn := funcRef(fs.pass.TypesInfo, arg); fn != nil && fn.Pkg() != nil {
						cr, _ := fs.chains(fn)
						add(cr, nil)
					}
				}
			}
			return true
		})
	}
	for _, fn := range t.Funcs {
		if fn.Pkg() != nil {
			add(fs.chains(fn))
		}
	}
	return r, sl
}

func message(pass *analysis.Pass, p *pools.Pool, slow, resolving task) string {
	size := ""
	if p.Kind != pools.Workers && p.Limit != nil {
		if n, ok := consts.Int(pass.TypesInfo, p.Limit); ok && n > 0 {
			size = fmt.Sprintf(" of %d", n)
		}
	}
	path := pass.Pkg.Path()
	noun := shapes[p.Kind].noun
	if p.Via != nil {
		noun = "pool" // behind helpers: what bounds it is theirs to say
	}
	return fmt.Sprintf("%s %s%s runs slow work (%s) beside work that resolves hostnames (%s), so lookups wait behind it; give the slow work a pool of its own",
		noun, p.Obj.Name(), size, slow.slow.format(path), resolving.resolve.format(path))
}
