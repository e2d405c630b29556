package spawn

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// Data-sized fan-out: a goroutine (go, errgroup or WaitGroup Go) per element
// of a collection whose size the data decides (see provenance.go), each
// doing blocking work (admission's Work fact), with nothing limiting how
// many run at once. Unlike the sibling rule of fanOuts it needs no other
// fan-out of the package to say what the backend takes: a thousand tenants,
// blocks or sub-requests are a thousand simultaneous calls whatever the
// package does elsewhere. The loop limits (acquired-before, waits-each,
// limited-group, …) are asked first, by fanOuts; dataFanOut then asks
// where the size comes from, whether each goroutine blocks, and whether
// the goroutine takes a slot before its work.

var (
	ruleNoBlockingWork = newRule("no-blocking-work", "the goroutine per element of a data-sized collection does no blocking work (no I/O, RPC, query or wait, itself or through the functions it calls): it only computes", nil)
	ruleFixedSet       = newRule("fixed-set", "the collection is named for the members of a small set the deployment fixes (peers, replicas, sites, pools, disks, drives, zones, shards, regions, members, servers), or the loop skips elements absent from a map field only constructors fill: sized by the cluster or the configuration, not the data", nil)
	rulePerDestination = newRule("per-destination", "the collection is a map the function fills keyed by clients it looks up per element and groups the elements under (a client per shard or host, not one it dials or makes; the entry read under the key too), and each goroutine calls a method of its key: one call per destination, as many as the deployment's hosts, not per element", nil)
	ruleReplacesEntry  = newRule("replaces-entry", "the loop ranges over a map and stores each goroutine's replacement under the key it ranges with, and the goroutine first stops the entry's old value (Stop, Close, Shutdown, a stop… or close… method), then runs the replacement: a restart, one worker per entry before and after", nil)
	rulePaidPerElement = newRule("paid-per-element", "before the loop the function waits on a limiter for as many tokens as the collection has elements (limiter.WaitN(ctx, len(targets))): the fan-out is paid for element by element, and a rate limiter refuses more than its burst at once", nil)
	ruleAcquiredInside = newRule("acquired-inside", "the goroutine acquires a limiter (a semaphore, a pool's slot, a rate limiter's Wait) before its blocking work: at most the limiter's size work at once", nil)
)

// dataSizes decides the fan-outs over collections whose size comes from
// the data (datasize.go, provenance.go), apart from the checker's other
// loop kinds.
type dataSizes struct{ *checker }

// dataFanOut decides the loop's unbounded spawns (items) as a data-sized
// fan-out: it reports them, or records the rule that silenced them, and
// reports true; false when the collection is not data-sized, so that
// fanOuts names its own rule.
func (c dataSizes) dataFanOut(fn, loop inspector.Cursor, x ast.Expr, items []perItem) bool {
	src, ok := c.dataSource(fn, x)
	if !ok {
		return false
	}
	if fixedSetName(collectionName(x)) {
		c.silencedAll(ruleFixedSet, items)
		return true
	}
	if c.paidPerElement(fn, loop, x) {
		c.silencedAll(rulePaidPerElement, items)
		return true
	}
	var reported []perItem
	var works []*ast.CallExpr
	for _, it := range items {
		work := c.spawnWork(it.sp)
		if work == nil {
			c.silenced(ruleNoBlockingWork, it.cur)
			continue
		}
		if c.acquiresBeforeWork(it.sp, work) {
			c.silenced(ruleAcquiredInside, it.cur)
			continue
		}
		if c.longLived(it.sp) {
			c.silenced(ruleLongLived, it.cur)
			continue
		}
		if c.filteredByRegistry(it.cur) {
			c.silenced(ruleFixedSet, it.cur)
			continue
		}
		if c.callsDestination(fn, loop, it.sp, work) {
			c.silenced(rulePerDestination, it.cur)
			continue
		}
		if c.retiresEntry(loop, it.sp) {
			c.silenced(ruleReplacesEntry, it.cur)
			continue
		}
		reported = append(reported, it)
		works = append(works, work)
	}
	if len(reported) == 0 {
		return true
	}
	limit := c.sh.Names.Package("max"+exported(collectionName(x))+"InFlight", reported[0].sp.stmt.Pos())
	lim := newLoopLimit(loop, reported, limit)
	for i, it := range reported {
		c.findings = append(c.findings, newFixer(c.sh).dataFinding(it, lim, src, works[i], c.innerFanOut(it.sp), c.inFlight))
	}
	return true
}

