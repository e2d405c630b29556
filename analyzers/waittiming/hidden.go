package waittiming

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// Retries hide in helpers too: a measurement whose only work is one call of
// a function of this package that retries with pauses between its attempts
// (vmagent times c.sendBlock, whose sendBlockHTTP sleeps a backoff before
// each new attempt) reports the pauses as the call's slowness. The split
// belongs inside the helper, so the finding has no fix.

// A hiddenRetry is a measured call of a function that retries.
type hiddenRetry struct {
	m      *measurement
	call   *ast.CallExpr
	callee *types.Func
	r      retry
}

// hiddenRetryIn returns the call m measures when it is the only work
// between m's start and its end and its callee retries with pauses.
func (c *retrier) hiddenRetryIn(m *measurement) (hiddenRetry, bool) {
	startFn, lit, ok := c.chk.spanFuncs(m)
	if !ok {
		return hiddenRetry{}, false
	}
	from, to := m.startStmt.Node().End(), m.endAt
	var endStmt ast.Node
	if !m.deferStmt.Valid() {
		endStmt = code.StmtOf(m.end).Node()
	}
	var calls []inspector.Cursor
	startFn.Inspect([]ast.Node{(*ast.CallExpr)(nil), (*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil), (*ast.ExprStmt)(nil), (*ast.AssignStmt)(nil), (*ast.SendStmt)(nil), (*ast.ReturnStmt)(nil)}, func(cur inspector.Cursor) bool {
		if descend, decided := runsBetween(cur, startFn, lit, from, to); decided {
			return descend
		}
		if cur.Node() == endStmt {
			return false
		}
		if call, ok := cur.Node().(*ast.CallExpr); ok && call.Pos() > from && c.isWorkCall(call, admission.Wait{}) {
			calls = append(calls, cur)
		}
		return true
	})
	// Only a figure whose one piece of work is the retrying call: beside
	// other work (a whole rebuild, a transfer), the pauses of a call that
	// retries are a tail of the figure, not what it measures (the census's
	// tune sites: three such figures judged fine against one hazard).
	calls = dropFallbacks(c.pass.TypesInfo, c.dropRetryOptions(calls))
	if len(calls) != 1 {
		return hiddenRetry{}, false
	}
	call, fn, r := c.retryingCall(calls[0])
	if r == nil {
		return hiddenRetry{}, false
	}
	if _, onPath := c.chk.qualifies(m, calls[0], admission.Wait{}, lit); !onPath {
		c.rep.Silence(call, ruleNotOnEveryPath)
		return hiddenRetry{}, false
	}
	if c.recordsWaiting(m) {
		return hiddenRetry{}, false
	}
	if c.chk.isTotal(m) {
		c.silenceMeasurement(m, ruleTotalLatency)
		return hiddenRetry{}, false
	}
	return hiddenRetry{m: m, call: call, callee: fn, r: *r}, true
}

// retryingCall returns the call at cur, its callee and the callee's retry
// loop, when the callee retries with pauses: a function of this package
// (hidden.go), one whose package exported a retries fact, or a library
// call that retries by option (retryspan.go). A callee the check cannot
// see is said (callee-elsewhere).
func (c *retrier) retryingCall(cur inspector.Cursor) (*ast.CallExpr, *types.Func, *retry) {
	call := cur.Node().(*ast.CallExpr)
	fn := c.calledFunc(call)
	switch {
	case fn == nil:
		c.rep.Silence(call, ruleCalleeElsewhere)
		return call, nil, nil
	case fn.Pkg() != c.pass.Pkg:
		pause, ok := c.retriesElsewhere(fn)
		if !ok {
			c.rep.Silence(call, ruleCalleeElsewhere)
			return call, fn, nil
		}
		return call, fn, &retry{name: pause}
	}
	return call, fn, c.retriesOf(fn)
}

// retriesOf returns the retry loop of the function fn of this package, or
// nil; it looks at each function once.
func (c *retrier) retriesOf(fn *types.Func) *retry {
	if r, done := c.retries[fn]; done {
		return r
	}
	if c.retries == nil {
		c.retries = make(map[*types.Func]*retry)
	}
	c.retries[fn] = nil // a wrapper that calls itself is no retry
	var found *retry
	if decl, ok := c.res.FuncDecl(fn); ok {
		if r, ok := c.retryInBody(decl); ok {
			found = &r
		} else {
			found = c.wrappedRetry(decl)
		}
	}
	c.retries[fn] = found
	return found
}

// wrappedRetry returns the retry of the function a wrapper calls: a
// function whose only work is one call of a function that retries
// (return l.withRetryInsert(ctx, func() error { … })) retries as its callee
// does, however many wrappers deep. The attempt that a literal argument
// holds runs inside the callee's loop and is not the wrapper's own work;
// what the wrapper does when the call failed (wrap the error, fall back)
// runs only once the retries are over.
func (c *retrier) wrappedRetry(decl inspector.Cursor) *retry {
	var calls []inspector.Cursor
	decl.Inspect([]ast.Node{(*ast.CallExpr)(nil), (*ast.FuncLit)(nil), (*ast.GoStmt)(nil), (*ast.DeferStmt)(nil)}, func(cur inspector.Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.CallExpr:
			if c.isWorkCall(n, admission.Wait{}) {
				calls = append(calls, cur)
			}
		}
		return true
	})
	calls = dropFallbacks(c.pass.TypesInfo, calls)
	if len(calls) != 1 {
		return nil
	}
	fn := c.calledFunc(calls[0].Node().(*ast.CallExpr))
	switch {
	case fn == nil:
		return nil
	case fn.Pkg() != c.pass.Pkg:
		if pause, ok := c.retriesElsewhere(fn); ok {
			return &retry{name: pause}
		}
		return nil
	}
	return c.retriesOf(fn)
}

