package spawn

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// Goroutines that outlive their request: a function that serves one
// request or message (an HTTP handler, an RPC method, a method of a
// request, a callback given a message or an event) starts a goroutine that
// does blocking work and does not wait for it. The goroutine keeps running
// after the request is answered, and nothing limits how many are alive:
// their number is the request rate times how long each runs, and a slow
// backend makes each run longer exactly when requests keep coming.

var (
	ruleWaitedByCaller = newRule("waited-for", "the function that starts the goroutine waits after the go statement (a Wait, a receive, a select): the goroutine ends before the request does", nil)
	ruleRequestContext = newRule("request-context", "the goroutine's work takes the context of a request the function answers (an HTTP or RPC request's context parameter, r.Context(), or one derived from them), or uses a streaming RPC's stream: it is cancelled when the request ends", nil)
	ruleLocalPipe      = newRule("local-pipe", "the goroutine works on one end of an io.Pipe the function made: it blocks until the function reads, writes or closes the other end, so it lives no longer than the function's use of the pipe", nil)
	ruleGuardedStart   = newRule("guarded-start", "the go statement runs under an if that claims shared state (a CompareAndSwap, LoadOrStore, TryLock or TryAcquire, or a boolean function of the package that returns one's outcome; a count compared with a limit), or after an early return when such a claim fails (if !e.beginRefresh() { return }) or on the receiver's state (if h.ln != nil { return }) or on another package's component being busy when the goroutine works through that package (if search.Running() { return } before go search.BuildIndex(…)), or the goroutine's function starts by such a claim and returns when it fails: at most one, or a limited number, per key", nil)
)

// requestSpawns decides the go statements of the functions that serve a
// request (detached.go), apart from the checker's loop kinds.
type requestSpawns struct{ *checker }

// detachedSpawns reports goroutines started per request that outlive it.
func (c requestSpawns) detachedSpawns() {
	for _, cur := range c.sh.GoStmts {
		if shared.NearestLoop(cur) != nil {
			continue // in a loop: the fan-out and stream kinds decide
		}
		fn := code.EnclosingFunc(cur)
		if !fn.Valid() {
			continue
		}
		req := c.serves(fn)
		if req == "" {
			continue
		}
		sp, ok := c.spawnAt(cur)
		if !ok {
			continue
		}
		c.asked[cur.Node()] = true // decided here, reported or silenced
		work := c.spawnWork(sp)
		var park *ast.UnaryExpr // a wait on shared state, for a goroutine that does no work
		if work == nil {
			park = c.parkedOnShared(fn, sp)
		}
		switch {
		case work == nil && park == nil:
			c.silenced(ruleNoBlockingWork, cur)
			continue
		case answersRequest(req) && (c.requestContext(fn, sp) || c.usesStream(fn, sp)):
			c.silenced(ruleRequestContext, cur)
			continue
		case (c.waitsAfterIn(fn, cur) || c.resultUsedAfter(fn, cur, sp)) && (park == nil || !c.racedBy(fn, cur, sp)):
			c.silenced(ruleWaitedByCaller, cur)
			continue
		case usesLocalPipe(c.pass.TypesInfo, fn.Node(), c.spawnedBody(sp), sp.args):
			c.silenced(ruleLocalPipe, cur)
			continue
		case c.acquiredBeforeIn(fn, cur):
			c.silenced(ruleAcquiredBefore, cur)
			continue
		case dataSizes(c).acquiresBeforeWork(sp, work):
			c.silenced(ruleAcquiredInside, cur)
			continue
		case c.guardedStart(fn, cur) || c.claimsFirst(c.spawnedBody(sp), 0) || c.returnsWhileBusy(fn, cur, sp):
			c.silenced(ruleGuardedStart, cur)
			continue
		case c.longLived(sp):
			c.silenced(ruleLongLived, cur)
			continue
		}
		if park != nil {
			c.findings = append(c.findings, newFixer(c.sh).parkedFinding(sp, fn, req, park))
			continue
		}
		c.findings = append(c.findings, newFixer(c.sh).detachedFinding(sp, fn, req, work))
	}
}

