package spawn

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// Spawn per call: a function that starts a goroutine doing blocking work
// and returns without waiting for it, with nothing limiting it, starts one
// more goroutine each time it is called. A caller that calls it per element
// of a data-sized collection, or per request, is a fan-out or a detached
// spawn as much as a go statement of its own; the go statement is just in
// another function, often of another package.
//
// PerCallAnalyzer records it as a fact (PerCallFact) on the declared
// function, exported across packages like admission's facts. It decides the
// go statement with the detached rule's deciders (detached.go): the work
// blocks (admission's Work fact), the function does not wait after the go
// statement, acquires no limiter before it, neither guards the start nor
// starts only on some calls (conditionalStart), and the goroutine neither
// acquires a slot before its work nor lives as long as an entity. It
// reports nothing: spawncall.go reports the callers.
//
// Only go statements count here: an errgroup's or a WaitGroup's Go leaves
// its group to a Wait the function may hand to its caller.

// PerCallAnalyzer exports a [PerCallFact] on each function of the analyzed
// package that starts one goroutine per call, and returns a
// [*PerCallResult] with those of the package and of every package it
// imports. It reports nothing.
var PerCallAnalyzer = &analysis.Analyzer{
	Name:       "queuecheckspawnpercall",
	Doc:        "computes which functions start one goroutine doing blocking work per call, for the unboundedqueue check",
	Requires:   []*analysis.Analyzer{inspect.Analyzer, admission.Analyzer},
	Run:        runPerCall,
	ResultType: reflect.TypeFor[*PerCallResult](),
	FactTypes:  []analysis.Fact{new(PerCallFact), new(AsyncWrapFact)},
}

// A PerCallFact marks a function that starts one goroutine per call: the
// goroutine does blocking work, the function returns without waiting for
// it, and nothing limits how many run.
type PerCallFact struct {
	Go   string // where the go statement is: "actor.go:73"
	Work string // the goroutine's blocking work: "c.client.Do"
	// Via names the function the go statement is in when the fact's
	// function spawns through a call of it, qualified by its package
	// ("(*server.Control).closeProxy"); "" when the go statement is its own.
	Via string
	// Ctx is set when the goroutine's work takes a context parameter of
	// the function (or one derived from it): a caller that passes its
	// request's context bounds the goroutine's life by the request's.
	Ctx bool
	// Served is set when the go statement's function serves a request
	// itself (takes one, or handles an event): the detached kind decides
	// the go statement there, and its callers need not.
	Served bool
}

// AFact marks PerCallFact as an analysis fact.
func (*PerCallFact) AFact() {}

func (f *PerCallFact) String() string {
	s := fmt.Sprintf("spawns per call at %s (%s)", f.Go, f.Work)
	if f.Via != "" {
		s += " through " + f.Via
	}
	if f.Ctx {
		s += ", under its context"
	}
	return s
}

// where says where the go statement is, for a message: "at helper.go:21",
// or "through (*Control).closeProxy, at control.go:657".
func (f *PerCallFact) where() string {
	if f.Via != "" {
		return "through " + f.Via + ", at " + f.Go
	}
	return "at " + f.Go
}

// A PerCallResult holds the per-call facts of a package and its imports.
type PerCallResult struct {
	facts map[*types.Func]*PerCallFact
	wraps map[*types.Func]*AsyncWrapFact // asynchronous wrappers (asyncwrap.go)
}

// wrapOf returns the AsyncWrapFact of fn, or nil.
func (r *PerCallResult) wrapOf(fn *types.Func) *AsyncWrapFact {
	if r == nil || fn == nil {
		return nil
	}
	return r.wraps[fn.Origin()]
}

// Of returns the fact of fn (of this package or an imported one), or nil.
func (r *PerCallResult) Of(fn *types.Func) *PerCallFact {
	if r == nil || fn == nil {
		return nil
	}
	return r.facts[fn.Origin()]
}

// Reaches reports whether pkg may call a function that spawns per call: one
// of its own, or of a package it imports directly.
func (r *PerCallResult) Reaches(pkg *types.Package) bool {
	if r == nil {
		return false
	}
	for fn := range r.facts {
		if fn.Pkg() == pkg || slices.Contains(pkg.Imports(), fn.Pkg()) {
			return true
		}
	}
	for fn := range r.wraps {
		if fn.Pkg() == pkg || slices.Contains(pkg.Imports(), fn.Pkg()) {
			return true
		}
	}
	return false
}

