package spawn

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// Handlers made asynchronous. A function that takes a handler and returns
// a function starting it in a goroutine of its own on each call,
//
//	func AsyncHandler(f func(Message)) func(Message) {
//		return func(m Message) {
//			go f(m)
//		}
//	}
//
// turns whatever calls the returned function once per message (a
// dispatcher's read loop, an event bus) into one goroutine per message,
// each running the handler while the caller reads on. The wrapper's own
// package cannot see what it wraps, so it says nothing there; its callers
// can. AsyncWrapFact records the wrapper, exported across packages, and a
// call of it whose handler does blocking work is reported at the call:
// the goroutines outlive the event, and nothing limits how many are alive.
//
// The wrapper must be only that: its body returns one function literal,
// whose go statement, in no loop and after no limiter, calls the wrapper's
// parameter with the literal's own parameters (the event). A wrapper that
// takes a slot first, or starts the handler only on some calls, is none.

// ruleHandlerNoWork silences a call of an asynchronous wrapper whose
// handler does no blocking work, as far as the check sees.
var ruleHandlerNoWork = newRule("handler-no-work", "the handler an asynchronous wrapper starts per call (a function returning one that runs it in a goroutine of its own) does no blocking work that the check sees: it only computes, or it is a function value whose body is out of view", nil)

// An AsyncWrapFact marks a function that returns a function starting one
// of its parameters in a goroutine per call.
type AsyncWrapFact struct {
	Param int    // the index of the handler among the function's parameters
	Go    string // where the go statement is: "handler.go:104"
}

// AFact marks AsyncWrapFact as an analysis fact.
func (*AsyncWrapFact) AFact() {}

func (f *AsyncWrapFact) String() string {
	return fmt.Sprintf("returns a function starting parameter %d per call at %s", f.Param, f.Go)
}

// asyncWrapper returns the fact of the declared function fn, whose
// declaration is at decl, when it is an asynchronous wrapper of one of its
// parameters, or nil.
func (c requestSpawns) asyncWrapper(fn *types.Func, decl inspector.Cursor) *AsyncWrapFact {
	fd := decl.Node().(*ast.FuncDecl)
	if fd.Body == nil || len(fd.Body.List) != 1 {
		return nil
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	lit, ok := ast.Unparen(ret.Results[0]).(*ast.FuncLit)
	if !ok {
		return nil
	}
	litCur, ok := decl.FindNode(lit)
	if !ok {
		return nil
	}
	info := c.pass.TypesInfo
	for _, st := range lit.Body.List {
		g, ok := st.(*ast.GoStmt)
		if !ok {
			continue
		}
		gCur, _ := litCur.FindNode(g)
		if c.acquiredBeforeIn(litCur, gCur) {
			return nil
		}
		call := handlerCall(info, g)
		if call == nil {
			return nil
		}
		param, ok := info.Uses[rootIdent(call.Fun)].(*types.Var)
		if !ok || call.Fun != rootIdent(call.Fun) {
			return nil
		}
		i := shared.ParamIndex(fn, param)
		if i < 0 || !passesParamOf(info, lit, call) {
			return nil
		}
		at := c.pass.Fset.Position(g.Pos())
		return &AsyncWrapFact{Param: i, Go: fmt.Sprintf("%s:%d", filepath.Base(at.Filename), at.Line)}
	}
	return nil
}

// handlerCall returns the call the go statement g makes of a function
// value: go f(m), or the one call of a literal that only calls it (go
// func() { defer recoverPanic(); f(m) }()).
func handlerCall(info *types.Info, g *ast.GoStmt) *ast.CallExpr {
	lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit)
	if !ok {
		return g.Call
	}
	var found *ast.CallExpr
	for _, st := range lit.Body.List {
		switch st := st.(type) {
		case *ast.DeferStmt:
		case *ast.ExprStmt:
			call, ok := ast.Unparen(st.X).(*ast.CallExpr)
			if !ok || found != nil {
				return nil
			}
			if _, isVar := info.Uses[rootIdent(call.Fun)].(*types.Var); !isVar {
				return nil
			}
			found = call
		default:
			return nil
		}
	}
	return found
}

// passesParamOf reports whether call passes one of lit's parameters: the
// event the returned function was called with.
func passesParamOf(info *types.Info, lit *ast.FuncLit, call *ast.CallExpr) bool {
	sig, ok := info.TypeOf(lit).(*types.Signature)
	if !ok {
		return false
	}
	for _, a := range call.Args {
		v, ok := info.Uses[rootIdent(a)].(*types.Var)
		if !ok {
			continue
		}
		for p := range sig.Params().Variables() {
			if p == v {
				return true
			}
		}
	}
	return false
}