// usesLocalPipe reports whether the spawned body (or the arguments it is
// given) uses an end of an io.Pipe held by a variable fn declares: a
// multipart writer feeding the response through a pipe, a reader of what
// the function's round trip writes. Each pipe operation blocks until fn
// serves the other end, and fn's Close of its end (deferred, or on error)
// ends the goroutine's work.
func usesLocalPipe(info *types.Info, fn ast.Node, body *ast.BlockStmt, args []ast.Expr) bool {
	localPipe := func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.IsField() || !code.Inside(v.Pos(), fn) {
			return false
		}
		return code.IsNamed(v.Type(), "io", "PipeReader") || code.IsNamed(v.Type(), "io", "PipeWriter")
	}
	if body != nil && code.AnyNode(body, nil, localPipe) {
		return true
	}
	for _, a := range args {
		if code.AnyNode(a, nil, localPipe) {
			return true
		}
	}
	return false
}

// serves says what request, message or event the function fn serves once
// per call, or "": a declared function's (perRequest), a literal's
// (literalHandler; a goroutine's literal serves none).
func (c requestSpawns) serves(fn inspector.Cursor) string {
	if _, lit := fn.Node().(*ast.FuncLit); lit {
		return c.literalHandler(fn)
	}
	return c.perRequest(fn)
}

// perRequest says what request the function fn serves, or "": an HTTP
// handler's *http.Request, a parameter or receiver whose type is a request
// or a message (by its name, see requestSuffixes), or a slice of them.
func (c requestSpawns) perRequest(fn inspector.Cursor) string {
	decl, ok := fn.Node().(*ast.FuncDecl)
	if !ok {
		return ""
	}
	f, ok := c.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok {
		return ""
	}
	sig := f.Signature()
	var vars []*types.Var
	if sig.Recv() != nil {
		vars = append(vars, sig.Recv())
	}
	for i := range sig.Params().Len() {
		vars = append(vars, sig.Params().At(i))
	}
	for _, v := range vars {
		if name := requestTypeName(v.Type()); name != "" {
			return name
		}
	}
	for i := range sig.Params().Len() {
		if name := streamTypeName(sig.Params().At(i).Type()); name != "" {
			return name // parked.go
		}
	}
	if name := c.eventMethod(f); name != "" {
		return name
	}
	return c.serviceMethod(f)
}

// serviceMethod says what RPC the method f serves, or "": a method of an
// RPC service's interface that f's receiver implements. A service
// interface is one named FooServer that a function of its own package,
// RegisterFooServer, takes as its last parameter, to register with a
// server, as the code gRPC generates declares it: the server calls the
// method once per call of the RPC, whatever its messages are named.
func (c requestSpawns) serviceMethod(f *types.Func) string {
	recv := f.Signature().Recv()
	if recv == nil || !f.Exported() {
		return ""
	}
	for _, tn := range c.serviceInterfaces() {
		iface := tn.Type().Underlying().(*types.Interface)
		if obj, _, _ := types.LookupFieldOrMethod(iface, false, nil, f.Name()); obj == nil {
			continue
		}
		if types.Implements(recv.Type(), iface) {
			return tn.Name() + "." + f.Name() + " RPC"
		}
	}
	return ""
}

// serviceInterfaces returns the RPC service interfaces of the package and
// of the packages it imports (see serviceMethod).
func (c requestSpawns) serviceInterfaces() []*types.TypeName {
	if c.servicesBuilt {
		return c.services
	}
	c.servicesBuilt = true
	for _, pkg := range append([]*types.Package{c.pass.Pkg}, c.pass.Pkg.Imports()...) {
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			reg, ok := scope.Lookup(name).(*types.Func)
			if !ok || !strings.HasPrefix(name, "Register") || !strings.HasSuffix(name, "Server") {
				continue
			}
			params := reg.Signature().Params()
			if params.Len() < 2 {
				continue
			}
			n, ok := types.Unalias(params.At(params.Len() - 1).Type()).(*types.Named)
			if !ok || n.Obj().Pkg() != pkg || name != "Register"+n.Obj().Name() {
				continue
			}
			if _, ok := n.Underlying().(*types.Interface); ok {
				c.services = append(c.services, n.Obj())
			}
		}
	}
	return c.services
}

