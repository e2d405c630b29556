package retrysend

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// delayProgression works out the sleeps of a loop whose attempts sleep for
// a delay variable v and update it: v starts from a value the statements
// before the loop give it (or a time.Duration parameter's), and the
// attempt's statements that change v are one growth (v *= k, v <<= s,
// v += v, v += step), one capped growth (v = min(v*k, max), if v < max {
// v *= k }), or a growth followed by a clamp (if v > max { v = max }).
// Anything else that changes v has no closed form here.
func (c *budgeter) delayProgression(l loop, stmts []ast.Stmt, at int, v *types.Var, changed map[types.Object]bool) (progression, bool) {
	start, ok := c.entryValue(l, v, changed)
	if !ok {
		return progression{}, false
	}
	var updates []int
	for i, st := range stmts {
		if code.Assigns(c.info, st, v) {
			updates = append(updates, i)
		}
	}
	p := progression{shape: arithmetic, a: start.coef, base: start.base}
	switch len(updates) {
	case 0:
		return p, true // changed in a case that leaves the loop: constant while it polls
	case 1:
		p, ok = c.update(stmts[updates[0]], v, p, start, changed)
	case 2:
		if updates[1] != updates[0]+1 {
			return progression{}, false
		}
		p, ok = c.update(stmts[updates[0]], v, p, start, changed)
		if ok && p.shape == geometric && p.base == nil {
			p.limit, ok = c.clampOf(stmts[updates[1]], v)
			p.shape = clamped
		} else {
			ok = false
		}
	default:
		return progression{}, false
	}
	if updates[0] < at {
		p.offset = 1 // the attempt updates the delay before it sleeps
	}
	return p, ok
}

// update returns p as the statement st changes v: a growth, a min of one,
// or an if that grows v while it is below a cap.
func (c *budgeter) update(st ast.Stmt, v *types.Var, p progression, start dur, changed map[types.Object]bool) (progression, bool) {
	switch st := st.(type) {
	case *ast.AssignStmt:
		if len(st.Lhs) != 1 || len(st.Rhs) != 1 || !c.isVar(st.Lhs[0], v) {
			return p, false
		}
		call, isCall := ast.Unparen(st.Rhs[0]).(*ast.CallExpr)
		if st.Tok != token.ASSIGN || !isCall || code.BuiltinName(c.info, call) != "min" || len(call.Args) != 2 {
			return c.grown(st.Tok, st.Rhs[0], v, p, start, changed)
		}
		// v = min(v*k, max), or min(max, v*k)
		for i, g := range call.Args {
			if limit, ok := c.intConst(call.Args[1-i]); ok {
				if q, ok := c.grown(token.ASSIGN, g, v, p, start, changed); ok && q.shape == geometric {
					q.shape, q.limit = clamped, limit
					return q, true
				}
			}
		}
	case *ast.IfStmt:
		// if v < max { v *= k }
		limit, ok := c.compared(st, v, token.LSS)
		if !ok || len(st.Body.List) != 1 {
			return p, false
		}
		q, ok := c.update(st.Body.List[0], v, p, start, changed)
		if !ok || q.shape != geometric {
			return p, false
		}
		q.shape, q.limit = overshooting, limit
		return q, true
	}
	return p, false
}

// compoundOps maps an assignment operator to its binary operator.
var compoundOps = map[token.Token]token.Token{
	token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB,
	token.MUL_ASSIGN: token.MUL, token.SHL_ASSIGN: token.SHL,
}

// grown returns p grown by v tok rhs (v = rhs, or v op= rhs) when the new v
// is v ± step (arithmetic, a step of the start's base that the loop does
// not change) or k×v (geometric, k ≥ 1: v *= k, v <<= s, v += v).
func (c *budgeter) grown(tok token.Token, rhs ast.Expr, v *types.Var, p progression, start dur, changed map[types.Object]bool) (progression, bool) {
	if x, neg, ok := c.addend(tok, rhs, v); ok {
		step, ok := c.invariantDuration(x)
		if !ok || c.mentionsAny(x, changed) || !start.sameBase(step) {
			return p, false
		}
		p.step = step.coef
		if neg {
			p.step = -step.coef
		}
		return p, true
	}
	self := affine{q: 1} // v, as an affine of itself
	next, ok := c.affineOf(rhs, v, self, changed)
	if op, compound := compoundOps[tok]; compound && ok {
		next, ok = combine(op, self, next)
	} else if tok != token.ASSIGN {
		return p, false
	}
	if !ok || next.p != 0 || next.q < 1 {
		return p, false
	}
	p.shape, p.step = geometric, next.q
	return p, true
}

// addend returns x, and whether it is subtracted, when v tok rhs adds x to
// v (v += x, v -= x, v = v + x, v = x + v, v = v - x) and x does not name v.
func (c *budgeter) addend(tok token.Token, rhs ast.Expr, v *types.Var) (x ast.Expr, neg, ok bool) {
	switch tok {
	case token.ADD_ASSIGN, token.SUB_ASSIGN:
		x, neg = rhs, tok == token.SUB_ASSIGN
	case token.ASSIGN:
		bin, isBin := ast.Unparen(rhs).(*ast.BinaryExpr)
		switch {
		case !isBin:
			return nil, false, false
		case bin.Op == token.ADD && c.isVar(bin.Y, v):
			x = bin.X
		case (bin.Op == token.ADD || bin.Op == token.SUB) && c.isVar(bin.X, v):
			x, neg = bin.Y, bin.Op == token.SUB
		default:
			return nil, false, false
		}
	default:
		return nil, false, false
	}
	return x, neg, !c.mentionsAny(x, map[types.Object]bool{v: true})
}

