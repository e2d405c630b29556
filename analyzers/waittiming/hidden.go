package waittiming

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
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
	more   []*ast.CallExpr // the figure's other calls, all of which retry too
}

// calleeName names what the call retries in: its callee, or the function
// its callee returned.
func (h hiddenRetry) calleeName() string {
	switch {
	case h.r.returned:
		return "the function " + code.DisplayName(h.callee) + " returns"
	case h.r.via != "":
		return code.DisplayName(h.callee) + " via " + h.r.via
	}
	return code.DisplayName(h.callee)
}

// hiddenRetryIn returns the call m measures when it is the only work
// between m's start and its end and its callee retries with pauses; or,
// when the figure holds several pieces of work, the first of them when
// every one is a call that retries (phases of inserts, each retried with a
// backoff: under failure the figure is mostly pauses). The tasks of a
// group the figure waits for (g.Go(func() error { … }) … g.Wait()) are
// its work, the Wait not.
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
	tasks := c.waitedTasks(startFn, lit, from, to)
	var calls []inspector.Cursor
	anchor := make(map[inspector.Cursor]inspector.Cursor) // a task's call → its g.Go
	var inTask inspector.Cursor
	startFn.Inspect([]ast.Node{(*ast.CallExpr)(nil), (*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil), (*ast.ExprStmt)(nil), (*ast.AssignStmt)(nil), (*ast.SendStmt)(nil), (*ast.ReturnStmt)(nil)}, func(cur inspector.Cursor) bool {
		if goCall, isTask := tasks.lits[cur]; isTask {
			inTask = goCall
			return true
		}
		if descend, decided := c.runsBetween(cur, startFn, lit, from, to); decided {
			return descend
		}
		if cur.Node() == endStmt {
			return false
		}
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || call.Pos() <= from || tasks.waits[call] || !c.isWorkCall(call, admission.Wait{}) {
			return true
		}
		if _, isGo := tasks.gos[call]; isGo || makesGroup(c.pass.TypesInfo, call) {
			return true
		}
		calls = append(calls, cur)
		if inTask.Valid() && inTask.Contains(cur) {
			anchor[cur] = tasks.gos[inTask.Node().(*ast.CallExpr)]
		}
		return true
	})
	// Only a figure whose work is retrying calls: beside other work (a
	// whole rebuild, a transfer), the pauses of a call that retries are a
	// tail of the figure, not what it measures (the census's tune sites:
	// three such figures judged fine against one hazard). Other work is any
	// call the figure makes that is not quiet: taken for it only when it
	// is blocking work (admission's IsWork), with a retrier's constructor
	// and an Ack() beside the retried call no work, the figures found two
	// more tune hazards and, scored once on the holdouts, no hazard and
	// seven more fine sites.
	calls = c.dropResultReads(startFn, dropFallbacks(c.pass.TypesInfo, c.dropRetryOptions(dropCallInputs(calls))))
	if len(calls) == 0 {
		return hiddenRetry{}, false
	}
	var first hiddenRetry
	for i, cur := range calls {
		call, fn, r, why := c.retryingCall(cur)
		if r == nil {
			if why != nil && len(calls) == 1 {
				c.rep.Silence(call, why) // beside other work, any call may not retry
			}
			return hiddenRetry{}, false
		}
		at := cur
		if a, ok := anchor[cur]; ok {
			at = a
		}
		if _, onPath := c.chk.qualifies(m, at, admission.Wait{}, lit); !onPath {
			c.rep.Silence(call, ruleNotOnEveryPath)
			return hiddenRetry{}, false
		}
		if i == 0 {
			first = hiddenRetry{m: m, call: call, callee: fn, r: *r}
		} else {
			first.more = append(first.more, call)
		}
	}
	if c.recordsWaiting(m) {
		return hiddenRetry{}, false
	}
	if c.chk.isTotal(m) {
		c.silenceMeasurement(m, ruleTotalLatency)
		return hiddenRetry{}, false
	}
	return first, true
}