// literalHandler says what request, message or event the function literal
// fn serves, or "": an event framework's callback (eventCallback), or a
// literal that takes a request or a message itself (a handler registered
// on a router, func(w http.ResponseWriter, r *http.Request) {…}; a
// subscription's callback, func(m *nats.Msg) {…}), which its caller runs
// once per request or message. A literal that runs as a goroutine or is
// called on the spot serves nothing of its own.
func (c requestSpawns) literalHandler(fn inspector.Cursor) string {
	if req := c.eventCallback(fn); req != "" {
		return req
	}
	if call, ok := fn.Parent().Node().(*ast.CallExpr); ok && call.Fun == fn.Node() {
		return "" // go func(r *Request) {…}(r), func() {…}()
	}
	lit := fn.Node().(*ast.FuncLit)
	sig, ok := c.pass.TypesInfo.TypeOf(lit).(*types.Signature)
	if !ok {
		return ""
	}
	for i := range sig.Params().Len() {
		if name := requestTypeName(sig.Params().At(i).Type()); name != "" {
			return name
		}
	}
	return ""
}

// eventCallback says what event the function literal fn handles, or "":
// a literal given as a field of a struct literal of an event framework's
// handler type (cache.ResourceEventHandlerFuncs{AddFunc: func(obj any)
// {…}}, knowledge list event-handler-types), which the framework calls
// once per event.
func (c requestSpawns) eventCallback(fn inspector.Cursor) string {
	kv, ok := fn.Parent().Node().(*ast.KeyValueExpr)
	if !ok || kv.Value != fn.Node() {
		return ""
	}
	lit, ok := fn.Parent().Parent().Node().(*ast.CompositeLit)
	if !ok {
		return ""
	}
	key, ok := kv.Key.(*ast.Ident)
	if !ok {
		return ""
	}
	if n := eventHandlerType(c.pass.TypesInfo.TypeOf(lit)); n != nil {
		return n.Obj().Name() + "." + key.Name + " event"
	}
	return ""
}

// eventMethod says what event the method f handles, or "": a method of
// an interface of an event framework's handler types (cache's
// ResourceEventHandler.OnAdd) declared by a type that implements it.
func (c requestSpawns) eventMethod(f *types.Func) string {
	recv := f.Signature().Recv()
	if recv == nil {
		return ""
	}
	for _, imp := range c.pass.Pkg.Imports() {
		for _, e := range knowledge.EventHandlerTypes.Entries() {
			dot := strings.LastIndex(e, ".")
			if dot < 0 || e[:dot] != imp.Path() {
				continue
			}
			tn, ok := imp.Scope().Lookup(e[dot+1:]).(*types.TypeName)
			if !ok {
				continue
			}
			iface, ok := tn.Type().Underlying().(*types.Interface)
			if !ok {
				continue
			}
			if obj, _, _ := types.LookupFieldOrMethod(iface, false, nil, f.Name()); obj == nil {
				continue
			}
			if types.Implements(recv.Type(), iface) {
				return tn.Name() + "." + f.Name() + " event"
			}
		}
	}
	return ""
}

// eventHandlerType returns t, or what it points to, when it is one of the
// event frameworks' handler types.
func eventHandlerType(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || !knowledge.EventHandlerTypes.HasType(n.Obj().Pkg().Path(), n.Obj().Name()) {
		return nil
	}
	return n
}

// requestTypeName returns the name of t when it is a request or a message
// (a pointer to one, or a slice of them), or "". A web framework's
// per-request context (knowledge list request-context-types) is named as
// the request it stands for: "gin.Context request".
func requestTypeName(t types.Type) string {
	if s, ok := t.Underlying().(*types.Slice); ok {
		t = s.Elem()
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return ""
	}
	if pkg := n.Obj().Pkg(); pkg != nil && knowledge.RequestContextTypes.HasType(pkg.Path(), n.Obj().Name()) {
		return pkg.Name() + "." + n.Obj().Name() + " request"
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return ""
	}
	name := n.Obj().Name()
	if n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" {
		if name == "Request" {
			return "http.Request"
		}
		return ""
	}
	if knowledge.RequestTypeSuffixes.Match(strings.ToLower(name)) {
		return name
	}
	return ""
}