// paidPerElement reports whether fn, before the loop, waits for admission
// (a limiter's WaitN, an Acquire) with the length of the collection x as an
// argument: limiter.WaitN(ctx, len(req.Targets)) before a goroutine per
// target charges the fan-out a token per element.
func (c dataSizes) paidPerElement(fn, loop inspector.Cursor, x ast.Expr) bool {
	info := c.pass.TypesInfo
	paid := false
	body, ok := fn.FindNode(code.FuncBody(fn.Node()))
	if !ok {
		return false
	}
	body.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.CallExpr)(nil)}, func(cur inspector.Cursor) bool {
		n := cur.Node()
		if paid || n.Pos() >= loop.Node().Pos() {
			return false
		}
		if _, lit := n.(*ast.FuncLit); lit {
			return false // runs later, or elsewhere
		}
		call := n.(*ast.CallExpr)
		w, ok := c.adm.At(cur)
		if !ok || !w.Blocking() {
			return true
		}
		for _, a := range call.Args {
			if isLenOf(info, fn.Node(), a, x) {
				paid = true
			}
		}
		return !paid
	})
	return paid
}

// isLenOf reports whether e is len(x), or a local of fn assigned len(x)
// (numTargets := len(req.Targets)).
func isLenOf(info *types.Info, fn ast.Node, e, x ast.Expr) bool {
	isLen := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if ok && code.IsConversion(info, call) && len(call.Args) == 1 {
			call, ok = ast.Unparen(call.Args[0]).(*ast.CallExpr) // int64(len(x))
		}
		return ok && code.BuiltinName(info, call) == "len" && len(call.Args) == 1 && shared.SameExpr(call.Args[0], x)
	}
	if isLen(e) {
		return true
	}
	v := code.Var(info, e)
	if v == nil || v.IsField() || !code.Inside(v.Pos(), fn) {
		return false
	}
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found || len(as.Lhs) != len(as.Rhs) {
			return !found
		}
		for i, lhs := range as.Lhs {
			if code.Var(info, lhs) == v && isLen(as.Rhs[i]) {
				found = true
			}
		}
		return !found
	})
	return found
}

// callsDestination reports whether the loop ranges over a map fn fills
// with keys that are clients looked up per element and grouped under
// (client, err := r.clientForShard(id); byClient[client] =
// append(byClient[client], …): an interface or a pointer to a named type,
// see keyedByLookup), and the goroutine's blocking work is a method of its
// key: a scatter by destination, whose width is
// the number of hosts the elements map to, not the number of elements.
func (c dataSizes) callsDestination(fn, loop inspector.Cursor, sp spawn, work *ast.CallExpr) bool {
	info := c.pass.TypesInfo
	rs, ok := loop.Node().(*ast.RangeStmt)
	if !ok || rs.Key == nil {
		return false
	}
	m := code.Var(info, rs.X)
	if m == nil || m.IsField() || !code.Inside(m.Pos(), fn.Node()) {
		return false
	}
	mt, ok := m.Type().Underlying().(*types.Map)
	if !ok || !isClientType(mt.Key()) {
		return false
	}
	key := code.Var(info, rs.Key)
	if key == nil || !c.keyedByLookup(fn, m) {
		return false
	}
	sel, ok := ast.Unparen(work.Fun).(*ast.SelectorExpr)
	return ok && seenAs(info, sp, code.Var(info, sel.X), key)
}

