package waittiming

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// Work that times itself. A figure across a wait whose work is calls of
// functions that each take a timestamp before their own work and record the
// time since it holds the wait and a figure of the work beside it: the
// total less the work's figure is the wait, measured apart as surely as by
// a second timestamp after the wait (split-timestamp), only one call down.
//
//	startT := time.Now()
//	defer recordDuration(autoReapDuration, startT)
//	s.mrsw.BeginWriteBlocking("reap")
//	return s.reap() // reap: startTime := time.Now(); …; Duration: time.Since(startTime)
//
// Followed: functions of this package, whose body's statements before its
// first work take the timestamp (start := time.Now(), or a deferred
// recorder handed time.Now()), and whose body later records the time since
// it (a call handed time.Since(start), or start as a recorder's start, as
// recordsSince decides). After a callee that waits inside and then works,
// the callee's own work is taken for the acquire's bookkeeping (rqlite's
// BeginWriteBlocking sets its owner): the work timed apart is what follows.
//
// Not followed: a duration kept in a value handed to observers (a blind
// reviewer of rqlite's auto-reap judged the figure a hazard, its reap's
// observation being no recorded figure, where a reviewer of the finding
// judged it false); a function of another package; one that times only
// part of its work after some of it ran.

// workTimedApart reports whether every piece of work between the wait,
// which ends at from, and the end of m is a call of a function that times
// its own work, and there is such work.
func (c *checker) workTimedApart(m *measurement, startFn inspector.Cursor, from token.Pos) bool {
	to := m.endAt
	some, all := false, true
	startFn.Inspect([]ast.Node{(*ast.CallExpr)(nil), (*ast.FuncLit)(nil), (*ast.GoStmt)(nil), (*ast.DeferStmt)(nil)}, func(cur inspector.Cursor) bool {
		n := cur.Node()
		if !all || n.End() <= from || n.Pos() >= to {
			return false
		}
		if _, isDefer := n.(*ast.DeferStmt); isDefer {
			return false // runs when the function returns: the release, the end
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || n.Pos() < from || n == m.end.Node() || !c.isWorkCall(call, admission.Wait{}) {
			return true
		}
		if c.timesItself(code.CalleeFunc(c.pass.TypesInfo, call)) {
			some = true
			return false // its arguments and body are its own work
		}
		all = false
		return false
	})
	return some && all
}

// timesItself reports whether fn, a function of this package, takes a
// timestamp before its own work and records the time since it later in its
// body.
func (c *checker) timesItself(fn *types.Func) bool {
	if fn == nil || fn.Pkg() != c.pass.Pkg {
		return false
	}
	if done, ok := c.selfTimed[fn]; ok {
		return done
	}
	if c.selfTimed == nil {
		c.selfTimed = make(map[*types.Func]bool)
	}
	c.selfTimed[fn] = false // a function that calls itself first is no timer of itself
	decl, ok := c.res.FuncDecl(fn)
	if !ok {
		return false
	}
	fd, ok := decl.Node().(*ast.FuncDecl)
	if !ok || fd.Body == nil {
		return false
	}
	info := c.pass.TypesInfo
	for i, st := range fd.Body.List {
		if v := stampedLocal(info, st); v != nil {
			ok := c.recordsFrom(fd.Body.List[i+1:], v)
			c.selfTimed[fn] = ok
			return ok
		}
		if d, isDefer := st.(*ast.DeferStmt); isDefer && c.recordsNow(d.Call) {
			c.selfTimed[fn] = true // defer record(metric, time.Now())
			return true
		}
		if c.hasWork(st) {
			return false
		}
	}
	return false
}

// stampedLocal returns the local variable st assigns a clock read to
// (start := time.Now()), or nil.
func stampedLocal(info *types.Info, st ast.Stmt) *types.Var {
	as, ok := st.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || !timing.IsTimestamp(info, call) {
		return nil
	}
	return localVar(info, as.Lhs[0])
}

// recordsFrom reports whether a statement of rest records the time since
// v: hands a call time.Since(v) (or its Seconds, Milliseconds…) or t.Sub(v)
// (log.Printf("took %v", time.Since(start)), hist.Observe(…)), or hands v
// to a recorder of the time since it (record(m, start)). A duration kept
// in a value (an observation handed to whoever listens) is no figure the
// check can see recorded.
func (c *checker) recordsFrom(rest []ast.Stmt, v *types.Var) bool {
	info := c.pass.TypesInfo
	found := false
	for _, st := range rest {
		ast.Inspect(st, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if found || !ok {
				return !found
			}
			if _, _, elapsed := timing.Elapsed(info, call); elapsed {
				return false // handed v to measure from: found only where it goes
			}
			for i, arg := range call.Args {
				found = found || sinceOf(info, arg, v) || (localVar(info, arg) == v && c.recordsSince(call, i, false))
			}
			return !found
		})
	}
	return found
}

// sinceOf reports whether e is the time since v, or a conversion of it to a
// number (time.Since(v).Seconds()).
func sinceOf(info *types.Info, e ast.Expr, v *types.Var) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	if start, _, ok := timing.Elapsed(info, call); ok {
		return localVar(info, start) == v
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && len(call.Args) == 0 {
		return sinceOf(info, sel.X, v)
	}
	return false
}

// recordsNow reports whether the deferred call is handed a clock read it
// records the time since: defer record(metric, time.Now()).
func (c *checker) recordsNow(call *ast.CallExpr) bool {
	for i, arg := range call.Args {
		if now, ok := ast.Unparen(arg).(*ast.CallExpr); ok && timing.IsTimestamp(c.pass.TypesInfo, now) && c.recordsSince(call, i, true) {
			return true
		}
	}
	return false
}