// dropCallInputs leaves out of calls those that make another call's
// input or function: a call without arguments that is an argument of
// another call among them (s.Schedule(ctx, peer, set.NewSafeSet[string]())),
// and the call whose result another calls (NewRunner(3, time.Second)(ctx,
// op)). Evaluated once before that call, they are no work of their own.
func dropCallInputs(calls []inspector.Cursor) []inspector.Cursor {
	var out []inspector.Cursor
	for _, cur := range calls {
		call := cur.Node().(*ast.CallExpr)
		if outer, ok := cur.Parent().Node().(*ast.CallExpr); ok && slices.ContainsFunc(calls, func(o inspector.Cursor) bool { return o.Node() == outer }) {
			makesFunc := ast.Unparen(outer.Fun) == ast.Expr(call)
			if makesFunc || len(call.Args) == 0 {
				continue
			}
		}
		out = append(out, cur)
	}
	return out
}

// groupTasks are the function literals handed to a group's Go method
// between a figure's start and the group's Wait, which the figure also
// holds: the group's tasks run before the figure ends.
type groupTasks struct {
	lits  map[inspector.Cursor]inspector.Cursor // literal → the g.Go call
	gos   map[*ast.CallExpr]inspector.Cursor    // g.Go call → itself
	waits map[*ast.CallExpr]bool                // g.Wait calls of those groups
}

// waitedTasks returns the tasks of errgroups and WaitGroups (Go methods
// taking a function literal) that the figure from..to starts and waits
// for in startFn (or lit) itself.
func (c *retrier) waitedTasks(startFn, lit inspector.Cursor, from, to token.Pos) groupTasks {
	info := c.pass.TypesInfo
	t := groupTasks{lits: map[inspector.Cursor]inspector.Cursor{}, gos: map[*ast.CallExpr]inspector.Cursor{}, waits: map[*ast.CallExpr]bool{}}
	started := make(map[*types.Var][]inspector.Cursor)
	waited := make(map[*types.Var]*ast.CallExpr)
	startFn.Inspect([]ast.Node{(*ast.CallExpr)(nil), (*ast.FuncLit)(nil), (*ast.DeferStmt)(nil), (*ast.GoStmt)(nil)}, func(cur inspector.Cursor) bool {
		if descend, decided := c.runsBetween(cur, startFn, lit, from, to); decided {
			return descend
		}
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || call.Pos() <= from {
			return true
		}
		sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		fn := code.CalleeFunc(info, call)
		if !isSel || !isGroupMethod(fn) {
			return true
		}
		g := code.Var(info, sel.X)
		switch {
		case g == nil:
		case fn.Name() == "Go" && len(call.Args) == 1:
			if _, isLit := ast.Unparen(call.Args[0]).(*ast.FuncLit); isLit && waited[g] == nil {
				started[g] = append(started[g], cur)
			}
		case fn.Name() == "Wait" && waited[g] == nil:
			waited[g] = call
		}
		return true
	})
	for g, gos := range started {
		wait := waited[g]
		if wait == nil {
			continue // not waited for in the figure: the tasks may outlast it
		}
		t.waits[wait] = true
		for _, goCur := range gos {
			call := goCur.Node().(*ast.CallExpr)
			if litCur, ok := goCur.FindNode(ast.Unparen(call.Args[0])); ok {
				t.lits[litCur] = goCur
				t.gos[call] = goCur
			}
		}
	}
	return t
}

// makesGroup reports whether call returns a group (errgroup.WithContext,
// a service's wrapper of it): the group's making is no work, its tasks are.
func makesGroup(info *types.Info, call *ast.CallExpr) bool {
	tuple, ok := info.TypeOf(call).(*types.Tuple)
	if !ok {
		return false
	}
	for v := range tuple.Variables() {
		if code.IsNamed(v.Type(), code.ErrgroupPath, "Group") {
			return true
		}
	}
	return false
}

// isGroupMethod reports whether fn is a method of errgroup.Group or
// sync.WaitGroup.
func isGroupMethod(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	recv := code.Recv(fn)
	return code.IsNamed(recv, code.ErrgroupPath, "Group") || code.IsNamed(recv, "sync", "WaitGroup")
}