// seenAs reports whether the goroutine's variable v stands for the
// variable of the spawning function outer: outer itself, captured, or the
// parameter of the goroutine's literal that is handed outer (go func(c
// Client) { c.Call() }(client)).
func seenAs(info *types.Info, sp spawn, v, outer *types.Var) bool {
	if v == nil {
		return false
	}
	if v == outer {
		return true
	}
	lit, ok := ast.Unparen(sp.fun).(*ast.FuncLit)
	if !ok {
		return false
	}
	i := 0
	for _, field := range lit.Type.Params.List {
		for _, name := range field.Names {
			if info.Defs[name] == v && i < len(sp.args) {
				return code.Var(info, sp.args[i]) == outer
			}
			i++
		}
		if len(field.Names) == 0 {
			i++
		}
	}
	return false
}

// retiresEntry reports whether the loop ranges over a map, stores a
// replacement under the key it ranges with (p.loops[key] = fresh), and the
// goroutine starts by ending the entry's old value (the range value) with
// a method that stops it (Stop, Close, Shutdown, a stop… or close…
// method) and then calls a method of the replacement (old.stop();
// fresh.run()): each goroutine retires the worker it replaces, so the
// workers running stay one per entry and the loop adds none.
func (c dataSizes) retiresEntry(loop inspector.Cursor, sp spawn) bool {
	info := c.pass.TypesInfo
	rs, ok := loop.Node().(*ast.RangeStmt)
	if !ok || rs.Key == nil || rs.Value == nil {
		return false
	}
	if t := info.TypeOf(rs.X); t == nil {
		return false
	} else if _, isMap := t.Underlying().(*types.Map); !isMap {
		return false
	}
	key, old := code.Var(info, rs.Key), code.Var(info, rs.Value)
	if key == nil || old == nil {
		return false
	}
	var fresh *types.Var // the replacement stored under the key
	for _, st := range rs.Body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			continue
		}
		ix, ok := ast.Unparen(as.Lhs[0]).(*ast.IndexExpr)
		if ok && shared.SameExpr(ix.X, rs.X) && code.Var(info, ix.Index) == key {
			fresh = code.Var(info, as.Rhs[0])
		}
	}
	lit, ok := ast.Unparen(sp.fun).(*ast.FuncLit)
	if fresh == nil || fresh == old || !ok || len(lit.Body.List) < 2 {
		return false
	}
	// The first statement stops the old value, a later one runs the new.
	first, ok := methodCallOf(info, lit.Body.List[0])
	if !ok || !endsIt(first.Sel.Name) || !seenAs(info, sp, code.Var(info, first.X), old) {
		return false
	}
	for _, st := range lit.Body.List[1:] {
		if sel, ok := methodCallOf(info, st); ok && seenAs(info, sp, code.Var(info, sel.X), fresh) {
			return true
		}
	}
	return false
}

// methodCallOf returns the selector of the method call a statement makes
// (old.stop(), wg.Done()), if it is one.
func methodCallOf(info *types.Info, st ast.Stmt) (*ast.SelectorExpr, bool) {
	es, ok := st.(*ast.ExprStmt)
	if !ok {
		return nil, false
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return sel, ok && code.Var(info, sel.X) != nil
}

// isClientType reports whether t can name a destination: an interface
// with methods, or a pointer to a named type with methods.
func isClientType(t types.Type) bool {
	if types.IsInterface(t) {
		iface, ok := t.Underlying().(*types.Interface)
		return ok && iface.NumMethods() > 0
	}
	ptr, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	_, named := types.Unalias(ptr.Elem()).(*types.Named)
	return named && types.NewMethodSet(ptr).Len() > 0
}

// keyedByLookup reports whether every key fn stores into the map m is a
// local assigned from a lookup's first result (client, err :=
// r.clientFor(id): a call, not a conversion, of a function not named as
// making a new value), and fn reads the entry under that key too (if _, ok
// := m[k]; !ok, m[k] = append(m[k], …)): elements grouped by the client
// they map to, not an entry per element.
func (c dataSizes) keyedByLookup(fn inspector.Cursor, m *types.Var) bool {
	info := c.pass.TypesInfo
	stores := 0
	grouped := true
	for cur := range fn.Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		for _, lhs := range as.Lhs {
			ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
			if !ok || code.Var(info, ix.X) != m {
				continue
			}
			stores++
			k := code.Var(info, ix.Index)
			if k == nil || !assignedFromLookup(info, fn.Node(), k) || !readsEntry(info, fn.Node(), m, k, ix) {
				grouped = false
			}
		}
	}
	return stores > 0 && grouped
}

