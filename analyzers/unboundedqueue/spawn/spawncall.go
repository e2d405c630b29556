package spawn

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

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
			if c.boundedBy(perCallChain, candidate{sp: sp, cur: cur, loop: loop, stream: r.X}) {
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

// boundedBy reports whether a rule of chain holds for the call x, and
// records the first that does.
func (c dataSizes) boundedBy(chain []*rule, x candidate) bool {
	for _, r := range chain {
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
			Message: fmt.Sprintf("%s starts a goroutine per call (its go statement %s does blocking work, %s, and it returns without waiting), and it is called per element of %s, whose size comes from the data (%s): nothing bounds how many run at once; by hand: give %s a limit (a semaphore acquired before its go statement, or a bounded worker), or call a variant that waits and bound the loop",
				name, fact.where(), fact.Work, edits.Source(c.pass, coll), src.what, name),
		},
	}
	c.relateGoStmt(f, callee, fact)
	if src.at != nil {
		f.Diag.Related = append(f.Diag.Related, analysis.RelatedInformation{Pos: src.at.Pos(), End: src.at.End(), Message: "the collection's size comes from here"})
	}
	return f
}

// relateGoStmt adds to f the go statement of callee's fact as a related
// position: the statement itself when it is callee's, in this package;
// else callee's declaration.
func (c fixer) relateGoStmt(f *shared.Finding, callee *types.Func, fact *PerCallFact) {
	name := funcName(c.pass.Pkg, callee)
	if g := c.goStmtAt(callee, fact); g != nil {
		// In this package: show the go statement itself.
		f.Diag.Related = append(f.Diag.Related, analysis.RelatedInformation{Pos: g.Pos(), End: g.End(), Message: name + " starts the goroutine here"})
	} else if callee.Pos().IsValid() {
		f.Diag.Related = append(f.Diag.Related, analysis.RelatedInformation{Pos: callee.Pos(), Message: name + " starts the goroutine (go statement " + fact.where() + ")"})
	}
}

// goStmtAt returns the go statement of fact, when it is in this package:
// the go statement at the position the fact says ("file.go:line") in fn, or
// in the function the fact goes through (Via), or nil.
func (c fixer) goStmtAt(fn *types.Func, fact *PerCallFact) *ast.GoStmt {
	if fn.Pkg() != c.pass.Pkg {
		return nil
	}
	for cur := range c.insp.Root().Preorder((*ast.GoStmt)(nil)) {
		p := c.pass.Fset.Position(cur.Node().Pos())
		if fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line) != fact.Go {
			continue
		}
		encl := code.EnclosingFunc(cur)
		fd, ok := encl.Node().(*ast.FuncDecl)
		if !ok {
			continue
		}
		obj, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if obj == fn || (obj != nil && fact.Via != "" && funcName(nil, obj) == fact.Via) {
			return cur.Node().(*ast.GoStmt)
		}
	}
	return nil
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

// Detached through a call: a function that serves a request or an event
// (detached.go) calls, once per call, a function that spawns per call. Its
// goroutine outlives the request as if the go statement were the
// handler's own, and nothing limits how many are alive. The detached
// kind's deciders decide the call: the request's context handed to a
// goroutine that works under it, a wait after the call, a limiter acquired
// before it, a guarded start. A callee that serves a request itself has
// its go statement decided where it is (PerCallFact.Served).
func (c requestSpawns) detachedCalls() {
	if c.checker.perCall == nil {
		return
	}
	for file := range c.insp.Root().Children() {
		if c.sh.Rep.Skip(file.Node().(*ast.File)) {
			continue
		}
		for cur := range file.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			callee := c.sh.Callee(call)
			fact := c.checker.perCall.Of(callee)
			if fact == nil || fact.Served || shared.NearestLoop(cur) != nil {
				continue // in a loop: the fan-out kind decides the call
			}
			switch cur.Parent().Node().(type) {
			case *ast.GoStmt, *ast.DeferStmt:
				continue
			}
			fn := code.EnclosingFunc(cur)
			if !fn.Valid() {
				continue
			}
			req := c.serves(fn)
			if req == "" {
				continue
			}
			switch {
			case answersRequest(req) && fact.Ctx && c.requestContext(fn, callSpawn(cur)):
				c.silenced(ruleRequestContext, cur)
			case c.waitsAfterIn(fn, cur):
				c.silenced(ruleWaitedByCaller, cur)
			case c.acquiredBeforeIn(fn, cur):
				c.silenced(ruleAcquiredBefore, cur)
			case c.guardedStart(fn, cur):
				c.silenced(ruleGuardedStart, cur)
			default:
				c.findings = append(c.findings, newFixer(c.sh).detachedCallFinding(call, callee, fact, fn, req))
			}
		}
	}
}

