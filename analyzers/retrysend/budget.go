package retrysend

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"time"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// A budget is what a polling loop waits in all before it gives up: the
// sum of the sleeps of its failed attempts.
type budget struct {
	known bool   // the total could be worked out
	expr  string // the total, as the timer's argument
	kept  []span // the loop's source that expr takes along
	uses  []types.Object

	constant bool          // the total is a constant:
	total    time.Duration // the total,
	min, max time.Duration // the shortest and longest sleep
	varies   bool          // the sleep changes from one attempt to the next
}

// A budgeter works out the budgets of polling loops.
type budgeter struct{ *pkg }

// budgetOf works out the budget of a counted loop l whose failed attempts
// do a, in closed form. A sleep that does not change in the loop, over a
// count that is not a constant, gives count × sleep. Over a constant count,
// the sleep of one attempt must take one of the shapes of a progression
// (see [shape]): then the total is the progression's sum, never the
// attempts played one by one. Any other sleep that changes per attempt has
// a budget that is not known (varies): the finding says what to do by hand.
func (c *budgeter) budgetOf(l loop, a attempt, timePkg string) budget {
	changed := code.AssignedIn(c.info, l.stmt, nil)
	if l.countN == 0 {
		sleep := a.sleep()
		if sleep == nil || c.mentionsAny(sleep, changed) || !code.CallFree(c.info, nil, sleep) || c.mentionsAny(l.count, changed) {
			return budget{varies: sleep != nil}
		}
		return budget{
			known: true,
			expr:  timePkg + ".Duration(" + edits.Source(c.pass, l.count) + ") * " + parenthesize(c.pass, sleep),
			kept:  []span{spanOf(l.count), spanOf(sleep)},
		}
	}
	stmts := failedPath(l, a)
	at, d, ok := c.timedSleep(stmts)
	if !ok {
		return budget{varies: d != nil}
	}
	p, ok := c.progressionOf(l, stmts, at, d, changed)
	if !ok {
		return budget{varies: true}
	}
	return c.budgetOfProgression(p, l.countN, timePkg)
}

// failedPath returns the statements a failed attempt runs, without a final
// control statement: those before the select, the default, and those after
// the select when the default falls through to them. (The post statement
// only counts: the loop's shape says so.)
func failedPath(l loop, a attempt) []ast.Stmt {
	var stmts []ast.Stmt // a fresh slice: the lists are the syntax tree's
	stmts = append(stmts, withoutLast(a.beforeStmts, a.before)...)
	stmts = append(stmts, withoutLast(a.dfltStmts, a.dflt)...)
	if a.dflt.End == sendselect.Falls {
		stmts = append(stmts, withoutLast(a.afterStmts, a.after)...)
	}
	return stmts
}

// withoutLast returns stmts, summarised by p, without their final control
// statement.
func withoutLast(stmts []ast.Stmt, p sendselect.Path) []ast.Stmt {
	if n := len(stmts); n > 0 && p.Last != nil && stmts[n-1] == p.Last {
		return stmts[:n-1]
	}
	return stmts
}

// timedSleep returns the index in stmts of the one statement that waits
// for a duration (time.Sleep(d), <-time.After(d)), and d. Yields
// (runtime.Gosched) do not count. It fails with d nil when the attempt
// waits otherwise too (a timer's channel, a backoff helper), or not at all.
func (c *budgeter) timedSleep(stmts []ast.Stmt) (int, ast.Expr, bool) {
	at, d := -1, ast.Expr(nil)
	for i, st := range stmts {
		es, isExpr := st.(*ast.ExprStmt)
		if w, ok := timedWait(c.info, es); isExpr && ok {
			if d != nil {
				return -1, w, false // two sleeps: no shape of one delay
			}
			at, d = i, w
			continue
		}
		if sendselect.IsSpin(c.info, st) {
			continue
		}
		if p := sendselect.LoopBody(c.info, []ast.Stmt{st}, nil, c.isWait); len(p.Waits) > 0 || containsWait(c.info, st) {
			return -1, nil, false
		}
	}
	return at, d, d != nil
}

// timedWait returns the duration of a statement that only waits for one:
// time.Sleep(d), <-time.After(d).
func timedWait(info *types.Info, st *ast.ExprStmt) (ast.Expr, bool) {
	if st == nil {
		return nil, false
	}
	switch x := ast.Unparen(st.X).(type) {
	case *ast.CallExpr:
		if sendselect.CallName(info, x) == "time.Sleep" && len(x.Args) == 1 {
			return x.Args[0], true
		}
	case *ast.UnaryExpr:
		if call, ok := ast.Unparen(x.X).(*ast.CallExpr); ok && x.Op == token.ARROW &&
			sendselect.CallName(info, call) == "time.After" && len(call.Args) == 1 {
			return call.Args[0], true
		}
	}
	return nil, false
}