// clampOf returns max when st is if v > max { v = max } (or >=), or
// v = min(v, max).
func (c *budgeter) clampOf(st ast.Stmt, v *types.Var) (int64, bool) {
	if as, ok := st.(*ast.AssignStmt); ok {
		call, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !c.assignsVar(as, v) || !isCall || code.BuiltinName(c.info, call) != "min" || len(call.Args) != 2 {
			return 0, false
		}
		for i, arg := range call.Args {
			if limit, ok := c.intConst(call.Args[1-i]); ok && c.isVar(arg, v) {
				return limit, true
			}
		}
		return 0, false
	}
	ifs, ok := st.(*ast.IfStmt)
	if !ok {
		return 0, false
	}
	limit, ok := c.compared(ifs, v, token.GTR)
	if !ok {
		limit, ok = c.compared(ifs, v, token.GEQ)
	}
	if !ok || len(ifs.Body.List) != 1 {
		return 0, false
	}
	as, ok := ifs.Body.List[0].(*ast.AssignStmt)
	if !ok || !c.assignsVar(as, v) {
		return 0, false
	}
	set, ok := c.intConst(as.Rhs[0])
	return limit, ok && set == limit
}

// assignsVar reports whether as is v = x.
func (c *budgeter) assignsVar(as *ast.AssignStmt, v *types.Var) bool {
	return as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 && c.isVar(as.Lhs[0], v)
}

// compared returns k when ifs, with no init and no else, tests v op k (or
// k op' v, the same comparison reversed) for a constant k.
func (c *budgeter) compared(ifs *ast.IfStmt, v *types.Var, op token.Token) (int64, bool) {
	bin, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok || ifs.Init != nil || ifs.Else != nil {
		return 0, false
	}
	reversed := map[token.Token]token.Token{token.LSS: token.GTR, token.GTR: token.LSS, token.GEQ: token.LEQ}
	x, y := bin.X, bin.Y
	switch {
	case bin.Op == op && c.isVar(x, v):
	case bin.Op == reversed[op] && c.isVar(y, v):
		y = x
	default:
		return 0, false
	}
	return c.intConst(y)
}

// isVar reports whether e is the variable v.
func (c *budgeter) isVar(e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && c.info.Uses[id] == v
}

// entryValue returns the value v has as loop l starts, from the
// statements before it in its block: the last one that assigns v must be
// a plain definition or assignment of v alone, of a value the loop does
// not change, and none after it may change what that value refers to. A
// time.Duration parameter never assigned before the loop is its own base.
func (c *budgeter) entryValue(l loop, v *types.Var, changed map[types.Object]bool) (dur, bool) {
	outer := l.cur
	if l.outer != l.stmt {
		outer = outer.Parent()
	}
	var before []ast.Stmt
	for prev, ok := outer.PrevSibling(); ok; prev, ok = prev.PrevSibling() {
		st, isStmt := prev.Node().(ast.Stmt)
		if !isStmt {
			return dur{}, false
		}
		if rhs, ok := assignmentOf(c.info, st, v); ok {
			if c.mentionsAny(rhs, changed) || assignsAnyIn(c.info, before, rhs) {
				return dur{}, false
			}
			if len(before) > 0 && c.selectsField(rhs) {
				return dur{}, false // a field may change on the way
			}
			return c.invariantDuration(rhs)
		}
		if code.Assigns(c.info, st, v) {
			return dur{}, false
		}
		before = append(before, st)
	}
	// The start of the block: a parameter keeps the caller's value.
	if fn := code.EnclosingFunc(l.cur); fn.Valid() && code.FuncBody(fn.Node()) == outer.Parent().Node() {
		if sig := code.FuncSignature(c.info, fn.Node()); sig != nil && isParam(sig, v) && code.IsExactly(v.Type(), "time", "Duration") {
			return dur{coef: 1, base: ast.NewIdent(v.Name())}, true
		}
	}
	return dur{}, false
}

func isParam(sig *types.Signature, v *types.Var) bool {
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == v {
			return true
		}
	}
	return false
}

// assignmentOf returns the value st gives v when st only defines or
// assigns v: v := x, v = x, var v = x.
func assignmentOf(info *types.Info, st ast.Stmt, v *types.Var) (ast.Expr, bool) {
	switch st := st.(type) {
	case *ast.AssignStmt:
		if len(st.Lhs) != 1 || len(st.Rhs) != 1 || (st.Tok != token.DEFINE && st.Tok != token.ASSIGN) {
			return nil, false
		}
		if id, ok := st.Lhs[0].(*ast.Ident); ok && info.ObjectOf(id) == v {
			return st.Rhs[0], true
		}
	case *ast.DeclStmt:
		gen, ok := st.Decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.VAR || len(gen.Specs) != 1 {
			return nil, false
		}
		spec := gen.Specs[0].(*ast.ValueSpec)
		if len(spec.Names) == 1 && len(spec.Values) == 1 && info.Defs[spec.Names[0]] == v {
			return spec.Values[0], true
		}
	}
	return nil, false
}

// assignsAnyIn reports whether stmts assign a variable e mentions.
func assignsAnyIn(info *types.Info, stmts []ast.Stmt, e ast.Expr) bool {
	for _, st := range stmts {
		assigned := code.AssignedIn(info, st, nil)
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && assigned[info.Uses[id]] {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// selectsField reports whether e reads a struct field.
func (c *budgeter) selectsField(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if s, ok := c.info.Selections[sel]; ok && s.Kind() == types.FieldVal {
				found = true
			}
		}
		return !found
	})
	return found
}
