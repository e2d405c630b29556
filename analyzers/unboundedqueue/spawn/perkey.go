package spawn

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// A goroutine per key of a registry: a method of a type T starts a
// goroutine (a sender per destination, a worker per room), and the values
// of T are the entries of a map, or a sync.Map, that the program fills at
// run time as keys arrive (getQueue(destination) stores a new queue the
// first time it sees one). No loop spawns them, and a CompareAndSwap may
// keep one per key; but the keys are as many as the data brings —
// destinations discovered by federation, rooms that receive events,
// tenants — and nothing caps how many run at once. Each does blocking
// work or lives long, so their number follows the data.
//
// Only the entry's own goroutine counts (a method of the entry, looping or
// claimed once per entry), only an entry the registry creates for a new
// key, and not an entry with a lifecycle method: on the census's tune
// services the rule without these reported a broker's streams and
// consumers, a client's watches and one-off errands, none of them a key
// the data adds unasked.

var (
	ruleFixedRegistry = newRule("fixed-registry", "the registry whose entries start the goroutine is filled by a loop over a collection whose size the check cannot trace to the data (a configured list): a goroutine per configured key", nil)
	ruleManagedEntry  = newRule("managed-entry", "the registry's entries have a lifecycle method (Close, Stop, Shutdown, or a stop… or close… method): entities the program creates and tears down through its API (a stream, a consumer, a watch), whose goroutines live and die with them", nil)
	ruleNotPerKey     = newRule("not-per-key", "the goroutine a registry entry's method starts neither loops (the entry's worker) nor is claimed once per entry (a CompareAndSwap, LoadOrStore or running flag around the go statement or first in the goroutine): one per call, not one per key", nil)
	ruleNotOwnWork    = newRule("not-own-work", "the goroutine a registry entry's method starts runs no method of the entry (go ec.closeConnection()): a one-off errand, not the entry's worker", nil)
	ruleRegistryCap   = newRule("registry-cap", "the function that adds an entry to the registry compares the registry's length with a limit first: the keys, and so the goroutines, are capped", nil)
)

// keySpawns decides the go statements of the methods of registry entries
// (perkey.go), apart from the checker's loop and request kinds.
type keySpawns struct{ *checker }

// A registry is a map field (or a sync.Map field) whose values are a
// type's, and a run-time store that adds one.
type registry struct {
	field *types.Var       // the map or sync.Map field
	at    ast.Node         // the store: m[k] = v, m.Store(k, v), m.LoadOrStore(k, v)
	in    inspector.Cursor // the function that stores
	m     ast.Expr         // the map as the store spells it
}

// perKeySpawns reports goroutines started per key of a registry that grows
// with the data.
func (c keySpawns) perKeySpawns() {
	var regs map[*types.TypeName]registry
	for _, cur := range c.sh.GoStmts {
		if c.asked[cur.Node()] || shared.NearestLoop(cur) != nil {
			continue
		}
		fn := code.EnclosingFunc(cur)
		if !fn.Valid() {
			continue
		}
		if _, lit := fn.Node().(*ast.FuncLit); lit {
			continue
		}
		recv := receiverVar(c.pass.TypesInfo, fn)
		if recv == nil {
			continue
		}
		tn := namedOf(recv.Type())
		if tn == nil {
			continue
		}
		if regs == nil {
			regs = c.registries()
		}
		reg, ok := regs[tn]
		if !ok {
			continue
		}
		sp, ok := c.spawnAt(cur)
		if !ok {
			continue
		}
		c.asked[cur.Node()] = true
		work := c.spawnWork(sp)
		long := c.longLived(sp)
		switch {
		case work == nil && !long:
			c.silenced(ruleNoBlockingWork, cur)
			continue
		case !long && !requestSpawns(c).guardedStart(fn, cur) && !c.claimsFirst(sp):
			c.silenced(ruleNotPerKey, cur)
			continue
		case !c.entrysOwn(sp, recv, work):
			c.silenced(ruleNotOwnWork, cur)
			continue
		case hasClose(recv.Type()) || holdsConn(recv.Type()):
			c.silenced(ruleEntityItems, cur)
			continue
		case hasLifecycle(recv.Type()):
			c.silenced(ruleManagedEntry, cur)
			continue
		case c.registryCapped(reg):
			c.silenced(ruleRegistryCap, cur)
			continue
		case !c.grownByData(reg):
			c.silenced(ruleFixedRegistry, cur)
			continue
		case requestSpawns(c).acquiredBeforeIn(fn, cur):
			c.silenced(ruleAcquiredBefore, cur)
			continue
		case work != nil && dataSizes(c).acquiresBeforeWork(sp, work):
			c.silenced(ruleAcquiredInside, cur)
			continue
		case c.countGuarded(fn, cur):
			c.silenced(ruleCountGuard, cur)
			continue
		}
		c.findings = append(c.findings, newFixer(c.sh).perKeyFinding(sp, fn, tn, reg, work))
	}
}