func runPerCall(pass *analysis.Pass) (any, error) {
	res := &PerCallResult{facts: make(map[*types.Func]*PerCallFact), wraps: make(map[*types.Func]*AsyncWrapFact)}
	for _, of := range pass.AllObjectFacts() {
		fn, ok := of.Object.(*types.Func)
		if !ok {
			continue
		}
		switch f := of.Fact.(type) {
		case *PerCallFact:
			res.facts[fn] = f
		case *AsyncWrapFact:
			res.wraps[fn] = f
		}
	}
	if code.IsStd(pass) {
		return res, nil // the standard library starts no such goroutine a caller should count
	}
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	adm := pass.ResultOf[admission.Analyzer].(*admission.Result)
	sh := &shared.Pkg{Pass: pass, Insp: insp, Res: adm, Adm: adm.Finder(admission.Options{})}
	for file := range insp.Root().Children() {
		if strings.HasSuffix(pass.Fset.File(file.Node().Pos()).Name(), "_test.go") {
			continue
		}
		for cur := range file.Preorder((*ast.GoStmt)(nil)) {
			sh.GoStmts = append(sh.GoStmts, cur)
		}
	}
	c := &checker{sh: sh, pass: pass, insp: insp, adm: sh.Adm, asked: make(askedSpawns)}
	export := func(fn *types.Func, f *PerCallFact) {
		res.facts[fn] = f
		if fn.Exported() {
			pass.ExportObjectFact(fn, f) // another package can call only these
		}
	}
	for _, cur := range sh.GoStmts {
		if fn, f := (requestSpawns{c}).perCall(cur); f != nil {
			export(fn, f)
		}
		if fn, decl, ok := returnedBy(pass.TypesInfo, cur); ok {
			if w := (requestSpawns{c}).asyncWrapper(fn, decl); w != nil {
				res.wraps[fn] = w
				if fn.Exported() {
					pass.ExportObjectFact(fn, w)
				}
			}
		}
	}
	// A function that calls one that spawns per call, as its go statement
	// would be called, spawns per call too: to a fixed point, as a caller
	// may precede its callee in the package.
	if len(res.facts) == 0 {
		return res, nil // no function here or imported spawns per call: none can through it
	}
	calls := callsOfDecls(pass, insp)
	for changed := true; changed; {
		changed = false
		for _, cur := range calls {
			if fn, f := (requestSpawns{c}).perCallThrough(cur, res); f != nil && res.facts[fn] == nil {
				export(fn, f)
				changed = true
			}
		}
	}
	return res, nil
}

// returnedBy returns the declared function whose body returns the function
// literal holding the go statement at cur, and the function's declaration:
// the shape of an asynchronous wrapper (asyncwrap.go).
func returnedBy(info *types.Info, cur inspector.Cursor) (*types.Func, inspector.Cursor, bool) {
	lit := code.EnclosingFunc(cur)
	if _, ok := lit.Node().(*ast.FuncLit); !ok {
		return nil, inspector.Cursor{}, false
	}
	if _, ok := lit.Parent().Node().(*ast.ReturnStmt); !ok {
		return nil, inspector.Cursor{}, false
	}
	decl := code.EnclosingFunc(lit.Parent())
	fd, ok := decl.Node().(*ast.FuncDecl)
	if !ok {
		return nil, inspector.Cursor{}, false
	}
	fn, ok := info.Defs[fd.Name].(*types.Func)
	return fn, decl, ok
}

// callsOfDecls returns the calls in the bodies of the declared functions of
// the package's production files, outside function literals.
func callsOfDecls(pass *analysis.Pass, insp *inspector.Inspector) []inspector.Cursor {
	var calls []inspector.Cursor
	for file := range insp.Root().Children() {
		if strings.HasSuffix(pass.Fset.File(file.Node().Pos()).Name(), "_test.go") {
			continue
		}
		for cur := range file.Preorder((*ast.CallExpr)(nil)) {
			if fn := code.EnclosingFunc(cur); !fn.Valid() {
				continue // a package variable's initializer
			} else if _, ok := fn.Node().(*ast.FuncDecl); ok {
				calls = append(calls, cur)
			}
		}
	}
	return calls
}

// perCallThrough returns the declared function around the call at cur and
// its fact when the call is of a function that spawns per call (res) and
// runs once on every call of its own, as perCall decides a go statement:
// outside loops and literals, not in a go or defer statement, not under a
// condition or after an early return, with no limiter acquired before it
// and no wait after it.
func (c requestSpawns) perCallThrough(cur inspector.Cursor, res *PerCallResult) (*types.Func, *PerCallFact) {
	call := cur.Node().(*ast.CallExpr)
	callee := c.sh.Callee(call)
	f := res.Of(callee)
	if f == nil || shared.NearestLoop(cur) != nil {
		return nil, nil
	}
	switch cur.Parent().Node().(type) {
	case *ast.GoStmt, *ast.DeferStmt:
		return nil, nil // the go statement's own goroutine, or a call at the end
	}
	fn := code.EnclosingFunc(cur)
	decl, ok := fn.Node().(*ast.FuncDecl)
	if !ok {
		return nil, nil
	}
	obj, ok := c.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok || obj == callee.Origin() {
		return nil, nil
	}
	switch {
	case c.waitsAfterIn(fn, cur):
		return nil, nil
	case c.acquiredBeforeIn(fn, cur):
		return nil, nil
	case c.guardedStart(fn, cur) || c.conditionalStart(fn, cur):
		return nil, nil
	}
	via := f.Via
	if via == "" {
		via = funcName(nil, callee)
	}
	return obj, &PerCallFact{
		Go:     f.Go,
		Work:   f.Work,
		Via:    via,
		Ctx:    f.Ctx && c.requestContext(fn, callSpawn(cur)),
		Served: f.Served,
	}
}