// waitsAfterIn reports whether fn, after the go statement at cur and outside
// function literals, waits: a Wait call, a receive or a select.
func (c requestSpawns) waitsAfterIn(fn, cur inspector.Cursor) bool {
	body := code.FuncBody(fn.Node())
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if n.End() <= cur.Node().End() && !code.Inside(cur.Node().Pos(), n) {
			return false // before the go statement
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			found = n.Pos() > cur.Node().Pos()
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW && n.Pos() > cur.Node().End()
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" && n.Pos() > cur.Node().End() {
				found = true
			}
		}
		return !found
	})
	return found
}

// acquiredBeforeIn reports whether fn acquires a limiter before the go
// statement at cur, outside function literals.
func (c requestSpawns) acquiredBeforeIn(fn, cur inspector.Cursor) bool {
	if _, ok := c.adm.At(cur); ok {
		return true
	}
	body, ok := fn.FindNode(code.FuncBody(fn.Node()))
	if !ok {
		return false
	}
	found := false
	body.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil), (*ast.SelectStmt)(nil)}, func(at inspector.Cursor) bool {
		if found || at.Node().Pos() >= cur.Node().Pos() {
			return false
		}
		if _, lit := at.Node().(*ast.FuncLit); lit {
			return false
		}
		if _, ok := c.adm.At(at); ok {
			found = true
		}
		if sel, ok := at.Node().(*ast.SelectStmt); ok && triesSlotOrSheds(sel) {
			found = true
		}
		return !found
	})
	return found
}

// guardedStart reports whether an if around the go statement claims shared
// state (a call of CompareAndSwap, LoadOrStore, TryLock, TryAcquire, TryGo
// or Swap) or compares a count with a limit, or whether fn returned earlier
// on its receiver's state (returnsIfStarted). A start guarded so is
// deduplicated per key or limited; a configuration flag is not a guard.
func (c requestSpawns) guardedStart(fn, cur inspector.Cursor) bool {
	if c.returnsIfStarted(fn, cur) {
		return true
	}
	for e := range cur.Enclosing((*ast.IfStmt)(nil)) {
		if !fn.Contains(e) {
			break
		}
		ifs := e.Node().(*ast.IfStmt)
		if c.comparesCount(ifs.Cond, nil) {
			return true
		}
		if claims, succeeded := c.claimOutcome(ifs.Cond, 0); claims && succeeded && code.Inside(cur.Node().Pos(), ifs.Body) {
			return true // if e.refreshing.CompareAndSwap(false, true) { go … }
		}
	}
	return false
}

// claimOutcome reports whether cond tests a claim of shared state, and
// whether cond holds when the claim succeeded. A claim is a call of a
// method of knowledge list claim-methods (x.CompareAndSwap(false, true),
// m.TryLock(); x.Swap(true) holds when it failed, as Swap returns the old
// value), or of a boolean function of this package each of whose returns
// is false or a claim's success (return e.refreshing.CompareAndSwap(false,
// true)), a few calls deep. !c negates; a && c holds only when c
// succeeded, a || !c whenever c failed.
func (c requestSpawns) claimOutcome(cond ast.Expr, depth int) (claims, succeeded bool) {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			claims, succeeded = c.claimOutcome(e.X, depth)
			return claims, !succeeded
		}
	case *ast.BinaryExpr:
		for _, side := range []ast.Expr{e.X, e.Y} {
			cl, ok := c.claimOutcome(side, depth)
			if cl && ok && e.Op == token.LAND || cl && !ok && e.Op == token.LOR {
				return true, ok
			}
		}
	case *ast.CallExpr:
		if name := code.CalleeName(e); knowledge.ClaimMethods.Has(name) {
			return true, name != "Swap"
		}
		return c.returnsClaim(e, depth), true
	}
	return false, false
}

// returnsClaim reports whether call calls a boolean function of this
// package each of whose returns is the constant false or a claim's
// success, and one a claim.
func (c requestSpawns) returnsClaim(call *ast.CallExpr, depth int) bool {
	t := c.pass.TypesInfo.TypeOf(call)
	if depth >= 2 || t == nil || !types.Identical(t.Underlying(), types.Typ[types.Bool]) {
		return false
	}
	decl, ok := c.sh.Res.FuncDecl(c.sh.Callee(call))
	if !ok {
		return false
	}
	claims, others := false, false
	inLiteral := func(n ast.Node) bool { _, lit := n.(*ast.FuncLit); return lit }
	code.AnyNode(code.FuncBody(decl.Node()), inLiteral, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok {
			return false
		}
		if len(ret.Results) == 1 {
			if tv, ok := c.pass.TypesInfo.Types[ret.Results[0]]; ok && tv.Value != nil && tv.Value.String() == "false" {
				return false // return false: no claim made
			}
			if cl, ok := c.claimOutcome(ret.Results[0], depth+1); cl && ok {
				claims = true
				return false
			}
		}
		others = true
		return true
	})
	return claims && !others
}