// containsWait reports whether n holds a timed wait below its top level (in
// an if, say).
func containsWait(info *types.Info, n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if st, ok := n.(*ast.ExprStmt); ok {
			if _, ok := timedWait(info, st); ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// progressionOf works out the shape of d, the sleep of the attempt's
// statement stmts[at]: a duration the loop does not change, one computed
// from the loop's counter, or a delay variable the attempt updates.
func (c *budgeter) progressionOf(l loop, stmts []ast.Stmt, at int, d ast.Expr, changed map[types.Object]bool) (progression, bool) {
	if !c.mentionsAny(d, changed) {
		u, ok := c.invariantDuration(d)
		return progression{shape: arithmetic, a: u.coef, base: u.base}, ok
	}
	if l.counter != nil && c.mentionsAny(d, map[types.Object]bool{l.counter: true}) {
		return c.counterProgression(l, d, changed)
	}
	id, ok := ast.Unparen(d).(*ast.Ident)
	if !ok {
		return progression{}, false
	}
	v, ok := c.info.Uses[id].(*types.Var)
	if !ok || !isLocal(v) || v == l.counter {
		return progression{}, false
	}
	if code.Inside(v.Pos(), l.stmt) {
		// A variable of the attempt: the sleep is what defines it.
		if rhs, ok := c.definedOnce(stmts[:at], stmts[at+1:], v); ok {
			return c.progressionOf(l, stmts, at, rhs, changed)
		}
		return progression{}, false
	}
	return c.delayProgression(l, stmts, at, v, changed)
}

// definedOnce returns x when one statement of before is v := x (or var v =
// x) and nothing else in before or after changes v.
func (c *budgeter) definedOnce(before, after []ast.Stmt, v *types.Var) (ast.Expr, bool) {
	var rhs ast.Expr
	for _, st := range before {
		if !code.Assigns(c.info, st, v) {
			continue
		}
		x, ok := assignmentOf(c.info, st, v)
		if !ok || rhs != nil {
			return nil, false
		}
		rhs = x
	}
	for _, st := range after {
		if code.Assigns(c.info, st, v) {
			return nil, false
		}
	}
	return rhs, rhs != nil
}

// A dur is a duration known up to one factor that does not change in the
// loop: coef nanoseconds when base is nil, or coef × base.
type dur struct {
	coef int64
	base ast.Expr
}

func (d dur) sameBase(e dur) bool {
	if d.base == nil || e.base == nil {
		return d.base == e.base
	}
	return types.ExprString(d.base) == types.ExprString(e.base)
}

// invariantDuration returns e, which the loop does not change, as a dur: an
// integer constant, or a call-free expression of type time.Duration.
func (c *budgeter) invariantDuration(e ast.Expr) (dur, bool) {
	if n, ok := c.intConst(e); ok {
		return dur{coef: n}, true
	}
	if code.CallFree(c.info, nil, e) && code.IsExactly(c.info.TypeOf(e), "time", "Duration") {
		return dur{coef: 1, base: ast.Unparen(e)}, true
	}
	return dur{}, false
}

// intConst returns the value of an integer constant expression.
func (c *budgeter) intConst(e ast.Expr) (int64, bool) { return consts.Int(c.info, e) }

// An affine is a value linear in one variable x (the attempt, or a delay
// before its update), known up to one invariant factor: (p + q×x) × base,
// or p + q×x when base is nil.
type affine struct {
	p, q int64
	base ast.Expr
}

// counterProgression works out a sleep computed from the loop's counter:
// linear, time.Duration(attempt+1) * unit, or exponential, a unit shifted by
// it (time.Millisecond << i, time.Millisecond * (1 << i)). The counter is
// start + j at attempt j.
func (c *budgeter) counterProgression(l loop, d ast.Expr, changed map[types.Object]bool) (progression, bool) {
	at := affine{p: l.start, q: 1}
	if unit, n, ok := c.doubling(d, l.counter, at, changed); ok {
		if n.q != 1 || n.p < 0 || n.p > 62 {
			return progression{}, false
		}
		calc := &calc{ok: true}
		a := calc.mul(unit.p, calc.pow(2, n.p))
		return progression{shape: geometric, a: a, step: 2, base: unit.base}, calc.ok
	}
	f, ok := c.affineOf(d, l.counter, at, changed)
	return progression{shape: arithmetic, a: f.p, step: f.q, base: f.base}, ok
}

// doubling matches e as unit << n, where n is an affine of the counter
// (at) and unit one that does not change: a shift, a product of one by
// a constant or an invariant duration, or a conversion of one.
func (c *budgeter) doubling(e ast.Expr, v *types.Var, at affine, changed map[types.Object]bool) (unit, n affine, ok bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if tv, isConv := c.info.Types[e.Fun]; isConv && tv.IsType() && len(e.Args) == 1 {
			if b, isInt := tv.Type.Underlying().(*types.Basic); isInt && b.Info()&types.IsInteger != 0 {
				return c.doubling(e.Args[0], v, at, changed)
			}
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.SHL:
			unit, ok1 := c.affineOf(e.X, v, at, changed)
			n, ok2 := c.affineOf(e.Y, v, at, changed)
			return unit, n, ok1 && ok2 && unit.q == 0 && n.base == nil
		case token.MUL:
			for _, f := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
				if unit, n, ok := c.doubling(f[0], v, at, changed); ok {
					k, ok := c.affineOf(f[1], v, at, changed)
					if ok && k.q == 0 {
						unit, ok = combine(token.MUL, unit, k)
						return unit, n, ok
					}
				}
			}
		}
	}
	return affine{}, affine{}, false
}

