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
	ruleBatchBuilder        = report.NewRule("unboundedqueue", "batch-builder", "the pop of the other package's type empties its store whole (a take-all, a Reset, a Done that flushes) rather than taking from the front, and no consumer other than the producer runs it in this package (a goroutine or a for loop in another function): a batch builder or a per-call buffer, emptied by the owner that fills it")
)

// producers finds the producer call sites of the pushes of other packages'
// queue types. It is a type of its own, beside the checker, which asks it
// for the findings.
type producers struct {
	c     *checker
	facts *queuefact.Result

	// consumers maps a whole-store pop, called on a variable or field, to
	// the functions of the package that run it there as a consumer (see
	// consumedElsewhere); built on first use.
	consumers map[popOn][]ast.Node
}

// popOn is a whole-store pop called on one variable or field: the queue
// value a consumer empties.
type popOn struct {
	pop *types.Func
	v   *types.Var
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
	if f := p.facts.Push(fn); !f.Front && !p.consumedElsewhere(cur.Node().(*ast.CallExpr), fn, f, encl) {
		return ruleBatchBuilder
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

// consumedElsewhere reports whether the whole-store pop of f's type is run,
// on the variable or field the push at call fills, in this package, by a
// consumer that is not the producer at encl: a call of it in a goroutine (a literal started by go, a function a go statement
// starts) or in a for loop that is not a range over a collection, in a
// top-level function other than encl's. That is a swap-and-drain pair
// between a producer and a consumer, a FIFO by whole batches. A pop run
// only by the producer's own function (a flush after the fill, a deferred
// Done) or by none seen here is a batch builder's: its store holds one
// batch, one call's worth. A queue value the push reaches through no
// variable or field (a call's result) has no consumer to match.
func (p *producers) consumedElsewhere(call *ast.CallExpr, push *types.Func, f *queuefact.PushFact, encl inspector.Cursor) bool {
	q := code.NamedOf(code.Recv(push))
	v := receiverVar(p.c.pass.TypesInfo, call)
	if q == nil || v == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(q, true, q.Obj().Pkg(), f.Pop)
	pop, _ := obj.(*types.Func)
	if pop == nil {
		return false
	}
	if p.consumers == nil {
		p.consumers = p.wholePopConsumers()
	}
	producer := topLevel(encl)
	for _, fn := range p.consumers[popOn{pop.Origin(), v}] {
		if fn != producer {
			return true
		}
	}
	return false
}

// wholePopConsumers returns, for each whole-store pop of an imported queue
// type called in the package's production files, the top-level functions
// that call it in a goroutine or in a consumer's for loop.
func (p *producers) wholePopConsumers() map[popOn][]ast.Node {
	out := make(map[popOn][]ast.Node)
	for file := range p.c.insp.Root().Children() {
		if p.c.rep.Skip(file.Node().(*ast.File)) {
			continue
		}
		for cur := range file.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			fn := p.c.sh.Callee(call)
			if fn == nil || fn.Pkg() == p.c.pass.Pkg || !p.isWholePop(fn) {
				continue
			}
			v := receiverVar(p.c.pass.TypesInfo, call)
			encl := code.EnclosingFunc(cur)
			if v == nil || !encl.Valid() || !p.c.sh.RunsConcurrently(encl) && !inConsumerLoop(cur, encl) {
				continue
			}
			k := popOn{fn, v}
			out[k] = append(out[k], topLevel(encl))
		}
	}
	return out
}

// receiverVar returns the variable or field whose method call calls (q of
// q.Pop(), the field batch of s.batch.Take()), or nil.
func receiverVar(info *types.Info, call *ast.CallExpr) *types.Var {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	return code.Var(info, sel.X)
}

// isWholePop reports whether fn is the whole-store pop named by a push fact
// of its type.
func (p *producers) isWholePop(fn *types.Func) bool {
	q := code.NamedOf(code.Recv(fn))
	if q == nil {
		return false
	}
	for i := range q.Origin().NumMethods() {
		m := q.Origin().Method(i)
		if f := p.facts.Push(m); f != nil && !f.Front && f.Pop == fn.Name() {
			return true
		}
	}
	return false
}

// inConsumerLoop reports whether cur is inside a for statement (not a range
// over a collection, which visits what it holds once) within the function at
// encl: a consumer's loop that keeps taking batches.
func inConsumerLoop(cur, encl inspector.Cursor) bool {
	for e := range cur.Enclosing((*ast.ForStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		if _, ok := e.Node().(*ast.ForStmt); ok {
			return true
		}
		if e == encl {
			return false
		}
	}
	return false
}

// topLevel returns the declaration (or, outside any, the outermost literal)
// that holds the function at encl.
func topLevel(encl inspector.Cursor) ast.Node {
	top := encl.Node()
	for e := range encl.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		top = e.Node()
	}
	return top
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
	drain := "drains from the front"
	if !f.Front {
		drain = "empties in a consumer of this package"
	}
	msg := fmt.Sprintf("%s never refuses (it %s .%s, which %s %s, with no bound) and this producer checks no length before the push: the queue grows with the producer's rate; check the queue's length through its type (a Len method) against a limit before the push and refuse, drop or wait, or make %s refuse when full",
		name, store, f.Store, f.Pop, drain, fn.Name())
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