// claimsFirst reports whether the body a goroutine runs starts by claiming
// shared state and returning when the claim fails (if
// !running.CompareAndSwap(false, true) { return }), itself or through the
// function of this package its first statement calls (go func() {
// s.doMerge() }(), doMerge calling merge, which claims): at most one runs
// at a time, however many requests start one.
func (c requestSpawns) claimsFirst(body *ast.BlockStmt, depth int) bool {
	if body == nil || len(body.List) == 0 || depth > 3 {
		return false
	}
	switch st := body.List[0].(type) {
	case *ast.IfStmt:
		claims, succeeded := c.claimOutcome(st.Cond, 0)
		return st.Init == nil && len(st.Body.List) > 0 && endsInReturn(st.Body.List) && claims && !succeeded
	case *ast.ExprStmt:
		call, ok := ast.Unparen(st.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		decl, ok := c.sh.Res.FuncDecl(c.sh.Callee(call))
		return ok && c.claimsFirst(code.FuncBody(decl.Node()), depth+1)
	}
	return false
}

// endsInReturn reports whether a block's last statement returns.
func endsInReturn(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false // if cond {}: nothing returns
	}
	_, ok := list[len(list)-1].(*ast.ReturnStmt)
	return ok
}

// detachedFinding builds the diagnostic of a goroutine that outlives its
// request. It has no fix: bounding it means choosing what to do when the
// limit is reached (shed, queue, run inline), which the code must say.
func (c fixer) detachedFinding(sp spawn, fn inspector.Cursor, req string, work *ast.CallExpr) *shared.Finding {
	return &shared.Finding{
		Diag: analysis.Diagnostic{
			Pos:      sp.stmt.Pos(),
			End:      sp.stmt.End(),
			Category: "detached",
			Message: fmt.Sprintf("goroutine started per %s by %s outlives it: it keeps doing blocking work (%s) after the function returns, and nothing limits how many are alive, so their number grows with the request rate times how long each runs; by hand: acquire a semaphore before go and shed the work when it is full, or hand it to a bounded worker",
				req, c.sh.FuncName(fn), edits.Source(c.pass, work.Fun)),
			Related: []analysis.RelatedInformation{{Pos: work.Pos(), End: work.End(), Message: "the blocking work it keeps doing"}},
		},
	}
}

// triesSlotOrSheds reports whether sel tries to send a token (a value of
// an empty struct type) and, in its default case, leaves the function: a
// try-acquire that sheds the request when the semaphore is full.
func triesSlotOrSheds(sel *ast.SelectStmt) bool {
	sends, sheds := false, false
	for _, st := range sel.Body.List {
		cc := st.(*ast.CommClause)
		switch comm := cc.Comm.(type) {
		case nil:
			sheds = code.Terminates(cc.Body, false)
		case *ast.SendStmt:
			if lit, ok := ast.Unparen(comm.Value).(*ast.CompositeLit); ok && len(lit.Elts) == 0 {
				sends = true
			}
		}
	}
	return sends && sheds
}

