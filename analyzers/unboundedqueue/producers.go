package unboundedqueue

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/queuefact"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// Kind queuetype: a queue type declared in another package, whose push
// never refuses ([queuefact.PushFact], imported with the package), filled
// here by a producer with no bound in force. The queue kinds see the type's
// append in its own package, where "a caller may bound it"; the callers
// are here, so the call site is where the missing bound shows.

var (
	ruleProducerLengthCheck = report.NewRule("unboundedqueue", "producer-length-check", "the producer compares the queue's length, read through a method of the queue's type (q.Len() >= max), or asks a bool method of it (q.Full()), before the push of a queue type of another package")
	ruleProducerLimit       = report.NewRule("unboundedqueue", "producer-limit", "the producer waits for an admission limit (a semaphore, a rate limiter, a token) before the push of a queue type of another package")
)

// producers finds the producer call sites of the pushes of other packages'
// queue types. It is a type of its own, beside the checker, which asks it
// for the findings.
type producers struct {
	c     *checker
	facts *queuefact.Result
}

// findings returns the findings at the calls, in the package's production
// files, of a push of another package's queue type with no bound in force.
func (p *producers) findings() []*shared.Finding {
	if !p.facts.Imported(p.c.pass.Pkg) {
		return nil // no imported queue type: nothing to look at
	}
	var out []*shared.Finding
	for file := range p.c.insp.Root().Children() {
		if p.c.rep.Skip(file.Node().(*ast.File)) {
			continue
		}
		for cur := range file.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			fn := p.c.sh.Callee(call)
			f := p.facts.Push(fn)
			if f == nil || fn.Pkg() == p.c.pass.Pkg {
				continue // the queue kinds look at a type of this package
			}
			if rule := p.bound(cur, fn); rule != nil {
				p.c.rep.Silence(call, rule)
				continue
			}
			out = append(out, p.finding(call, fn, f))
		}
	}
	return out
}

// bound returns the rule that keeps the push call at cur of fn from being a
// finding, or nil: a batch copied from an input, a length check through the
// type's methods before it, a wait for a limit before it, a caller that
// blocks after it.
func (p *producers) bound(cur inspector.Cursor, fn *types.Func) *report.Rule {
	site := code.StmtOf(cur)
	if !site.Valid() {
		site = cur
	}
	if inBoundedLoop(p.c.pass.TypesInfo, site) {
		return ruleBatchFill
	}
	encl := code.EnclosingFunc(cur)
	if !encl.Valid() {
		return nil
	}
	if p.checksLength(encl, cur, code.NamedOf(code.Recv(fn))) {
		return ruleProducerLengthCheck
	}
	if p.waitsBefore(encl, cur) {
		return ruleProducerLimit
	}
	if p.c.blocksAfter(encl, site) {
		return ruleCallerWaits
	}
	return nil
}

// checksLength reports whether the function at encl, before the push at
// site, compares the result of a method of the queue's type q with a limit
// (not an emptiness test), or tests a bool method of it in an if condition.
func (p *producers) checksLength(encl, site inspector.Cursor, q *types.Named) bool {
	if q == nil {
		return false
	}
	info := p.c.pass.TypesInfo
	before := site.Node().Pos()
	found := false
	for cur := range encl.Preorder((*ast.BinaryExpr)(nil), (*ast.IfStmt)(nil)) {
		if cur.Node().Pos() >= before || found {
			break
		}
		switch n := cur.Node().(type) {
		case *ast.BinaryExpr:
			if !shared.IsComparison(n.Op) {
				continue
			}
			for _, pair := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
				if p.callsMethodOf(pair[0], q) && !isEmptiness(info, pair[1]) {
					found = true
				}
			}
		case *ast.IfStmt:
			if call, ok := ast.Unparen(stripNot(n.Cond)).(*ast.CallExpr); ok && isBool(info.TypeOf(call)) && p.callsMethodOf(call, q) {
				found = true
			}
		}
	}
	return found
}

// callsMethodOf reports whether e calls a method of the type q: q.Len(),
// len(q.Items()).
func (p *producers) callsMethodOf(e ast.Expr, q *types.Named) bool {
	return code.AnyCall(e, code.IsFuncLit, func(call *ast.CallExpr) bool {
		fn := p.c.sh.Callee(call)
		n := code.NamedOf(code.Recv(fn))
		return n != nil && n.Origin() == q.Origin()
	})
}

// waitsBefore reports whether the function at encl waits for an admission
// limit before the push at site.
func (p *producers) waitsBefore(encl, site inspector.Cursor) bool {
	before := site.Node().Pos()
	for cur := range encl.Preorder((*ast.CallExpr)(nil), (*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.SelectStmt)(nil)) {
		if cur.Node().Pos() >= before {
			break
		}
		if _, ok := p.c.adm.At(cur); ok {
			return true
		}
	}
	return false
}

// finding builds the diagnostic at the push call: there is no safe fix in
// general (the producer's error path and the limit are the author's), so
// the message says what to do by hand.
func (p *producers) finding(call *ast.CallExpr, fn *types.Func, f *queuefact.PushFact) *shared.Finding {
	store := "appends to its slice"
	if f.List {
		store = "pushes onto its list"
	}
	name := code.DisplayName(fn)
	msg := fmt.Sprintf("%s never refuses (it %s .%s, which %s drains, with no bound) and this producer checks no length before the push: the queue grows with the producer's rate; check the queue's length through its type (a Len method) against a limit before the push and refuse, drop or wait, or make %s refuse when full",
		name, store, f.Store, f.Pop, fn.Name())
	return &shared.Finding{Diag: analysis.Diagnostic{
		Pos:      call.Pos(),
		End:      call.End(),
		Category: "queuetype",
		Message:  msg,
	}}
}

// isEmptiness reports whether e is 0 or 1: q.Len() > 0 bounds nothing.
func isEmptiness(info *types.Info, e ast.Expr) bool {
	k, ok := consts.Int(info, e)
	return ok && (k == 0 || k == 1)
}

func isBool(t types.Type) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// stripNot returns e without a leading !.
func stripNot(e ast.Expr) ast.Expr {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.NOT {
		return u.X
	}
	return e
}