// detachedCallFinding builds the diagnostic of a call, per request, of a
// function that spawns per call. It has no fix, as a detached go
// statement's has none.
func (c fixer) detachedCallFinding(call *ast.CallExpr, callee *types.Func, fact *PerCallFact, fn inspector.Cursor, req string) *shared.Finding {
	name := funcName(c.pass.Pkg, callee)
	f := &shared.Finding{
		Diag: analysis.Diagnostic{
			Pos:      call.Pos(),
			End:      call.End(),
			Category: "detached",
			Message: fmt.Sprintf("%s starts a goroutine per call (its go statement %s does blocking work, %s, and it returns without waiting), and %s calls it per %s: the goroutines outlive the request, and nothing limits how many are alive, so their number grows with the request rate times how long each runs; by hand: give %s a limit (a semaphore acquired before its go statement, shedding the work when it is full) or hand the work to a bounded worker",
				name, fact.where(), fact.Work, c.sh.FuncName(fn), req, name),
		},
	}
	c.relateGoStmt(f, callee, fact)
	return f
}

// perCallItemChain is the goroutine-per-item kind's chain without the rules
// that read the goroutine's own body (long-lived, lives-until-stop,
// restarts-worker, limited-group, lockstep-reply): the callee's fact says
// its goroutine does blocking work and is not long-lived.
var perCallItemChain = []*rule{ruleNoIterationState, ruleAcquiredBefore, ruleCountGuard, ruleWaitsEach, ruleCounterCap, ruleEntityItems, ruleAMQPPrefetch, ruleFiniteStream}

// perCallItems reports the calls, per item a loop takes from a stream (a
// range over a channel, an endless loop that receives or reads), of
// functions that spawn per call: a goroutine per item, as for a go
// statement in the loop (goroutineperitem), started in the callee.
func (c dataSizes) perCallItems() {
	if c.perCall == nil {
		return
	}
	for _, loop := range c.loops {
		if !mayConsumeStream(c.pass.TypesInfo, loop.Node()) {
			continue
		}
		fn := code.EnclosingFunc(loop)
		body, ok := loop.FindNode(loopBody(loop.Node()))
		if !ok || !fn.Valid() {
			continue
		}
		for cur := range body.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			callee := c.sh.Callee(call)
			fact := c.perCall.Of(callee)
			if fact == nil || shared.NearestLoop(cur) != loop.Node() || code.EnclosingFunc(cur).Node() != fn.Node() {
				continue
			}
			if _, ok := cur.Parent().Node().(*ast.GoStmt); ok {
				continue // the go statement is the loop's own spawn
			}
			stream, recv, ok := c.streamOf(loop, cur)
			if !ok {
				continue
			}
			if c.boundedBy(perCallItemChain, candidate{sp: callSpawn(cur), cur: cur, loop: loop, stream: stream, recv: recv}) {
				continue
			}
			_, pulled := recv.(*ast.CallExpr)
			c.findings = append(c.findings, newFixer(c.sh).perCallItemFinding(call, callee, fact, stream, pulled))
		}
	}
}

// perCallItemFinding builds the diagnostic of a call, per item of a
// stream, of a function that spawns per call.
func (c fixer) perCallItemFinding(call *ast.CallExpr, callee *types.Func, fact *PerCallFact, stream ast.Expr, pulled bool) *shared.Finding {
	name := funcName(c.pass.Pkg, callee)
	from, why := itemSource(pulled)
	f := shared.NewFinding(call, "goroutineperitem",
		fmt.Sprintf("%s starts a goroutine per call (its go statement %s does blocking work, %s, and it returns without waiting), and it is called per item %s %s with nothing bounding how many run at once: %s; by hand: give %s a limit (a semaphore acquired before its go statement) or call a variant that does the work in place",
			name, fact.where(), fact.Work, from, edits.Source(c.pass, stream), why, name),
		stream, "items arrive here")
	c.relateGoStmt(f, callee, fact)
	return f
}
