package spawn

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// limitedBefore reports whether the loop body acquires a limiter before the
// spawn at spawnCur (the stream's own receive aside): a send to a semaphore
// channel, a receive from a token channel, Acquire, Wait, Take, Start,
// TryAcquire with a fallback, or a call of a function (of this package or,
// through a fact, of another) whose main path does one of those. The spawn
// itself counts when it is Go on a limited errgroup.
func (c *checker) limitedBefore(loop, spawnCur inspector.Cursor, recv ast.Node) bool {
	if _, ok := c.adm.At(spawnCur); ok {
		return true
	}
	body, _ := loop.FindNode(loopBody(loop.Node()))
	end := spawnCur.Node().Pos()
	limited := false
	body.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil)}, func(cur inspector.Cursor) bool {
		n := cur.Node()
		if limited || n.Pos() >= end {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // runs later, or elsewhere
		case *ast.CallExpr:
			if _, ok := c.adm.At(cur); ok {
				limited = c.holdsBoth(cur, spawnCur)
			}
		default:
			if n == recv {
				return true
			}
			if _, ok := c.adm.At(cur); ok {
				limited = c.holdsBoth(cur, spawnCur)
			}
		}
		return !limited
	})
	return limited
}

// holdsBoth reports whether the statement list that runs the acquire at cur
// also holds the spawn, so that every spawn is preceded by an acquire: an
// acquire in one case of a switch does not bound a go statement after it.
// An acquire in an if condition or a select's comm belongs to the list
// holding the if or select, and so does one in the body of an if whose
// condition always holds (alwaysHolds).
func (c *checker) holdsBoth(cur, spawn inspector.Cursor) bool {
	for at := cur; ; at = at.Parent() {
		p := at.Parent()
		if !p.Valid() {
			return false
		}
		switch p.Node().(type) {
		case *ast.BlockStmt:
			switch p.ParentEdgeKind() {
			case edge.SelectStmt_Body, edge.SwitchStmt_Body, edge.TypeSwitchStmt_Body:
				continue // the clauses' container, not a statement list
			case edge.IfStmt_Body:
				if !p.Contains(spawn) && c.sh.AlwaysHolds(p.Parent()) {
					continue
				}
			}
			return p.Contains(spawn)
		case *ast.CaseClause, *ast.CommClause:
			if k := at.ParentEdgeKind(); k == edge.CaseClause_Body || k == edge.CommClause_Body {
				return p.Contains(spawn)
			}
		}
	}
}

// waitsAfter reports whether the loop body, after the spawn and before the
// next item, waits: a Wait call (the WaitGroup or errgroup of this batch), or
// a receive (of the goroutine's result). Either bounds the goroutines of one
// iteration, as an errgroup with a fixed two Go calls per item and a Wait is.
// Leaving the loop after the spawn (return, break) bounds them too: the
// spawn is not per item.
func (c *checker) waitsAfter(loop, spawnCur inspector.Cursor) bool {
	body := loopBody(loop.Node())
	inSwitch := inSwitchOf(loop, spawnCur)
	for cur := spawnCur; cur.Node() != body && cur.Parent().Valid(); cur = cur.Parent() {
		var list []ast.Stmt
		switch p := cur.Parent().Node().(type) {
		case *ast.BlockStmt:
			switch cur.Parent().Parent().Node().(type) {
			case *ast.SelectStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
				continue // the other cases do not run after this one
			}
			list = p.List
		case *ast.CaseClause:
			list = p.Body
		case *ast.CommClause:
			list = p.Body
		}
		after := false
		for _, s := range list {
			if s == cur.Node() {
				after = true
				continue
			}
			if !after {
				continue
			}
			if c.waits(s) || code.LeavesLoop(c.pass.TypesInfo, loop, []ast.Stmt{s}, inSwitch) {
				return true
			}
		}
	}
	return false
}