// retryingCall returns the call at cur, its callee and the callee's retry
// loop, when the callee retries with pauses: a function of this package
// (hidden.go), one whose package exported a retries fact, or a library
// call that retries by option (retryspan.go). Of a callee the check cannot
// see it returns the rule that says so (callee-elsewhere, callee-dynamic).
func (c *retrier) retryingCall(cur inspector.Cursor) (*ast.CallExpr, *types.Func, *retry, *report.Rule) {
	call := cur.Node().(*ast.CallExpr)
	fn := c.calledFunc(call)
	if fn == nil {
		if m := code.CalleeFunc(c.pass.TypesInfo, call); m != nil && isInterfaceMethod(m) {
			fn = m
		} else if maker := c.funcMaker(call); maker != nil {
			if r := c.madeRetry(maker); r != nil {
				return call, maker, r, nil
			}
		}
	}
	switch {
	case fn == nil:
		return call, nil, nil, ruleCalleeDynamic
	case isInterfaceMethod(fn):
		r, ok := c.implsRetry(fn)
		if !ok {
			return call, fn, nil, ruleCalleeDynamic
		}
		return call, fn, r, nil
	case fn.Pkg() != c.pass.Pkg:
		pause, ok := c.retriesElsewhere(fn)
		if !ok {
			if h, r := c.handedRetry(call); r != nil {
				return call, h, r, nil
			}
			return call, fn, nil, ruleCalleeElsewhere
		}
		return call, fn, &retry{name: pause}, nil
	}
	return call, fn, c.retriesOf(fn), nil
}

// handedRetry returns the method a call of another package's function is
// handed to call back (admission's HandedMethods: an argument given as an
// interface of one method) and its retry, when that method retries with
// pauses: by its body here, or by its retries fact elsewhere.
func (c *retrier) handedRetry(call *ast.CallExpr) (*types.Func, *retry) {
	via := types.ExprString(call.Fun)
	for _, h := range c.res.HandedMethods(call) {
		if h.Pkg() == c.pass.Pkg {
			if r := c.retriesOf(h); r != nil {
				handed := *r
				handed.via = via
				return h, &handed
			}
		} else if pause, ok := c.retriesElsewhere(h); ok {
			return h, &retry{name: pause, via: via}
		}
	}
	return nil, nil
}

// isInterfaceMethod reports whether fn is a method of an interface: a call
// of it runs whichever implementation the value holds.
func isInterfaceMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// implsRetry returns the retry of a call of the interface method fn when
// every implementation the program declares retries with pauses, and there
// is one: the named types of this package and of the packages it imports
// directly, each method by its body here or its retries fact elsewhere.
// Implementations in packages this one does not import are not seen (the
// same reach as the admission waits behind an interface).
func (c *retrier) implsRetry(fn *types.Func) (*retry, bool) {
	if r, done := c.ifaceRetries[fn]; done {
		return r, r != nil
	}
	if c.ifaceRetries == nil {
		c.ifaceRetries = make(map[*types.Func]*retry)
	}
	c.ifaceRetries[fn] = nil // an implementation that calls the interface (a decorator) is no retry by that
	r := c.implsRetryOnce(fn)
	c.ifaceRetries[fn] = r
	return r, r != nil
}

func (c *retrier) implsRetryOnce(fn *types.Func) *retry {
	if fn.Pkg() != c.pass.Pkg {
		if pause, ok := c.retriesElsewhere(fn); ok {
			return &retry{name: pause} // its package's implementations retry
		}
	}
	if !c.mayRetryHere() {
		return nil // no implementation in reach can retry: spare the scan
	}
	impls, ok := c.impls.Implementations(fn, append([]*types.Package{c.pass.Pkg}, c.pass.Pkg.Imports()...)...)
	if !ok {
		return nil
	}
	var first *retry
	for _, m := range impls {
		if isTestDouble(m) {
			continue
		}
		var r *retry
		if m.Pkg() == c.pass.Pkg {
			r = c.retriesOf(m)
		} else if pause, ok := c.retriesElsewhere(m); ok {
			r = &retry{name: pause}
		}
		if r == nil {
			return nil
		}
		if first == nil {
			first = r
		}
	}
	return first
}