// requestContext reports whether the goroutine's work takes the context of
// the request fn serves: a context.Context parameter of fn, the Context()
// of one of its parameters (r.Context()), or a local of fn assigned from an
// expression that reads one of these (ctx, cancel := context.WithTimeout(
// ctx, d)). Such work is cancelled when the request ends; a goroutine that
// outlives its request takes context.Background() or none.
func (c requestSpawns) requestContext(fn inspector.Cursor, sp spawn) bool {
	info := c.pass.TypesInfo
	derived := make(map[*types.Var]bool) // contexts of the request
	holders := make(map[*types.Var]bool) // values made from one (a lock whose Context() is the request's)
	sig := code.FuncSignature(info, fn.Node())
	if sig == nil {
		return false
	}
	for i := range sig.Params().Len() {
		if code.IsContext(sig.Params().At(i).Type()) {
			derived[sig.Params().At(i)] = true
		}
	}
	readsRequest := func(e ast.Node) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if v, ok := info.Uses[n].(*types.Var); ok && derived[v] {
					found = true
				}
			case *ast.CallExpr:
				if isWithoutCancel(info, n) {
					return false // a context that outlives the request
				}
				if code.CalleeName(n) == "Context" && len(n.Args) == 0 && code.IsContext(info.TypeOf(n)) {
					if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
						if v, ok := info.Uses[accessorRoot(sel.X)].(*types.Var); ok && (isParam(info, fn.Node(), v) || holders[v]) {
							found = true
						}
					}
				}
			}
			return !found
		})
		return found
	}
	// Locals derived from the request's context, in order of assignment.
	for cur := range fn.Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		if cur.Node().Pos() >= sp.stmt.Pos() || len(as.Rhs) != 1 {
			continue
		}
		if readsRequest(as.Rhs[0]) {
			for _, lhs := range as.Lhs {
				if v := code.Var(info, lhs); v != nil && code.IsContext(v.Type()) {
					derived[v] = true
				} else if v != nil {
					holders[v] = true
				}
			}
		}
	}
	if readsRequest(sp.call) {
		return true
	}
	if lit, ok := ast.Unparen(sp.fun).(*ast.FuncLit); ok {
		return readsRequest(lit.Body)
	}
	return false
}

// isWithoutCancel reports whether call is context.WithoutCancel, whose
// context keeps the request's values but not its end.
func isWithoutCancel(info *types.Info, call *ast.CallExpr) bool {
	f := typeutil.StaticCallee(info, call)
	return f != nil && f.Pkg() != nil && f.Pkg().Path() == "context" && f.Name() == "WithoutCancel"
}

// rootIdent returns the identifier at the root of a selector chain, or nil.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.Ident:
			return x
		default:
			return nil
		}
	}
}

// accessorRoot returns the variable at the root of a chain of field
// selections and calls of methods without arguments (c in c.Request,
// c.Request(), r.Header.Clone()), or nil: the value a request's context is
// read from, as frameworks hand it out (echo's c.Request().Context()).
func accessorRoot(e ast.Expr) *ast.Ident {
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || len(call.Args) > 0 {
			return nil
		}
		return accessorRoot(sel.X)
	}
	if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
		return accessorRoot(sel.X)
	}
	return rootIdent(e)
}

// resultUsedAfter reports whether fn, after the go statement and outside
// function literals, reads a channel the goroutine sends on (receives from
// it, or hands it to a helper that does): the request waits for the
// goroutine's result.
func (c requestSpawns) resultUsedAfter(fn, cur inspector.Cursor, sp spawn) bool {
	info := c.pass.TypesInfo
	lit, ok := ast.Unparen(sp.fun).(*ast.FuncLit)
	if !ok {
		return false
	}
	chans := make(map[*types.Var]bool)
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if s, ok := n.(*ast.SendStmt); ok {
			if v := code.Var(info, s.Chan); v != nil && !code.Inside(v.Pos(), lit) {
				chans[v] = true
			}
		}
		return true
	})
	if len(chans) == 0 {
		return false
	}
	used := false
	ast.Inspect(code.FuncBody(fn.Node()), func(n ast.Node) bool {
		if used || n == nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if id, ok := n.(*ast.Ident); ok && id.Pos() > cur.Node().End() {
			if v, ok := info.Uses[id].(*types.Var); ok && chans[v] {
				used = true
			}
		}
		return !used
	})
	return used
}

// returnsIfStarted reports whether fn, before the go statement, returns
// when a field of its receiver says the work already runs (if h.ln != nil
// { return }, if s.running { return }) or when a claim fails (if
// !e.beginRefresh() { return }, beginRefresh returning
// e.refreshing.CompareAndSwap(false, true)). The start is then once per
// entity, or per claim.
func (c requestSpawns) returnsIfStarted(fn, cur inspector.Cursor) bool {
	body := code.FuncBody(fn.Node())
	if body == nil {
		return false
	}
	for _, st := range body.List {
		if st.Pos() >= cur.Node().Pos() {
			break
		}
		ifs, ok := st.(*ast.IfStmt)
		if !ok || !code.Terminates(ifs.Body.List, false) {
			continue
		}
		if _, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ok {
			continue
		}
		if claims, succeeded := c.claimOutcome(ifs.Cond, 0); claims && !succeeded {
			return true // if !e.beginRefresh() { return }
		}
		recv := receiverVar(c.pass.TypesInfo, fn)
		if recv == nil {
			return false
		}
		if c.testsOwnState(ifs.Cond, recv) {
			return true
		}
	}
	return false
}