// cappedByCounter reports whether, before the spawn, the loop leaves once a
// counter it increments reaches a bound (if started == len(readers) { break }
// … go read(…); started++): the loop then starts a bounded number of
// goroutines, whatever the comparison and whatever the bound.
func (c *checker) cappedByCounter(loop, spawnCur inspector.Cursor) bool {
	info := c.pass.TypesInfo
	body := loopBody(loop.Node())
	counters := incrementedIn(info, body)
	if len(counters) == 0 {
		return false
	}
	inSwitch := inSwitchOf(loop, spawnCur)
	for cur := spawnCur; cur.Node() != body && cur.Parent().Valid(); cur = cur.Parent() {
		list := shared.StmtList(cur.Parent().Node())
		for _, st := range list {
			if st == cur.Node() {
				break
			}
			ifs, ok := st.(*ast.IfStmt)
			if !ok || !code.LeavesLoop(info, loop, ifs.Body.List, inSwitch) {
				continue
			}
			if comparesCounter(info, ifs.Cond, counters) {
				return true
			}
		}
	}
	return false
}

// incrementedIn returns the integer variables declared outside body that
// body steps in one direction: n++, n += k, n = n + k, and the same counting
// down (left--, left -= k) to a bound such as zero.
func incrementedIn(info *types.Info, body *ast.BlockStmt) map[*types.Var]bool {
	out := make(map[*types.Var]bool)
	add := func(e ast.Expr) {
		if v := code.Var(info, e); v != nil && !code.Inside(v.Pos(), body) {
			if b, ok := v.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
				out[v] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IncDecStmt:
			add(n.X)
		case *ast.AssignStmt:
			if len(n.Lhs) != 1 || len(n.Rhs) != 1 {
				break
			}
			switch n.Tok {
			case token.ADD_ASSIGN, token.SUB_ASSIGN:
				add(n.Lhs[0])
			case token.ASSIGN:
				if b, ok := ast.Unparen(n.Rhs[0]).(*ast.BinaryExpr); ok && (b.Op == token.ADD || b.Op == token.SUB) && shared.SameExpr(b.X, n.Lhs[0]) {
					add(n.Lhs[0])
				}
			}
		}
		return true
	})
	return out
}

// comparesCounter reports whether cond compares one of the counters with
// something, with any comparison operator.
func comparesCounter(info *types.Info, cond ast.Expr, counters map[*types.Var]bool) bool {
	return code.AnyNode(cond, nil, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && shared.IsComparison(b.Op) {
			if counters[code.Var(info, b.X)] || counters[code.Var(info, b.Y)] {
				return true
			}
		}
		return false
	})
}

// loopLabel returns the label of the loop at loop, or "".
func loopLabel(loop inspector.Cursor) string {
	if l, ok := loop.Parent().Node().(*ast.LabeledStmt); ok {
		return l.Label.Name
	}
	return ""
}

// inSwitchOf reports whether a select or switch inside the loop encloses
// cur: an unlabeled break there leaves it, not the loop.
func inSwitchOf(loop, cur inspector.Cursor) bool {
	for e := range cur.Enclosing((*ast.SelectStmt)(nil), (*ast.SwitchStmt)(nil), (*ast.TypeSwitchStmt)(nil), (*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
		if e.Node() == loop.Node() {
			return false
		}
		switch e.Node().(type) {
		case *ast.SelectStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
			return true
		}
	}
	return false
}

// guardedByCount reports whether an if between the loop and the spawn
// compares a count with a limit (inflight < max, active.Load() < limit,
// len(running) < n): the loop then runs the item inline or drops it when too
// many are in flight, which bounds the goroutines like a TryAcquire does.
//
// The guard may also come first and skip the spawn at the limit (if
// inflight.Load() >= max { handle(j); continue }), with a count that is not
// read from the iteration's own values (a skip on j.priority bounds nothing).
func (c *checker) guardedByCount(loop, spawnCur inspector.Cursor) bool {
	for e := range spawnCur.Enclosing((*ast.IfStmt)(nil), (*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
		if e.Node() == loop.Node() {
			break
		}
		if ifs, ok := e.Node().(*ast.IfStmt); ok && c.comparesCount(ifs.Cond, nil) {
			return true
		}
	}
	body := loopBody(loop.Node())
	inSwitch := inSwitchOf(loop, spawnCur)
	for cur := spawnCur; cur.Node() != body && cur.Parent().Valid(); cur = cur.Parent() {
		for _, st := range shared.StmtList(cur.Parent().Node()) {
			if st == cur.Node() {
				break
			}
			ifs, ok := st.(*ast.IfStmt)
			if ok && skipsRest(c.pass.TypesInfo, loop, ifs.Body.List, inSwitch) && c.comparesCount(ifs.Cond, loop.Node()) {
				return true
			}
		}
	}
	return false
}

// comparesCount reports whether cond compares a count of work in flight
// with something; with loop set, a count not read from a variable the loop
// declares (the item, or what the iteration computes from it).
func (c *checker) comparesCount(cond ast.Expr, loop ast.Node) bool {
	counts := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && shared.IsRelational(b.Op) {
			for _, side := range []ast.Expr{b.X, b.Y} {
				if c.sh.IsCount(side) && (loop == nil || (!c.readsIteration(side, loop) && c.changes(side, loop))) {
					counts = true
				}
			}
		}
		return !counts
	})
	return counts
}