// assignedFromLookup reports whether the local v is declared in fn by an
// assignment whose first left-hand side is v and whose right-hand side is
// one call that looks a value up (client, err := r.clientFor(id)): not a
// conversion, and not a call whose name says it makes a new value
// (knowledge list new-value-words: New…, Dial…, Open…), which gives a key
// per element.
func assignedFromLookup(info *types.Info, fn ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found {
			return !found
		}
		if as.Tok != token.DEFINE || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			return true
		}
		if id, ok := as.Lhs[0].(*ast.Ident); ok && info.Defs[id] == v {
			call, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			found = isCall && !code.IsConversion(info, call) && !knowledge.NewValueWords.Match(strings.ToLower(code.CalleeName(call)))
		}
		return !found
	})
	return found
}

// readsEntry reports whether fn reads the map m under the key k other than
// as the store at store's left-hand side: the lookup of a group before it
// is added to, or its current value appended to.
func readsEntry(info *types.Info, fn ast.Node, m, k *types.Var, store *ast.IndexExpr) bool {
	return code.AnyNode(fn, nil, func(n ast.Node) bool {
		ix, ok := n.(*ast.IndexExpr)
		return ok && ix != store && code.Var(info, ix.X) == m && code.Var(info, ix.Index) == k
	})
}

// spawnWork returns the first call of the spawned work that blocks: the
// call a go statement makes when its function does blocking work, or one in
// the body it runs.
func (c *checker) spawnWork(sp spawn) *ast.CallExpr {
	if sp.kind == "go" && c.adm.IsWork(sp.call) {
		return sp.call
	}
	if lit, ok := ast.Unparen(sp.fun).(*ast.FuncLit); ok {
		return c.adm.WorkIn(lit.Body)
	}
	if sp.kind != "go" {
		if call, ok := ast.Unparen(sp.fun).(*ast.CallExpr); ok {
			return c.adm.WorkIn(call) // g.Go(s.task(x)): a function returned for the group
		}
	}
	if body := c.spawnedBody(sp); body != nil {
		return c.adm.WorkIn(body)
	}
	return nil
}

// acquiresBeforeWork reports whether the spawned body acquires a limiter
// (an admission wait: a semaphore send, Acquire, a rate limiter's Wait, a
// helper that does one) at or before its first blocking work.
func (c dataSizes) acquiresBeforeWork(sp spawn, work *ast.CallExpr) bool {
	body := c.spawnedBody(sp)
	if body == nil {
		return false
	}
	bodyCur, ok := c.insp.Root().FindNode(body)
	if !ok {
		return false
	}
	limit := body.End()
	if work != nil && code.Inside(work.Pos(), body) {
		limit = work.Pos()
	}
	acquired := false
	for cur := range bodyCur.Preorder((*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil), (*ast.SelectStmt)(nil)) {
		if cur.Node().Pos() > limit {
			break
		}
		if w, ok := c.adm.At(cur); ok && w.Blocking() {
			acquired = true
			break
		}
	}
	return acquired
}

// innerFanOut returns the collection of a fan-out the spawned body runs
// itself (a loop that spawns per element), or nil: the goroutines in flight
// are then the outer collection's size times the inner's.
func (c dataSizes) innerFanOut(sp spawn) ast.Expr {
	body := c.spawnedBody(sp)
	if body == nil {
		return nil
	}
	var inner ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		r, ok := n.(*ast.RangeStmt)
		if !ok || inner != nil {
			return inner == nil
		}
		ast.Inspect(r.Body, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.GoStmt:
				inner = r.X
			case *ast.CallExpr:
				if sel, ok := ast.Unparen(m.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Go" && len(m.Args) == 1 {
					inner = r.X
				}
			}
			return inner == nil
		})
		return inner == nil
	})
	return inner
}