// asyncWrapCalls reports the calls of asynchronous wrappers (AsyncWrapFact)
// whose handler does blocking work: each call of the function they return
// leaves a goroutine running it.
func (c requestSpawns) asyncWrapCalls() {
	if c.checker.perCall == nil || len(c.checker.perCall.wraps) == 0 {
		return
	}
	for file := range c.insp.Root().Children() {
		f := file.Node().(*ast.File)
		if c.sh.Rep.Skip(f) {
			continue
		}
		for cur := range file.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			callee := c.sh.Callee(call)
			fact := c.checker.perCall.wrapOf(callee)
			if fact == nil || fact.Param >= len(call.Args) || c.sh.Rep.InHook(f, call.Pos()) {
				continue
			}
			handler := call.Args[fact.Param]
			work, name := c.handlerWork(handler)
			if work == "" {
				c.silenced(ruleHandlerNoWork, cur)
				continue
			}
			if body := c.handlerBody(handler); body != nil {
				if c.acquiresFirst(body) {
					c.silenced(ruleAcquiredInside, cur)
					continue
				}
			}
			c.findings = append(c.findings, newFixer(c.sh).asyncWrapFinding(call, callee, fact, name, work))
		}
	}
}

// handlerWork says what blocking work the handler h does, and names it:
// a declared function or method value whose fact says it works, or a
// literal with a call that does.
func (c requestSpawns) handlerWork(h ast.Expr) (work, name string) {
	if lit, ok := ast.Unparen(h).(*ast.FuncLit); ok {
		if call := c.adm.WorkIn(lit.Body); call != nil {
			return types.ExprString(call.Fun), "the literal"
		}
		return "", ""
	}
	if fn := handlerFunc(c.pass.TypesInfo, h); fn != nil && c.sh.Res.FuncWorks(fn) {
		return types.ExprString(h), types.ExprString(h)
	}
	return "", ""
}

// handlerFunc returns the declared function or method a handler value
// names (save, c.save, pkg.Save), or nil.
func handlerFunc(info *types.Info, h ast.Expr) *types.Func {
	var id *ast.Ident
	switch h := ast.Unparen(h).(type) {
	case *ast.Ident:
		id = h
	case *ast.SelectorExpr:
		id = h.Sel
	default:
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	return fn
}

// handlerBody returns the body of the handler h when the package has it: a
// literal, or a declared function of the package.
func (c requestSpawns) handlerBody(h ast.Expr) *ast.BlockStmt {
	if lit, ok := ast.Unparen(h).(*ast.FuncLit); ok {
		return lit.Body
	}
	if decl, ok := c.sh.Res.FuncDecl(handlerFunc(c.pass.TypesInfo, h)); ok {
		return code.FuncBody(decl.Node())
	}
	return nil
}

// acquiresFirst reports whether the handler's body takes a limiter's slot
// before its first blocking work, as a goroutine's body does for the rule
// acquired-inside.
func (c requestSpawns) acquiresFirst(body *ast.BlockStmt) bool {
	sp := spawn{kind: "go", fun: &ast.FuncLit{Body: body}}
	return dataSizes(c).acquiresBeforeWork(sp, c.adm.WorkIn(body))
}

// asyncWrapFinding builds the diagnostic of a call of an asynchronous
// wrapper. It has no fix: the go statement is in the wrapper.
func (c fixer) asyncWrapFinding(call *ast.CallExpr, callee *types.Func, fact *AsyncWrapFact, handler, work string) *shared.Finding {
	name := funcName(c.pass.Pkg, callee)
	f := &shared.Finding{
		Diag: analysis.Diagnostic{
			Pos:      call.Pos(),
			End:      call.End(),
			Category: "detached",
			Message: fmt.Sprintf("%s returns a function that starts %s in a goroutine of its own on each call (its go statement at %s) and returns without waiting: whatever calls it per event leaves a goroutine per event doing blocking work (%s), and nothing limits how many are alive, so their number grows with the event rate times how long each runs; by hand: call the handler in place, or give it a limit (a semaphore acquired before the go statement, shedding the event when it is full) or a bounded worker",
				name, handler, fact.Go, work),
		},
	}
	if callee.Pos().IsValid() {
		f.Diag.Related = append(f.Diag.Related, analysis.RelatedInformation{Pos: callee.Pos(), Message: name + " starts the goroutine (go statement at " + fact.Go + ")"})
	}
	return f
}