// namedOf returns the type name of T or *T, or nil.
func namedOf(t types.Type) *types.TypeName {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj()
	}
	return nil
}

// registries finds, once per package, the map and sync.Map fields that a
// function other than a constructor, outside test files, stores values of
// a named type into: m[k] = v, m.Store(k, v), m.LoadOrStore(k, v). It
// returns the first such store per value type.
func (c keySpawns) registries() map[*types.TypeName]registry {
	info := c.pass.TypesInfo
	out := make(map[*types.TypeName]registry)
	add := func(cur inspector.Cursor, m ast.Expr, v ast.Expr) {
		sel, ok := ast.Unparen(m).(*ast.SelectorExpr)
		if !ok {
			return
		}
		f, ok := info.Uses[sel.Sel].(*types.Var)
		if !ok || !f.IsField() {
			return
		}
		tn := namedOf(info.TypeOf(v))
		if tn == nil || tn.Pkg() != c.pass.Pkg {
			return
		}
		if _, done := out[tn]; done {
			return
		}
		encl := code.EnclosingFunc(cur)
		if !encl.Valid() || dataSizes(c).isConstructor(encl) || !c.createdIn(encl, v) {
			return
		}
		if tf := c.pass.Fset.File(cur.Node().Pos()); tf == nil || strings.HasSuffix(tf.Name(), "_test.go") {
			return
		}
		out[tn] = registry{field: f, at: cur.Node(), in: encl, m: m}
	}
	for cur := range c.insp.Root().Preorder((*ast.AssignStmt)(nil), (*ast.CallExpr)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				continue
			}
			for i, lhs := range n.Lhs {
				ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
				if !ok {
					continue
				}
				if t := info.TypeOf(ix.X); t == nil {
					continue
				} else if _, isMap := t.Underlying().(*types.Map); !isMap {
					continue
				}
				add(cur, ix.X, n.Rhs[i])
			}
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !ok || len(n.Args) != 2 || (sel.Sel.Name != "Store" && sel.Sel.Name != "LoadOrStore") {
				continue
			}
			if !code.IsNamed(info.TypeOf(sel.X), "sync", "Map") {
				continue
			}
			add(cur, sel.X, n.Args[1])
		}
	}
	return out
}

// createdIn reports whether the value v stored into a registry is made by
// the function fn that stores it (a composite literal, its address, new, a
// New… or new… constructor), directly or through a local: the registry
// creates the entry for a key it has not seen. A value made elsewhere and
// indexed here (an account approved for an export) is no new key's entry.
func (c keySpawns) createdIn(fn inspector.Cursor, v ast.Expr) bool {
	info := c.pass.TypesInfo
	made := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		switch e := e.(type) {
		case *ast.CompositeLit:
			return true
		case *ast.CallExpr:
			name := code.CalleeName(e)
			return code.BuiltinName(info, e) == "new" || strings.HasPrefix(name, "new") || strings.HasPrefix(name, "New")
		}
		return false
	}
	if made(v) {
		return true
	}
	local := code.Var(info, v)
	if local == nil || !code.IsLocal(local) {
		return false
	}
	for cur := range fn.Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		for i, lhs := range as.Lhs {
			if i < len(as.Rhs) && len(as.Lhs) == len(as.Rhs) && code.Var(info, lhs) == local && made(as.Rhs[i]) {
				return true
			}
		}
	}
	return false
}

// claimsFirst reports whether the spawned body, among its first
// statements, returns unless it claims shared state (if
// !oq.running.CompareAndSwap(false, true) { return }): at most one runs
// per entry.
func (c keySpawns) claimsFirst(sp spawn) bool {
	body := c.spawnedBody(sp)
	if body == nil {
		return false
	}
	for _, st := range body.List {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || !code.Terminates(ifs.Body.List, false) {
			continue
		}
		if code.AnyNode(ifs.Cond, nil, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			return ok && knowledge.ClaimMethods.Has(code.CalleeName(call))
		}) {
			return true
		}
	}
	return false
}

// entrysOwn reports whether the goroutine runs a method of the entry recv:
// go recv.m(…), or a literal whose blocking work is a call on recv or one
// of its fields.
func (c keySpawns) entrysOwn(sp spawn, recv *types.Var, work *ast.CallExpr) bool {
	info := c.pass.TypesInfo
	onRecv := func(call *ast.CallExpr) bool {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		return ok && info.Uses[rootIdent(sel.X)] == recv
	}
	if _, lit := ast.Unparen(sp.fun).(*ast.FuncLit); !lit {
		return onRecv(sp.call)
	}
	return work != nil && onRecv(work) || work == nil && c.longLived(sp)
}