// collectionName returns a name for the constant that limits a fan-out
// over x: the last name x spells (clusters of d.clusters, ListBlocks of
// d.ListBlocks(ctx)), or "Tasks".
func collectionName(x ast.Expr) string {
	switch e := ast.Unparen(x).(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.CallExpr:
		return collectionName(e.Fun)
	case *ast.IndexExpr:
		return collectionName(e.X)
	case *ast.SliceExpr:
		return collectionName(e.X)
	}
	return "tasks"
}

// exported capitalizes a name's first letter.
func exported(name string) string {
	r, size := utf8.DecodeRuneInString(name)
	return string(unicode.ToUpper(r)) + name[size:]
}

// dataFinding builds the diagnostic of a data-sized fan-out, with the fix
// that bounds it by a new named constant: SetLimit on the loop's errgroup,
// else a semaphore of that size acquired before each spawn, the wait kept
// where it was.
func (c fixer) dataFinding(it perItem, lim *loopLimit, src source, work *ast.CallExpr, inner ast.Expr, inFlight int64) *shared.Finding {
	sp := it.sp
	what := c.spawnName(sp)
	coll := edits.Source(c.pass, it.stream)
	nested := ""
	if inner != nil {
		nested = fmt.Sprintf(", and each starts a goroutine per element of %s: the goroutines in flight are len(%s) × len(%s)",
			edits.Source(c.pass, inner), coll, edits.Source(c.pass, inner))
	}
	f := &shared.Finding{
		Diag: analysis.Diagnostic{
			Pos:      sp.stmt.Pos(),
			End:      sp.stmt.End(),
			Category: "fanout",
			Message: fmt.Sprintf("%s per element of %s, whose size comes from the data (%s), each doing blocking work (%s) with nothing bounding how many run at once%s; limit them to %s at a time",
				what, coll, src.what, edits.Source(c.pass, work.Fun), nested, lim.size),
			Related: []analysis.RelatedInformation{{Pos: work.Pos(), End: work.End(), Message: "the blocking work of each goroutine"}},
		},
	}
	if src.at != nil {
		f.Diag.Related = append(f.Diag.Related, analysis.RelatedInformation{Pos: src.at.Pos(), End: src.at.End(), Message: "the collection's size comes from here"})
	}
	file := c.sh.FileOf(sp.stmt.Pos())
	if file == nil {
		return f
	}
	anchor := edits.EnclosingDecl(file, sp.stmt.Pos())
	if anchor == nil || c.limitFix(f, it, lim) == unlimited {
		return f
	}
	decl := fmt.Sprintf("// %s bounds the goroutines in flight of the fan-out over\n// %s, whose size comes from the data; set it to what the backend takes at once.\nconst %s = %d",
		lim.size, strings.ReplaceAll(coll, "\n", " "), lim.size, inFlight)
	f.Edits = append(f.Edits, edits.InsertDeclBefore(anchor, decl))
	return f
}

// withContext returns the items whose work takes a context, and records
// no-context for the others: the sibling rule of fanOuts asks for a
// context, the data-sized rule for blocking work, which may take none; both
// ask for blocking work and leave the members of a fixed set alone. A
// goroutine that takes a slot before its work is bounded either way.
func (c dataSizes) withContext(items []perItem) []perItem {
	var out []perItem
	for _, it := range items {
		work := c.spawnWork(it.sp)
		switch {
		case !c.takesContext(it.sp):
			c.silenced(ruleNoContext, it.cur)
		case work == nil:
			c.silenced(ruleNoBlockingWork, it.cur)
		case fixedSetName(collectionName(it.stream)) || c.filteredByRegistry(it.cur):
			c.silenced(ruleFixedSet, it.cur)
		case c.acquiresBeforeWork(it.sp, work):
			c.silenced(ruleAcquiredInside, it.cur)
		default:
			out = append(out, it)
		}
	}
	return out
}