// callSpawn is the call at cur seen as a spawn, for the deciders that ask
// what a go statement's call reads.
func callSpawn(cur inspector.Cursor) spawn {
	call := cur.Node().(*ast.CallExpr)
	stmt, ok := cur.Parent().Node().(ast.Stmt)
	if !ok {
		stmt = &ast.ExprStmt{X: call}
	}
	return spawn{stmt: stmt, call: call, kind: "call", fun: call.Fun, args: call.Args}
}

// perCall returns the declared function around the go statement at cur and
// its fact when the function starts one goroutine per call (see
// PerCallFact), or nil.
func (c requestSpawns) perCall(cur inspector.Cursor) (*types.Func, *PerCallFact) {
	if shared.NearestLoop(cur) != nil {
		return nil, nil // in a loop: a fan-out of its own, which the loop kinds decide
	}
	fn := code.EnclosingFunc(cur)
	decl, ok := fn.Node().(*ast.FuncDecl)
	if !ok {
		return nil, nil // in a literal: a callback or a goroutine, not one call's own body
	}
	obj, ok := c.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok {
		return nil, nil
	}
	sp, ok := c.spawnAt(cur)
	if !ok {
		return nil, nil
	}
	work := c.spawnWork(sp)
	switch {
	case work == nil:
		return nil, nil // ruleNoBlockingWork
	case c.waitsAfterIn(fn, cur) || c.resultUsedAfter(fn, cur, sp):
		return nil, nil // ruleWaitedByCaller
	case usesLocalPipe(c.pass.TypesInfo, fn.Node(), c.spawnedBody(sp), sp.args):
		return nil, nil // ruleLocalPipe
	case c.acquiredBeforeIn(fn, cur):
		return nil, nil // ruleAcquiredBefore
	case dataSizes(c).acquiresBeforeWork(sp, work):
		return nil, nil // ruleAcquiredInside
	case c.guardedStart(fn, cur) || c.conditionalStart(fn, cur) || c.returnsWhileBusy(fn, cur, sp):
		return nil, nil // ruleGuardedStart
	case c.longLived(sp):
		return nil, nil // ruleLongLived
	}
	at := c.pass.Fset.Position(sp.stmt.Pos())
	return obj, &PerCallFact{
		Go:     fmt.Sprintf("%s:%d", filepath.Base(at.Filename), at.Line),
		Work:   types.ExprString(work.Fun),
		Ctx:    c.requestContext(fn, sp),
		Served: c.perRequest(fn) != "",
	}
}

// conditionalStart reports whether the go statement at cur runs only on
// some calls of fn: inside an if, a switch or a select of fn, or after an
// if of fn that returns on anything but an error (if len(events) == 0 {
// return }, after a helper that claims the key's state). Such a function
// starts a goroutine as often as its state lets it (once per key, once
// per idle partition, a LoadOrStore written by hand), which the fact cannot
// count; on the census's tune services every conditional start seen was
// one of these.
func (c requestSpawns) conditionalStart(fn, cur inspector.Cursor) bool {
	for e := range cur.Enclosing((*ast.IfStmt)(nil), (*ast.SwitchStmt)(nil), (*ast.TypeSwitchStmt)(nil), (*ast.SelectStmt)(nil)) {
		if fn.Contains(e) && e.Node() != fn.Node() {
			return true
		}
	}
	info := c.pass.TypesInfo
	early := false
	ast.Inspect(code.FuncBody(fn.Node()), func(n ast.Node) bool {
		if early || n == nil || n.Pos() >= cur.Node().Pos() {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if returns(n.Body) && !testsError(info, n.Cond) {
				early = true
			}
		}
		return !early
	})
	return early
}

// returns reports whether the block has a return statement, outside
// function literals.
func returns(b *ast.BlockStmt) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		}
		return !found
	})
	return found
}

// testsError reports whether cond compares an error with nil: err != nil.
func testsError(info *types.Info, cond ast.Expr) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if b.Op == token.LOR || b.Op == token.LAND {
		return testsError(info, b.X) && testsError(info, b.Y)
	}
	return (code.IsError(info.TypeOf(b.X)) && code.IsNil(info, b.Y)) || (code.IsError(info.TypeOf(b.Y)) && code.IsNil(info, b.X))
}