// hasLifecycle reports whether t (or *t) has a method that ends it: Close,
// Stop, Shutdown, or one whose name begins with stop or close in either
// case (StopWatch, stopMonitoring).
func hasLifecycle(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	ms := types.NewMethodSet(types.NewPointer(t))
	for m := range ms.Methods() {
		if endsIt(m.Obj().Name()) {
			return true
		}
	}
	return false
}

// endsIt reports whether a method's name says it ends its receiver: Close,
// Stop, Shutdown, or a name that begins with stop or close in either case.
func endsIt(name string) bool {
	name = strings.ToLower(name)
	return strings.HasPrefix(name, "stop") || strings.HasPrefix(name, "close") || name == "shutdown"
}

// registryCapped reports whether the function that stores into the
// registry compares the registry's length with something before the
// store: if len(s.workers) >= s.maxWorkers { return errBusy }.
func (c keySpawns) registryCapped(reg registry) bool {
	info := c.pass.TypesInfo
	capped := false
	ast.Inspect(code.FuncBody(reg.in.Node()), func(n ast.Node) bool {
		if capped || n == nil || n.Pos() >= reg.at.Pos() {
			return false
		}
		b, ok := n.(*ast.BinaryExpr)
		if !ok || !shared.IsRelational(b.Op) {
			return true
		}
		for _, side := range []ast.Expr{b.X, b.Y} {
			call, ok := ast.Unparen(side).(*ast.CallExpr)
			if !ok || code.BuiltinName(info, call) != "len" || len(call.Args) != 1 {
				continue
			}
			if sel, ok := ast.Unparen(call.Args[0]).(*ast.SelectorExpr); ok && info.Uses[sel.Sel] == reg.field {
				capped = true
			}
		}
		return !capped
	})
	return capped
}

// grownByData reports whether the store adds keys as the data brings them:
// outside a loop (a getter that creates the entry for the key it is
// asked), in a loop that is no range (a loop over a stream), or in a range
// over a collection whose size comes from the data. A range over a
// configured list fills the registry with the configured keys.
func (c keySpawns) grownByData(reg registry) bool {
	at, ok := reg.in.FindNode(reg.at)
	if !ok {
		return false
	}
	for l := range at.Enclosing((*ast.RangeStmt)(nil), (*ast.ForStmt)(nil), (*ast.FuncLit)(nil)) {
		if !reg.in.Contains(l) || l == reg.in {
			break
		}
		r, ok := l.Node().(*ast.RangeStmt)
		if !ok {
			return true
		}
		if t := c.pass.TypesInfo.TypeOf(r.X); t != nil {
			if _, isChan := t.Underlying().(*types.Chan); isChan {
				return true
			}
		}
		_, data := dataSizes(c).dataSource(reg.in, r.X)
		return data
	}
	return true
}

// countGuarded reports whether an if around the go statement, in fn,
// compares a count with a limit.
func (c keySpawns) countGuarded(fn, cur inspector.Cursor) bool {
	for e := range cur.Enclosing((*ast.IfStmt)(nil)) {
		if !fn.Contains(e) {
			break
		}
		if c.comparesCount(e.Node().(*ast.IfStmt).Cond, nil) {
			return true
		}
	}
	return false
}

// perKeyFinding builds the diagnostic of a goroutine per key of a
// registry. It has no fix: capping the keys means choosing what a new key
// gets at the limit (refused, evicted, queued behind a bounded pool of
// workers), which the code must say.
func (c fixer) perKeyFinding(sp spawn, fn inspector.Cursor, tn *types.TypeName, reg registry, work *ast.CallExpr) *shared.Finding {
	does := "lives long (it loops over a stream)"
	if work != nil {
		does = "does blocking work (" + edits.Source(c.pass, work.Fun) + ")"
	}
	m := edits.Source(c.pass, reg.m)
	f := &shared.Finding{
		Diag: analysis.Diagnostic{
			Pos:      sp.stmt.Pos(),
			End:      sp.stmt.End(),
			Category: "perkey",
			Message: fmt.Sprintf("goroutine started by %s per %s, an entry of %s that %s adds at run time for each new key: it %s, and nothing caps the keys or the goroutines running at once, so their number follows the data; by hand: compare len(%s) with a limit before adding a key (refuse or evict), or run the keys' work on a bounded pool of workers",
				c.sh.FuncName(fn), tn.Name(), m, c.sh.FuncName(reg.in), does, m),
			Related: []analysis.RelatedInformation{{Pos: reg.at.Pos(), End: reg.at.End(), Message: "a new key's entry is added here"}},
		},
	}
	if work != nil {
		f.Diag.Related = append(f.Diag.Related, analysis.RelatedInformation{Pos: work.Pos(), End: work.End(), Message: "the blocking work of each goroutine"})
	}
	return f
}