// mayRetryHere reports, once per package, whether a function that retries
// is declared where an implementation could be looked up: a direct import
// with a retries fact, or a function of this package with a retry loop.
// Most packages have neither, and their interface calls need no scan.
func (c *retrier) mayRetryHere() bool {
	if c.mayRetry != nil {
		return *c.mayRetry
	}
	// While it is decided, a nested question (a retry loop whose work calls
	// an interface) scans: a slower answer, not a wrong one.
	provisional := true
	c.mayRetry = &provisional
	found := false
	imports := make(map[*types.Package]bool)
	for _, p := range c.pass.Pkg.Imports() {
		imports[p] = true
	}
	for _, f := range c.pass.AllObjectFacts() {
		if _, isRetries := f.Fact.(*retriesFact); isRetries && imports[f.Object.Pkg()] {
			found = true
			break
		}
	}
	if !found {
		for cur := range c.insp.Root().Preorder((*ast.FuncDecl)(nil)) {
			if fn, ok := c.pass.TypesInfo.Defs[cur.Node().(*ast.FuncDecl).Name].(*types.Func); ok && c.retriesOf(fn) != nil {
				found = true
				break
			}
		}
	}
	c.mayRetry = &found
	return found
}

// isTestDouble reports whether m is a method of a mock or a fake that a
// package declares beside its implementations (MockCache, FakeClient):
// tests run it, the program does not.
func isTestDouble(m *types.Func) bool {
	n := code.NamedOf(m.Signature().Recv().Type())
	if n == nil {
		return false
	}
	name := n.Obj().Name()
	return strings.HasPrefix(name, "Mock") || strings.HasPrefix(name, "Fake") || strings.HasPrefix(name, "mock") || strings.HasPrefix(name, "fake")
}

// funcMaker returns the function whose result call calls: a call of the
// result itself (NewRunner(ctx, policy)(op)), or of a local variable
// assigned once, from such a call (runner := NewRunner(ctx, policy);
// runner(op)).
func (c *retrier) funcMaker(call *ast.CallExpr) *types.Func {
	info := c.pass.TypesInfo
	fun := ast.Unparen(call.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		v, isVar := info.Uses[id].(*types.Var)
		if !isVar || v.IsField() || !code.IsLocal(v) {
			return nil
		}
		rhs, ok := c.assignedOnce(v)
		if !ok {
			return nil
		}
		fun = rhs
	}
	made, ok := fun.(*ast.CallExpr)
	if !ok {
		return nil
	}
	return code.Callee(info, made)
}

// assignedOnce returns the expression the local variable v is given, when
// it is given one value once, in its declaration or one assignment.
func (c *retrier) assignedOnce(v *types.Var) (ast.Expr, bool) {
	values := c.assignedValues(v)
	if len(values) != 1 || values[0] == nil {
		return nil, false
	}
	return ast.Unparen(values[0]), true
}

// madeRetry returns the retry of the function maker returns, when it
// retries with pauses: a literal of maker's body here, or maker's retries
// fact (Result) from its package.
func (c *retrier) madeRetry(maker *types.Func) *retry {
	if maker.Pkg() == c.pass.Pkg {
		if r := c.resultRetriesOf(maker); r != nil {
			made := *r
			made.returned = true
			return &made
		}
		return nil
	}
	var f retriesFact
	if c.pass.ImportObjectFact(maker.Origin(), &f) && f.Result {
		return &retry{name: f.Pause, returned: true}
	}
	return nil
}

// resultRetriesOf returns the retry of the function fn returns, when every
// return of fn's body returns a function literal that retries with pauses
// (its own loop, or every piece of its work a retrying call): a runner
// built from a policy, a retrying wrapper made once and called many times.
func (c *retrier) resultRetriesOf(fn *types.Func) *retry {
	if r, done := c.resultRetries[fn]; done {
		return r
	}
	if c.resultRetries == nil {
		c.resultRetries = make(map[*types.Func]*retry)
	}
	c.resultRetries[fn] = nil // a constructor whose literal calls its own result is no retry by that
	r := c.resultRetriesOnce(fn)
	c.resultRetries[fn] = r
	return r
}

