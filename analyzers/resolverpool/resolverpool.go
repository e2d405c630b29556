package resolverpool

import (
	_ "embed"
	"fmt"

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
	FactTypes: []analysis.Fact{new(funcFact), new(implsFact)},
}

//go:embed doc.go
var docFile string

var doc = report.Doc(docFile, "resolverpool")

var (
	resolveTable = calls.NewResolving("-resolverpool.resolve")
	slowTable    = calls.NewSlow("-resolverpool.slow")
)

func init() {
	report.AddWhyFlag(&Analyzer.Flags)
	Analyzer.Flags.Var(resolveTable, "resolve", "extra functions that resolve hostnames, comma-separated: pkg/path.Func, pkg/path.Type.Method or (*pkg/path.Type).Method")
	Analyzer.Flags.Var(slowTable, "slow", "extra functions that are slow blocking work, comma-separated: pkg/path.Func, pkg/path.Type.Method or (*pkg/path.Type).Method")
}

func run(pass *analysis.Pass) (any, error) {
	rep := report.New(pass)
	defer rep.Finish()
	resolveTable.Verify(pass.Pkg)
	slowTable.Verify(pass.Pkg)

	// The tables describe the standard library: its bodies need no walk,
	// and it runs no pools of its own that anyone could fix.
	if code.IsStd(pass) {
		rep.SilencePackage(pass.Files, ruleStandardLibrary)
		return nil, nil
	}
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	adm := pass.ResultOf[admission.Analyzer].(*admission.Result)
	fs := summarize(pass, insp, adm)
	if r := fs.skipsPackage(); r != nil {
		rep.SilencePackage(pass.Files, r)
		return nil, nil
	}

	fx := newFixer(pass, insp, rep.SkipPos)
	found, rejected := pools.FindAll(pass, insp, adm.Finder(admission.Options{}), rep.Skip)
	for _, r := range rejected {
		for _, at := range r.At {
			rep.Silence(at, rejectRules[r.Why])
		}
	}
	for _, p := range found {
		for _, s := range shared(fs, p, rep) {
			d := analysis.Diagnostic{
				Pos:      s.slow.at.Pos(),
				End:      s.slow.end(),
				Category: shapes[p.Kind].kind,
				Related: []analysis.RelatedInformation{{
					Pos:     s.resolving.at.Pos(),
					End:     s.resolving.end(),
					Message: "resolving task (" + s.resolving.describe(pass, s.resolving.r) + ")",
				}},
			}
			fix, byHand := fx.fixFor(p, s.slow)
			if byHand == "" {
				d.SuggestedFixes = []analysis.SuggestedFix{fix}
			}
			d.Message = message(pass, p, s, byHand)
			rep.Report(d)
		}
	}
	return nil, nil
}

// skipsPackage returns the rule that keeps every pool of the package from
// a finding, as neither lookups nor slow work happen there, or nil.
func (fs *facts) skipsPackage() *report.Rule {
	switch {
	case !fs.anyResolve:
		return ruleNoResolving
	case !fs.anySlow:
		return ruleNoSlowWork
	}
	return nil
}

// shapes name each pool shape: its diagnostic category and its noun in
// messages.
var shapes = map[pools.Kind]struct{ kind, noun string }{
	pools.Semaphore: {"semaphore", "semaphore"},
	pools.Group:     {"errgroup", "errgroup"},
	pools.TokenChan: {"tokenchan", "token channel"},
	pools.Workers:   {"workers", "worker pool"},
}

// message says what the pool runs side by side and, when no fix can do it,
// what to do by hand.
func message(pass *analysis.Pass, p *pools.Pool, s sharing, byHand string) string {
	size := ""
	if p.Kind != pools.Workers && p.Limit != nil {
		if n, ok := consts.Int(pass.TypesInfo, p.Limit); ok && n > 0 {
			size = fmt.Sprintf(" of %d", n)
		}
	}
	noun := shapes[p.Kind].noun
	if p.Via != nil {
		noun = "pool" // behind helpers: what bounds it is theirs to say
	}
	resolving := s.resolving.describe(pass, s.resolving.r)
	var msg, remedy string
	if s.held {
		msg = fmt.Sprintf("%s %s%s holds a slot while a task waits between attempts (%s) beside work that resolves hostnames (%s), so lookups wait behind the wait",
			noun, p.Obj.Name(), size, s.slow.describe(pass, s.slow.held), resolving)
		remedy = "give the retrying work a pool of its own"
	} else {
		msg = fmt.Sprintf("%s %s%s runs slow work (%s) beside work that resolves hostnames (%s), so lookups wait behind it",
			noun, p.Obj.Name(), size, s.slow.describe(pass, s.slow.sl), resolving)
		remedy = "give the slow work a pool of its own"
	}
	if byHand != "" {
		remedy = "by hand, " + byHand
	}
	return msg + "; " + remedy
}