// affineOf evaluates e as an affine of x, where the variable v is at:
// constants and durations the loop does not change are themselves; sums,
// differences, products and shifts by a constant and conversions to
// integer types combine them.
func (c *budgeter) affineOf(e ast.Expr, v *types.Var, at affine, changed map[types.Object]bool) (affine, bool) {
	if n, ok := c.intConst(e); ok {
		return affine{p: n}, true
	}
	e = ast.Unparen(e)
	if c.isVar(e, v) {
		return at, true
	}
	if !c.mentionsAny(e, changed) {
		u, ok := c.invariantDuration(e)
		return affine{p: u.coef, base: u.base}, ok
	}
	switch e := e.(type) {
	case *ast.CallExpr:
		tv, ok := c.info.Types[e.Fun]
		if !ok || !tv.IsType() || len(e.Args) != 1 {
			return affine{}, false
		}
		if b, ok := tv.Type.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			return affine{}, false
		}
		return c.affineOf(e.Args[0], v, at, changed)
	case *ast.BinaryExpr:
		x, ok1 := c.affineOf(e.X, v, at, changed)
		y, ok2 := c.affineOf(e.Y, v, at, changed)
		if !ok1 || !ok2 {
			return affine{}, false
		}
		return combine(e.Op, x, y)
	}
	return affine{}, false
}

// combine returns x op y for the operators an affine stays one under.
func combine(op token.Token, x, y affine) (affine, bool) {
	calc := &calc{ok: true}
	switch op {
	case token.ADD, token.SUB:
		if !(dur{base: x.base}).sameBase(dur{base: y.base}) {
			return affine{}, false
		}
		if op == token.SUB {
			y.p, y.q = calc.sub(0, y.p), calc.sub(0, y.q)
		}
		return affine{calc.add(x.p, y.p), calc.add(x.q, y.q), x.base}, calc.ok
	case token.MUL:
		// One factor must not change with x, and at most one may be a
		// duration: (p + q×x) × k.
		k, o := y, x
		if x.q == 0 {
			k, o = x, y
		}
		if k.q != 0 || (x.base != nil && y.base != nil) {
			return affine{}, false
		}
		base := o.base
		if base == nil {
			base = k.base
		}
		return affine{calc.mul(o.p, k.p), calc.mul(o.q, k.p), base}, calc.ok
	case token.SHL:
		if y.q != 0 || y.base != nil || y.p < 0 || y.p > 62 {
			return affine{}, false
		}
		return combine(token.MUL, x, affine{p: int64(1) << y.p})
	}
	return affine{}, false
}

// budgetOfProgression adds up the n failed attempts of p.
func (c *budgeter) budgetOfProgression(p progression, n int64, timePkg string) budget {
	if !p.valid() {
		return budget{varies: true}
	}
	total, first, last, ok := p.attempts(n)
	if !ok {
		return budget{varies: first != last}
	}
	b := budget{known: true, varies: first != last}
	if p.base == nil {
		b.constant, b.total = true, time.Duration(total)
		b.min, b.max = time.Duration(min(first, last)), time.Duration(max(first, last))
		b.expr = durationText(total, timePkg)
		return b
	}
	// A multiple of an invariant duration, spelled as the loop spelled it.
	src := c.baseSource(p.base)
	b.expr = src
	if total != 1 {
		if _, isBinary := p.base.(*ast.BinaryExpr); isBinary {
			src = "(" + src + ")"
		}
		b.expr = fmt.Sprintf("%d * %s", total, src)
	}
	if p.base.Pos().IsValid() {
		b.kept = []span{spanOf(p.base)}
	}
	b.uses = c.objectsIn(p.base)
	return b
}

// baseSource spells a base: its source, or the name of the parameter it
// stands for.
func (c *budgeter) baseSource(e ast.Expr) string {
	if !e.Pos().IsValid() {
		return types.ExprString(e)
	}
	return edits.Source(c.pass, e)
}

// mentionsAny reports whether e refers to one of vars.
func (c *budgeter) mentionsAny(e ast.Expr, vars map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && vars[c.info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}