// readsIteration reports whether e reads a variable declared inside loop
// (its header's included).
func (c *checker) readsIteration(e ast.Expr, loop ast.Node) bool {
	return code.AnyNode(e, nil, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && code.Inside(v.Pos(), loop) {
				return true
			}
		}
		return false
	})
}

// changes reports whether the count e can change while the loop runs: a
// call (an atomic load) or a field, or a local variable that something in
// the function around the loop assigns after its declaration.
func (c *checker) changes(e ast.Expr, loop ast.Node) bool {
	v := code.Var(c.pass.TypesInfo, e)
	if v == nil || v.IsField() || !code.IsLocal(v) {
		return true
	}
	cur, ok := c.insp.Root().FindNode(loop)
	if !ok {
		return false
	}
	return code.ReassignedIn(c.pass.TypesInfo, code.FuncBody(code.EnclosingFunc(cur).Node()))[v]
}

// skipsRest reports whether list ends by leaving the rest of the iteration:
// it leaves the loop (see code.LeavesLoop) or continues it.
func skipsRest(info *types.Info, loop inspector.Cursor, list []ast.Stmt, inSwitch bool) bool {
	if code.LeavesLoop(info, loop, list, inSwitch) {
		return true
	}
	label := loopLabel(loop)
	if len(list) == 0 {
		return false
	}
	s, ok := list[len(list)-1].(*ast.BranchStmt)
	return ok && s.Tok == token.CONTINUE && (s.Label == nil || s.Label.Name == label)
}

// waits reports whether the statement s blocks on a Wait call or a receive
// outside any function literal.
func (c *checker) waits(s ast.Stmt) bool {
	return code.AnyNode(s, code.IsFuncLit, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				return true
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" {
				return true
			}
		}
		return false
	})
}

// receivesIn reports whether the function declaration around fn receives from
// ch outside the goroutines it starts: it consumes what it would send, and a
// blocking send there would deadlock.
func (c *checker) receivesIn(fn inspector.Cursor, ch *types.Var) bool {
	top := fn
	for f := range fn.Enclosing((*ast.FuncDecl)(nil)) {
		top = f
	}
	for cur := range top.Preorder((*ast.UnaryExpr)(nil), (*ast.RangeStmt)(nil)) {
		if code.Var(c.pass.TypesInfo, shared.ReceivedFrom(cur.Node())) != ch {
			continue
		}
		otherGoroutine := false
		for lit := range cur.Enclosing((*ast.FuncLit)(nil)) {
			if top.Contains(lit) && code.IsSpawnedLit(lit) {
				otherGoroutine = true
			}
		}
		if !otherGoroutine {
			return true
		}
	}
	return false
}

// locksHeldAt reports whether a sync mutex is held at site: a goroutine that
// sends from under a lock may exist so that the consumer, which takes the
// same lock, cannot deadlock with the sender.
func (c *checker) locksHeldAt(site, fn inspector.Cursor) bool {
	return len(c.sh.HeldLocks(site, fn)) > 0
}