func (c *retrier) resultRetriesOnce(fn *types.Func) *retry {
	res := fn.Signature().Results()
	if res.Len() < 1 || !isFunc(res.At(0).Type()) {
		return nil
	}
	decl, ok := c.res.FuncDecl(fn)
	if !ok {
		return nil
	}
	var found *retry
	all := true
	decl.Inspect([]ast.Node{(*ast.ReturnStmt)(nil), (*ast.FuncLit)(nil)}, func(cur inspector.Cursor) bool {
		ret, isRet := cur.Node().(*ast.ReturnStmt)
		if !isRet {
			return false // a literal's returns are its own
		}
		if len(ret.Results) == 0 {
			all = false
			return false
		}
		lit, isLit := ast.Unparen(ret.Results[0]).(*ast.FuncLit)
		if !isLit {
			all = false
			return false
		}
		litCur, _ := cur.FindNode(lit)
		body, _ := litCur.FindNode(lit.Body)
		var r *retry
		if loop, ok := c.retryInBody(body); ok {
			r = &loop
		} else {
			r = c.wrappedRetry(body)
		}
		if r == nil {
			all = false
			return false
		}
		if found == nil {
			found = r
		}
		return false
	})
	if !all {
		return nil
	}
	return found
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
	// A library call that retries by option, with its options built
	// beside it, does not make a wrapper a retrying function: counted on
	// the census holdout, taking it for one flagged a fine site and found
	// no hazard (the figure, not the helper, is where such a call shows).
	calls = c.dropResultReads(decl, dropFallbacks(c.pass.TypesInfo, dropCallInputs(calls)))
	// Every piece of work a retrying call, as for a figure (hiddenRetryIn):
	// one insert retried and the rows of a lookup retried, say.
	var first *retry
	for _, cur := range calls {
		_, _, r, _ := c.retryingCall(cur)
		if r == nil {
			return nil
		}
		if first == nil {
			first = r
		}
	}
	return first
}

// dropResultReads leaves out of calls those that read what a retrying call
// among them returned: the rows of a retried query (rowsRaw, err :=
// l.withRetryQuery(ctx, q); rows := rowsRaw.(pgx.Rows); for rows.Next()
// { rows.Scan(…) }) are the query's, read once its attempts are over, not
// other work. The reads are method calls on a result of the retrying call,
// or on a variable given one (as is, or type-asserted) in root, except,
// on an SDK client's result, those that take a context.
func (c *retrier) dropResultReads(root inspector.Cursor, calls []inspector.Cursor) []inspector.Cursor {
	info := c.pass.TypesInfo
	// results maps a variable given a retrying call's result to whether
	// that call is an SDK client's (retriesByDefault).
	results := make(map[*types.Var]bool)
	for _, cur := range calls {
		_, fn, r, _ := c.retryingCall(cur)
		if r == nil {
			continue
		}
		if as, ok := cur.Parent().Node().(*ast.AssignStmt); ok && len(as.Rhs) == 1 && as.Rhs[0] == cur.Node() {
			for _, lhs := range as.Lhs {
				if v := code.Var(info, lhs); v != nil && !code.IsError(v.Type()) {
					results[v] = fn != nil && retriesByDefault(fn)
				}
			}
		}
	}
	if len(results) == 0 {
		return calls
	}
	for cur := range root.Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		if len(as.Lhs) != len(as.Rhs) {
			continue
		}
		for i, rhs := range as.Rhs {
			x := ast.Unparen(rhs)
			if ta, ok := x.(*ast.TypeAssertExpr); ok {
				x = ta.X
			}
			if v := code.Var(info, x); v != nil {
				if sdk, ok := results[v]; ok {
					if lv := code.Var(info, as.Lhs[i]); lv != nil {
						results[lv] = sdk
					}
				}
			}
		}
	}
	// Of an SDK client's result, a method that takes a context does
	// blocking work of its own: a long-running operation's poller
	// (PollUntilDone(ctx)), not rows read after the query.
	var out []inspector.Cursor
	for _, cur := range calls {
		call := cur.Node().(*ast.CallExpr)
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if ok {
			if sdk, isResult := results[code.Var(info, sel.X)]; isResult && (!sdk || !code.TakesContext(code.Callee(info, call))) {
				continue
			}
		}
		out = append(out, cur)
	}
	return out
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