// returnsWhileBusy reports whether fn, before the go statement, returns
// when a component of another package says it is busy, and the goroutine
// works through that package: if search.Running() { return } before go
// func() { search.BuildIndex(…) }(); if a.importer.GetStats().Status ==
// subimporter.StatusImporting { return } before go sess.Start(). The
// component runs one job at a time and the handler turns requests away
// while it runs, so one goroutine is alive, not one per request. The test
// must read nothing of the request (no parameter of fn) and ask a function
// without arguments of a package that is neither fn's own nor the
// standard library's: a server's own shutdown flag or an atomic's Load
// says nothing of the job.
func (c requestSpawns) returnsWhileBusy(fn, cur inspector.Cursor, sp spawn) bool {
	body := code.FuncBody(fn.Node())
	if body == nil {
		return false
	}
	info := c.pass.TypesInfo
	busy := make(map[*types.Package]bool) // the packages whose state the early returns ask
	for _, st := range body.List {
		if st.Pos() >= cur.Node().Pos() {
			break
		}
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Init != nil || !endsInReturn(ifs.Body.List) {
			continue
		}
		readsRequest := code.AnyNode(ifs.Cond, nil, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			v, _ := info.Uses[id].(*types.Var)
			return ok && v != nil && isParam(info, fn.Node(), v)
		})
		if readsRequest {
			continue
		}
		ast.Inspect(ifs.Cond, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 0 {
				if f := c.sh.Callee(call); f != nil && c.foreignPackage(f.Pkg()) {
					busy[f.Pkg()] = true
				}
			}
			return true
		})
	}
	if len(busy) == 0 {
		return false
	}
	worksThrough := func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		f := c.sh.Callee(call)
		return f != nil && busy[f.Pkg()]
	}
	if lit, ok := ast.Unparen(sp.fun).(*ast.FuncLit); ok {
		return code.AnyNode(lit.Body, nil, worksThrough)
	}
	return worksThrough(sp.call)
}

// foreignPackage reports whether pkg is neither the analyzed package nor
// one of the standard library's.
func (c requestSpawns) foreignPackage(pkg *types.Package) bool {
	return pkg != nil && pkg != c.pass.Pkg && !code.IsStdPath(pkg.Path())
}

// answersRequest reports whether the request named req is answered when
// the function returns (an HTTP request, an RPC's request or query), so
// that a context it gives is cancelled then. A message or an event is
// handed to a consumer whose context lives as long as the consumer.
func answersRequest(req string) bool {
	return req == "http.Request" || strings.HasSuffix(req, " request") || strings.HasSuffix(req, " RPC") || strings.HasSuffix(req, " stream") || strings.HasSuffix(req, "Request") || strings.HasSuffix(req, "Req") || strings.HasSuffix(req, "Query")
}

// testsOwnState reports whether cond tests a field of the receiver recv
// for being set: h.ln != nil, s.running, !s.idle, h.ln == nil. A field
// that says the work already runs, or that there is none to do.
func (c requestSpawns) testsOwnState(cond ast.Expr, recv *types.Var) bool {
	info := c.pass.TypesInfo
	ownField := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		v, ok := info.Uses[sel.Sel].(*types.Var)
		return ok && v.IsField() && info.Uses[rootIdent(sel.X)] == recv && sel.X == rootIdent(sel.X)
	}
	switch e := ast.Unparen(cond).(type) {
	case *ast.SelectorExpr:
		return ownField(e) && types.Identical(info.TypeOf(e).Underlying(), types.Typ[types.Bool])
	case *ast.UnaryExpr:
		return e.Op == token.NOT && c.testsOwnState(e.X, recv)
	case *ast.BinaryExpr:
		if e.Op != token.EQL && e.Op != token.NEQ {
			return false
		}
		return (ownField(e.X) && code.IsNil(info, e.Y)) || (ownField(e.Y) && code.IsNil(info, e.X))
	}
	return false
}
