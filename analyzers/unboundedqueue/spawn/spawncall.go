package spawn

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// A fan-out through a call: a range loop over a collection whose size comes
// from the data calls, per element, a function that starts one goroutine
// per call (PerCallFact, percall.go). The goroutines in flight are as many
// as the elements, as for a go statement in the loop; the go statement is
// in the callee, often of another package. The loop limits of the fan-out
// kind decide the call as they decide a go statement (acquired-before,
// count-guard, waits-each, counter-cap, no-iteration-state), and the
// provenance and fixed-set rules of the data-sized fan-out decide the
// collection. There is no fix: the goroutine is started where the call
// cannot bound it.

// perCallChain is the fan-out kind's chain without the rules that ask what
// the goroutine does or which group it joins: the callee's fact says it
// does blocking work in a goroutine of its own.
var perCallChain = []*rule{ruleNoIterationState, ruleAcquiredBefore, ruleCountGuard, ruleWaitsEach, ruleCounterCap}

// perCallFanOuts reports the calls, per element of a data-sized collection,
// of functions that spawn per call.
func (c dataSizes) perCallFanOuts() {
	if c.perCall == nil {
		return
	}
	info := c.pass.TypesInfo
	for _, loop := range c.loops {
		r, ok := loop.Node().(*ast.RangeStmt)
		if !ok {
			continue
		}
		if t := info.TypeOf(r.X); t == nil || !isCollection(t) {
			continue
		}
		fn := code.EnclosingFunc(loop)
		if !fn.Valid() {
			continue
		}
		body, _ := loop.FindNode(r.Body)
		for cur := range body.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			callee := c.sh.Callee(call)
			fact := c.perCall.Of(callee)
			if fact == nil || shared.NearestLoop(cur) != r || code.EnclosingFunc(cur).Node() != fn.Node() {
				continue
			}
			stmt, ok := cur.Parent().Node().(ast.Stmt)
			if !ok {
				stmt = &ast.ExprStmt{X: call}
			}
			sp := spawn{stmt: stmt, call: call, kind: "call", fun: call.Fun, args: call.Args}
			if c.boundedCall(candidate{sp: sp, cur: cur, loop: loop, stream: r.X}) {
				continue
			}
			src, ok := c.dataSource(fn, r.X)
			if !ok {
				c.silenced(ruleNotListing, cur)
				continue
			}
			if fixedSetName(collectionName(r.X)) {
				c.silenced(ruleFixedSet, cur)
				continue
			}
			c.findings = append(c.findings, newFixer(c.sh).perCallFinding(call, callee, fact, r.X, src))
		}
	}
}

// boundedCall reports whether a rule of perCallChain holds for the call x,
// and records it.
func (c dataSizes) boundedCall(x candidate) bool {
	for _, r := range perCallChain {
		if r.holds(c.checker, x) {
			c.silenced(r, x.cur)
			return true
		}
	}
	return false
}

// perCallFinding builds the diagnostic of a call, per element of a
// data-sized collection, of a function that spawns per call.
func (c fixer) perCallFinding(call *ast.CallExpr, callee *types.Func, fact *PerCallFact, coll ast.Expr, src source) *shared.Finding {
	name := funcName(c.pass.Pkg, callee)
	f := &shared.Finding{
		Diag: analysis.Diagnostic{
			Pos:      call.Pos(),
			End:      call.End(),
			Category: "fanout",
			Message: fmt.Sprintf("%s starts a goroutine per call (its go statement at %s does blocking work, %s, and it returns without waiting), and it is called per element of %s, whose size comes from the data (%s): nothing bounds how many run at once; by hand: give %s a limit (a semaphore acquired before its go statement, or a bounded worker), or call a variant that waits and bound the loop",
				name, fact.Go, fact.Work, edits.Source(c.pass, coll), src.what, name),
		},
	}
	if g := c.goStmtAt(callee, fact.Go); g != nil {
		// In this package: show the go statement itself.
		f.Diag.Related = append(f.Diag.Related, analysis.RelatedInformation{Pos: g.Pos(), End: g.End(), Message: name + " starts the goroutine here"})
	} else if callee.Pos().IsValid() {
		f.Diag.Related = append(f.Diag.Related, analysis.RelatedInformation{Pos: callee.Pos(), Message: name + " starts the goroutine (go statement at " + fact.Go + ")"})
	}
	if src.at != nil {
		f.Diag.Related = append(f.Diag.Related, analysis.RelatedInformation{Pos: src.at.Pos(), End: src.at.End(), Message: "the collection's size comes from here"})
	}
	return f
}

// goStmtAt returns the go statement of fn, a function of this package, at
// the position at ("file.go:line", as the fact says it), or nil.
func (c fixer) goStmtAt(fn *types.Func, at string) *ast.GoStmt {
	if fn.Pkg() != c.pass.Pkg {
		return nil
	}
	var found *ast.GoStmt
	for cur := range c.insp.Root().Preorder((*ast.GoStmt)(nil)) {
		p := c.pass.Fset.Position(cur.Node().Pos())
		if fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line) != at {
			continue
		}
		if encl := code.EnclosingFunc(cur); encl.Valid() {
			if fd, ok := encl.Node().(*ast.FuncDecl); ok && c.pass.TypesInfo.Defs[fd.Name] == fn {
				found = cur.Node().(*ast.GoStmt)
				break
			}
		}
	}
	return found
}

// funcName names fn for a message of the package pkg: Save, helper.Save,
// (*helper.Client).Refresh.
func funcName(pkg *types.Package, fn *types.Func) string {
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		if q := qual(fn.Pkg()); q != "" {
			return q + "." + fn.Name()
		}
		return fn.Name()
	}
	t := types.TypeString(recv.Type(), qual)
	if _, ptr := recv.Type().(*types.Pointer); ptr {
		t = "(" + t + ")"
	}
	return t + "." + fn.Name()
}