// calledFunc returns the function a call calls: its static callee, the
// one function of this package that a func-typed field or variable is ever
// assigned (c.sendBlock = c.sendBlockHTTP), or the one function every call
// of a parameter's function hands it, when all of them are in view
// (admission's ParamFuncs) and the parameter is no timer wrapper's, whose
// calls name what they hand (timedcall.go).
func (c *env) calledFunc(call *ast.CallExpr) *types.Func {
	info := c.pass.TypesInfo
	if fn := code.Callee(info, call); fn != nil {
		return fn
	}
	v := code.Var(info, call.Fun)
	if fns, ok := c.res.ParamFuncs(v); ok && !c.res.TimedParam(v) {
		if slices.ContainsFunc(fns, func(fn *types.Func) bool { return fn != fns[0] }) {
			return nil // one function or another: none the call is
		}
		return fns[0]
	}
	if v == nil || (!v.IsField() && code.IsLocal(v)) {
		return nil
	}
	// An assignment that pairs no value with v (x, v = f()) is not
	// counted here, as before this walk was shared.
	values := slices.DeleteFunc(c.assignedValues(v), func(e ast.Expr) bool { return e == nil })
	if len(values) != 1 {
		return nil
	}
	return code.FuncValue(info, values[0])
}

// assignedValues returns what the package gives the variable or field v,
// one entry per assignment, declaration or composite literal key; nil for
// one that does not pair a value with v (x, v = f()).
func (c *env) assignedValues(v *types.Var) []ast.Expr {
	if c.assigned == nil {
		c.assigned = c.indexAssignments()
	}
	return c.assigned[v]
}

// indexAssignments walks the package once for what each variable and
// field is given (assignedValues): a call of a func value asks for one
// variable, and a package has many such calls.
func (c *env) indexAssignments() map[*types.Var][]ast.Expr {
	info := c.pass.TypesInfo
	index := make(map[*types.Var][]ast.Expr)
	for cur := range c.insp.Root().Preorder((*ast.AssignStmt)(nil), (*ast.KeyValueExpr)(nil), (*ast.ValueSpec)(nil)) {
		switch s := cur.Node().(type) {
		case *ast.AssignStmt:
			for i, l := range s.Lhs {
				v := code.Var(info, l)
				if v == nil {
					continue
				}
				var value ast.Expr
				if len(s.Lhs) == len(s.Rhs) {
					value = s.Rhs[i]
				}
				index[v] = append(index[v], value)
			}
		case *ast.KeyValueExpr:
			if v := code.Var(info, s.Key); v != nil {
				index[v] = append(index[v], s.Value)
			}
		case *ast.ValueSpec:
			if len(s.Values) == 0 {
				continue // var f func(): a declaration gives no value
			}
			for i, name := range s.Names {
				v, ok := info.Defs[name].(*types.Var)
				if !ok {
					continue
				}
				var value ast.Expr
				if i < len(s.Values) {
					value = s.Values[i]
				}
				index[v] = append(index[v], value)
			}
		}
	}
	return index
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
		case *ast.GoStmt:
			return c.awaitedBefore(cur, decl.Node().End()) // the retries of a goroutine it waits for
		case *ast.FuncLit:
			g, isGo := goOfLit(cur)
			return isGo && c.awaitedBefore(g, decl.Node().End())
		case *ast.DeferStmt:
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
		Message: subject(c.pass.TypesInfo, m) + " spans " + h.calleeName() + ", whose attempts are separated by " + h.r.name +
			", so time spent waiting between attempts is reported as slow work; record the retry wait apart from the attempts",
		Related: []analysis.RelatedInformation{
			{Pos: h.call.Pos(), End: h.call.End(), Message: "the call that retries"},
		},
	}
	if len(h.more) > 0 {
		d.Message = fmt.Sprintf("%s spans %s and %d more calls, every one of which retries: their attempts are separated by %s, so time spent waiting between attempts is reported as slow work; record the retry waits apart from the attempts",
			subject(c.pass.TypesInfo, m), h.calleeName(), len(h.more), h.r.name)
		for _, call := range h.more {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: call.Pos(), End: call.End(), Message: "another call that retries"})
		}
	}
	for _, p := range h.r.pauses {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: p.Node().Pos(), End: p.Node().End(), Message: "a pause between attempts: " + h.r.name})
	}
	d.Related = append(d.Related, analysis.RelatedInformation{Pos: h.call.Pos(), End: h.call.End(), Message: "no automatic fix: the pauses are inside " + h.calleeName() + "; sum them there and record them apart from the attempts by hand"})
	c.rep.Report(d)
}