// filteredByRegistry reports whether, before the spawn at cur, the loop
// looks the element up in a map field that no function but a constructor
// fills, and skips it when absent (x, ok := c.dispatchers[name]; if !ok {
// continue }): the goroutines are at most the configured entries, however
// many names the data lists.
func (c dataSizes) filteredByRegistry(cur inspector.Cursor) bool {
	info := c.pass.TypesInfo
	loop := shared.NearestLoop(cur)
	if loop == nil {
		return false
	}
	body := loopBody(loop)
	if body == nil {
		return false
	}
	for i, st := range body.List {
		if st.Pos() >= cur.Node().Pos() || i+1 >= len(body.List) {
			break
		}
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			continue
		}
		ix, ok := ast.Unparen(as.Rhs[0]).(*ast.IndexExpr)
		if !ok {
			continue
		}
		sel, ok := ast.Unparen(ix.X).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		f, ok := info.Uses[sel.Sel].(*types.Var)
		if !ok || !f.IsField() {
			continue
		}
		if _, isMap := f.Type().Underlying().(*types.Map); !isMap {
			continue
		}
		if c.grows == nil {
			c.grows = c.runTimeStores()
		}
		if _, grows := c.grows[f]; grows {
			continue
		}
		okVar := code.Var(info, as.Lhs[1])
		if ifs, isIf := body.List[i+1].(*ast.IfStmt); isIf && okVar != nil && skipsWhenFalse(info, ifs, okVar) {
			return true
		}
	}
	return false
}

// skipsWhenFalse reports whether ifs is if !ok { …; continue }.
func skipsWhenFalse(info *types.Info, ifs *ast.IfStmt, ok *types.Var) bool {
	u, isNot := ast.Unparen(ifs.Cond).(*ast.UnaryExpr)
	if !isNot || u.Op != token.NOT || code.Var(info, u.X) != ok || len(ifs.Body.List) == 0 {
		return false
	}
	br, isBranch := ifs.Body.List[len(ifs.Body.List)-1].(*ast.BranchStmt)
	return isBranch && br.Tok == token.CONTINUE
}

// indexFanOuts reports data-sized fan-outs written over the indexes of a
// collection: for i := range len(xs), for i := 0; i < len(xs); i++. The
// collection is xs; the rest is as for a range over it.
func (c dataSizes) indexFanOuts() {
	for _, loop := range c.loops {
		x := indexedCollection(c.pass.TypesInfo, loop.Node())
		if x == nil {
			continue
		}
		fn := code.EnclosingFunc(loop)
		if !fn.Valid() {
			continue
		}
		var items []perItem
		body, _ := loop.FindNode(loopBody(loop.Node()))
		for cur := range body.Preorder((*ast.GoStmt)(nil), (*ast.CallExpr)(nil)) {
			sp, ok := c.spawnAt(cur)
			if !ok || shared.NearestLoop(cur) != loop.Node() {
				continue
			}
			if _, ok := c.bounded(kindFanOut, candidate{sp: sp, cur: cur, loop: loop, stream: x}); ok {
				continue
			}
			items = append(items, perItem{sp: sp, cur: cur, stream: x})
		}
		if len(items) > 0 && !c.dataFanOut(fn, loop, x, items) {
			c.silencedAll(ruleNotListing, items)
		}
	}
}

// indexedCollection returns xs of a loop over the indexes of a slice or
// map: for i := range len(xs), or for i := 0; i < len(xs); i++.
func indexedCollection(info *types.Info, loop ast.Node) ast.Expr {
	var n ast.Expr
	switch l := loop.(type) {
	case *ast.RangeStmt:
		n = l.X
	case *ast.ForStmt:
		b, ok := l.Cond.(*ast.BinaryExpr)
		if !ok || (b.Op != token.LSS && b.Op != token.LEQ) {
			return nil
		}
		n = b.Y
	default:
		return nil
	}
	call, ok := ast.Unparen(n).(*ast.CallExpr)
	if !ok || code.BuiltinName(info, call) != "len" || len(call.Args) != 1 {
		return nil
	}
	if t := info.TypeOf(call.Args[0]); t == nil || !isCollection(t) {
		return nil
	}
	return call.Args[0]
}

// fixedSetName reports whether a collection's name names such members
// (peers, replicaSet, siteInfos, poolIndices, zoneDescs).
func fixedSetName(name string) bool {
	return knowledge.FixedSetWords.Match(strings.ToLower(name))
}