// dropFallbacks leaves out of calls those that run only when another of
// them failed: the calls inside an if statement whose condition reads an
// error one of the calls returned (if err != nil { log…; return
// l.insertSerially(…) }). They run once the call before them is over, and
// are not the work a measurement or a wrapper is made of.
func dropFallbacks(info *types.Info, calls []inspector.Cursor) []inspector.Cursor {
	errs := make(map[*types.Var]bool)
	for _, cur := range calls {
		for _, v := range errorResults(info, cur) {
			errs[v] = true
		}
	}
	if len(errs) == 0 {
		return calls
	}
	var out []inspector.Cursor
	for _, cur := range calls {
		if !underErrorCheck(info, cur, errs) {
			out = append(out, cur)
		}
	}
	return out
}

// errorResults returns the variables of type error that the call at cur
// assigns its results to (err := f(), _, err = f(), if err := f(); …).
func errorResults(info *types.Info, cur inspector.Cursor) []*types.Var {
	as, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || as.Rhs[0] != cur.Node() {
		return nil
	}
	var vs []*types.Var
	for _, lhs := range as.Lhs {
		if v := code.Var(info, lhs); v != nil && code.IsError(v.Type()) {
			vs = append(vs, v)
		}
	}
	return vs
}

// underErrorCheck reports whether the call at cur runs only when one of
// errs is set: in the body of if err != nil, or the else of if err == nil.
func underErrorCheck(info *types.Info, cur inspector.Cursor, errs map[*types.Var]bool) bool {
	for p := cur.Parent(); p.Valid(); p = p.Parent() {
		switch p.Node().(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		case *ast.BlockStmt, *ast.IfStmt:
			if !isErrorBranch(info, p) {
				continue
			}
			cond := p.Parent().Node().(*ast.IfStmt).Cond
			if code.AnyNode(cond, nil, func(x ast.Node) bool {
				id, ok := x.(*ast.Ident)
				return ok && errs[code.Var(info, id)]
			}) {
				return true
			}
		}
	}
	return false
}

// calledFunc returns the function a call calls: its static callee, or the
// one function of this package that a func-typed field or variable is ever
// assigned (c.sendBlock = c.sendBlockHTTP).
func (c *env) calledFunc(call *ast.CallExpr) *types.Func {
	info := c.pass.TypesInfo
	if fn := code.Callee(info, call); fn != nil {
		return fn
	}
	v := code.Var(info, call.Fun)
	if v == nil || (!v.IsField() && code.IsLocal(v)) {
		return nil
	}
	var only *types.Func
	n := 0
	for cur := range c.insp.Root().Preorder((*ast.AssignStmt)(nil), (*ast.KeyValueExpr)(nil), (*ast.ValueSpec)(nil)) {
		var pairs [][2]ast.Expr
		switch s := cur.Node().(type) {
		case *ast.AssignStmt:
			if len(s.Lhs) == len(s.Rhs) {
				for i := range s.Lhs {
					pairs = append(pairs, [2]ast.Expr{s.Lhs[i], s.Rhs[i]})
				}
			}
		case *ast.KeyValueExpr:
			pairs = append(pairs, [2]ast.Expr{s.Key, s.Value})
		case *ast.ValueSpec:
			for i := range s.Values {
				if i < len(s.Names) {
					pairs = append(pairs, [2]ast.Expr{s.Names[i], s.Values[i]})
				}
			}
		}
		for _, p := range pairs {
			if code.Var(info, p[0]) != v {
				continue
			}
			n++
			only = code.FuncValue(info, p[1])
		}
	}
	if n != 1 {
		return nil
	}
	return only
}

// retryInBody returns a retry loop of the function declared at decl, on
// the main path of its body.
func (c *retrier) retryInBody(decl inspector.Cursor) (retry, bool) {
	var found retry
	ok := false
	decl.Inspect([]ast.Node{(*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.LabeledStmt)(nil), (*ast.FuncLit)(nil), (*ast.GoStmt)(nil), (*ast.DeferStmt)(nil)}, func(cur inspector.Cursor) bool {
		if ok {
			return false
		}
		switch n := cur.Node().(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			found, ok = c.forRetry(cur)
		case *ast.LabeledStmt:
			switch n.Stmt.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				return true
			}
			found, ok = c.gotoRetry(cur)
		}
		return !ok
	})
	return found, ok
}

// reportHiddenRetry reports a measured call of a function that retries with
// pauses. It has no fix: the attempts are timed inside the callee.
func (c *retrier) reportHiddenRetry(h hiddenRetry) {
	m := h.m
	pos, end := measuredAt(m)
	d := analysis.Diagnostic{
		Pos:      pos,
		End:      end,
		Category: "retrywait",
		Message: subject(c.pass.TypesInfo, m) + " spans " + code.DisplayName(h.callee) + ", whose attempts are separated by " + h.r.name +
			", so time spent waiting between attempts is reported as slow work; record the retry wait apart from the attempts",
		Related: []analysis.RelatedInformation{
			{Pos: h.call.Pos(), End: h.call.End(), Message: "the call that retries"},
		},
	}
	for _, p := range h.r.pauses {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: p.Node().Pos(), End: p.Node().End(), Message: "a pause between attempts: " + h.r.name})
	}
	d.Related = append(d.Related, analysis.RelatedInformation{Pos: h.call.Pos(), End: h.call.End(), Message: "no automatic fix: the pauses are inside " + code.DisplayName(h.callee) + "; sum them there and record them apart from the attempts by hand"})
	c.rep.Report(d)
}
