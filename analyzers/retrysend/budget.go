package retrysend

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"time"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
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

// maxSimulated bounds the attempts a budget is worked out for.
const maxSimulated = 10000

// budgetOf works out the budget of a counted loop l whose failed attempts
// do a. An invariant sleep of a loop whose count is not a constant gives
// count × sleep. Otherwise the attempts are played one by one on constant
// values (and multiples of one invariant duration), as the loop's counter
// and delay variables change: time.Duration(attempt) * backoff over five
// attempts waits 1+2+3+4+5 backoffs, not five.
func (c *retryChecker) budgetOf(l loop, a attempt, timePkg string) budget {
	changed := code.AssignedIn(c.info, l.stmt, nil)
	sleep := a.sleep()
	if l.countN == 0 {
		if sleep == nil || c.mentionsAny(sleep, changed) || !sendselect.CallFree(c.info, sleep) || c.mentionsAny(l.count, changed) {
			return budget{varies: sleep != nil}
		}
		return budget{
			known: true,
			expr:  timePkg + ".Duration(" + edits.Source(c.pass, l.count) + ") * " + parenthesize(c.pass, sleep),
			kept:  []span{spanOf(l.count), spanOf(sleep)},
		}
	}
	if l.countN > maxSimulated {
		return budget{}
	}
	sim := &simulation{c: c, changed: changed, env: make(map[types.Object]term)}
	sim.enter(l)
	for i := int64(0); i < l.countN; i++ {
		if !sim.attempt(l, a, i) {
			return budget{varies: sim.varies()}
		}
	}
	return sim.budget(timePkg)
}

// A term is a duration or a number known up to one invariant factor:
// coef × base, or coef alone when base is nil.
type term struct {
	coef constant.Value
	base ast.Expr // an invariant expression of type time.Duration, or nil
}

func (t term) sameBase(u term) bool {
	if t.base == nil || u.base == nil {
		return t.base == u.base
	}
	return types.ExprString(t.base) == types.ExprString(u.base)
}

// A simulation plays the failed attempts of a loop on known values.
type simulation struct {
	c       *retryChecker
	changed map[types.Object]bool // what the loop assigns
	env     map[types.Object]term // what is known of those
	sleeps  []term
	unknown bool // some sleep could not be worked out
}

// enter sets the values of the loop's variables as the loop starts: its
// counter, and each variable it changes that a statement just before the
// loop (or the function's parameters) gives a value it can work with.
func (s *simulation) enter(l loop) {
	info := s.c.info
	if fs, ok := l.stmt.(*ast.ForStmt); ok && fs.Init != nil {
		init := fs.Init.(*ast.AssignStmt)
		for i, lhs := range init.Lhs {
			if obj := info.Defs[lhs.(*ast.Ident)]; obj != nil && i < len(init.Rhs) {
				if t, ok := s.eval(init.Rhs[i]); ok {
					s.env[obj] = t
				}
			}
		}
	}
	for obj := range s.changed {
		if code.Inside(obj.Pos(), l.stmt) {
			continue // the counter, or declared in an attempt: set there
		}
		if t, ok := s.entryValue(l, obj); ok {
			s.env[obj] = t
		}
	}
}

// entryValue returns the value v has as loop l starts, from the
// statements before it in its block: the last one that assigns v must be
// a plain definition or assignment of v alone, and none after it may
// change what its value refers to. A parameter never assigned before the
// loop is its own base.
func (s *simulation) entryValue(l loop, obj types.Object) (term, bool) {
	v, ok := obj.(*types.Var)
	if !ok {
		return term{}, false
	}
	outer := l.cur
	if l.outer != l.stmt {
		outer = outer.Parent()
	}
	var before []ast.Stmt
	for prev, ok := outer.PrevSibling(); ok; prev, ok = prev.PrevSibling() {
		st, isStmt := prev.Node().(ast.Stmt)
		if !isStmt {
			return term{}, false
		}
		if rhs, ok := assignmentOf(s.c.info, st, v); ok {
			if s.c.mentionsAny(rhs, s.changed) || assignsAnyIn(s.c.info, before, rhs) {
				return term{}, false
			}
			if len(before) > 0 && s.c.selectsField(rhs) {
				return term{}, false // a field may change on the way
			}
			return s.eval(rhs)
		}
		if code.Assigns(s.c.info, st, v) {
			return term{}, false
		}
		before = append(before, st)
	}
	// The start of the block: a parameter keeps the caller's value.
	if fn := code.EnclosingFunc(l.cur); fn.Valid() && code.FuncBody(fn.Node()) == outer.Parent().Node() {
		if sig := code.FuncSignature(s.c.info, fn.Node()); sig != nil && isParam(sig, v) && code.IsExactly(v.Type(), "time", "Duration") {
			return term{coef: constant.MakeInt64(1), base: ast.NewIdent(v.Name())}, true
		}
	}
	return term{}, false
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

// attempt plays the i-th failed attempt: the statements before the select,
// the default, those after the select when the default falls through to
// them, and the loop's post statement.
func (s *simulation) attempt(l loop, a attempt, i int64) bool {
	if rs, ok := l.stmt.(*ast.RangeStmt); ok && rs.Key != nil {
		if obj := s.c.info.Defs[rs.Key.(*ast.Ident)]; obj != nil {
			s.env[obj] = term{coef: constant.MakeInt64(i)}
		}
	}
	var stmts []ast.Stmt // a fresh slice: the lists are the syntax tree's
	stmts = append(stmts, withoutLast(a.beforeStmts, a.before)...)
	stmts = append(stmts, withoutLast(a.dfltStmts, a.dflt)...)
	if a.dflt.End == sendselect.Falls {
		stmts = append(stmts, withoutLast(a.afterStmts, a.after)...)
	}
	if fs, ok := l.stmt.(*ast.ForStmt); ok && fs.Post != nil {
		stmts = append(stmts, fs.Post)
	}
	for _, st := range stmts {
		if !s.exec(st) {
			return false
		}
	}
	return !s.unknown
}

// withoutLast returns stmts, summarised by p, without their final control
// statement.
func withoutLast(stmts []ast.Stmt, p sendselect.Path) []ast.Stmt {
	if n := len(stmts); n > 0 && p.Last != nil && stmts[n-1] == p.Last {
		return stmts[:n-1]
	}
	return stmts
}

// exec plays one statement of an idle path. It returns false on a wait it
// cannot measure.
func (s *simulation) exec(st ast.Stmt) bool {
	info := s.c.info
	switch st := st.(type) {
	case *ast.ExprStmt:
		if d, ok := timedWait(info, st); ok {
			t, known := s.eval(d)
			if !known {
				s.unknown = true
			}
			s.sleeps = append(s.sleeps, t)
			return known
		}
		if sendselect.IsCount(info, st) || sendselect.IsLog(info, st) || sendselect.IsSpin(info, st) {
			return true
		}
		return false // a wait of unknown length
	case *ast.IncDecStmt:
		one := &ast.BasicLit{Kind: token.INT, Value: "1"}
		op := token.ADD
		if st.Tok == token.DEC {
			op = token.SUB
		}
		s.assign(st.X, func() (term, bool) { return s.binary(op, st.X, one, info.TypeOf(st.X)) })
		return true
	case *ast.AssignStmt:
		if len(st.Lhs) != len(st.Rhs) {
			for _, lhs := range st.Lhs {
				s.forget(lhs)
			}
			return true
		}
		values := make([]func() (term, bool), len(st.Lhs))
		for i := range st.Lhs {
			lhs, rhs := st.Lhs[i], st.Rhs[i]
			switch st.Tok {
			case token.ASSIGN, token.DEFINE:
				t, ok := s.eval(rhs)
				values[i] = func() (term, bool) { return t, ok }
			default:
				t, ok := s.binary(compoundOps[st.Tok], lhs, rhs, info.TypeOf(lhs))
				values[i] = func() (term, bool) { return t, ok }
			}
		}
		for i, lhs := range st.Lhs {
			s.assign(lhs, values[i])
		}
		return true
	case *ast.IfStmt:
		if st.Init != nil {
			return false
		}
		cond, ok := s.eval(st.Cond)
		if !ok || cond.base != nil || cond.coef.Kind() != constant.Bool {
			// Either branch may run: what they assign is unknown.
			for obj := range code.AssignedIn(info, st, nil) {
				delete(s.env, obj)
			}
			return !containsWait(info, st)
		}
		if constant.BoolVal(cond.coef) {
			return s.execAll(st.Body.List)
		}
		switch e := st.Else.(type) {
		case nil:
			return true
		case *ast.BlockStmt:
			return s.execAll(e.List)
		default:
			return s.exec(e)
		}
	case *ast.DeclStmt:
		gen, ok := st.Decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.VAR {
			return true
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				obj := info.Defs[name]
				if i < len(vs.Values) && len(vs.Values) == len(vs.Names) {
					if t, ok := s.eval(vs.Values[i]); ok {
						s.env[obj] = t
						continue
					}
				}
				delete(s.env, obj)
			}
		}
		return true
	case *ast.EmptyStmt, *ast.BranchStmt:
		return true
	case *ast.SelectStmt:
		return false
	}
	return false
}

func (s *simulation) execAll(stmts []ast.Stmt) bool {
	for _, st := range stmts {
		if !s.exec(st) {
			return false
		}
	}
	return true
}

// assign sets the variable lhs to what value gives, or forgets it.
func (s *simulation) assign(lhs ast.Expr, value func() (term, bool)) {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return
	}
	obj := s.c.info.ObjectOf(id)
	if obj == nil {
		return
	}
	if t, ok := value(); ok {
		s.env[obj] = t
	} else {
		delete(s.env, obj)
	}
}

func (s *simulation) forget(lhs ast.Expr) {
	if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
		delete(s.env, s.c.info.ObjectOf(id))
	}
}

// timedWait returns the duration of a statement that only waits for one:
// time.Sleep(d), <-time.After(d).
func timedWait(info *types.Info, st *ast.ExprStmt) (ast.Expr, bool) {
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

// compoundOps maps an assignment operator to its binary operator.
var compoundOps = map[token.Token]token.Token{
	token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB, token.MUL_ASSIGN: token.MUL,
	token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM,
	token.SHL_ASSIGN: token.SHL, token.SHR_ASSIGN: token.SHR,
}

// selectsField reports whether e reads a struct field.
func (c *retryChecker) selectsField(e ast.Expr) bool {
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

// eval returns what e is, as a term: a constant, an invariant duration, or
// a combination the loop's known values make one.
func (s *simulation) eval(e ast.Expr) (term, bool) {
	info := s.c.info
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return term{coef: tv.Value}, true
	}
	e = ast.Unparen(e)
	if lit, ok := e.(*ast.BasicLit); ok {
		v := constant.MakeFromLiteral(lit.Value, lit.Kind, 0)
		return term{coef: v}, v.Kind() != constant.Unknown
	}
	if !s.c.mentionsAny(e, s.changed) {
		// Invariant in the loop: a duration is a base of its own.
		if sendselect.CallFree(info, e) && code.IsExactly(info.TypeOf(e), "time", "Duration") {
			return term{coef: constant.MakeInt64(1), base: e}, true
		}
		return term{}, false
	}
	switch e := e.(type) {
	case *ast.Ident:
		t, ok := s.env[info.Uses[e]]
		return t, ok
	case *ast.BinaryExpr:
		return s.binary(e.Op, e.X, e.Y, info.TypeOf(e))
	case *ast.UnaryExpr:
		x, ok := s.eval(e.X)
		if !ok || x.base != nil {
			return term{}, false
		}
		switch {
		case (e.Op == token.SUB || e.Op == token.ADD) && numeric(x.coef), e.Op == token.NOT && x.coef.Kind() == constant.Bool:
			return term{coef: constant.UnaryOp(e.Op, x.coef, 0)}, true
		}
		return term{}, false
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			x, ok := s.eval(e.Args[0])
			if !ok {
				return term{}, false
			}
			if x.base != nil {
				return x, code.IsExactly(tv.Type, "time", "Duration")
			}
			return convert(x.coef, tv.Type)
		}
		switch code.BuiltinName(info, e) {
		case "min", "max":
			return s.minMax(code.BuiltinName(info, e) == "min", e.Args)
		}
	}
	return term{}, false
}

// binary combines x op y, where the result has type t.
func (s *simulation) binary(op token.Token, xe, ye ast.Expr, t types.Type) (term, bool) {
	x, ok1 := s.eval(xe)
	y, ok2 := s.eval(ye)
	if !ok1 || !ok2 || t == nil {
		return term{}, false
	}
	integer := false
	if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
		integer = true
	}
	if x.base == nil && y.base == nil {
		return constOp(op, x.coef, y.coef, integer)
	}
	switch op {
	case token.ADD, token.SUB:
		if x.sameBase(y) {
			v, ok := constOp(op, x.coef, y.coef, integer)
			return term{coef: v.coef, base: x.base}, ok
		}
	case token.MUL:
		switch {
		case x.base == nil:
			v, ok := constOp(op, x.coef, y.coef, integer)
			return term{coef: v.coef, base: y.base}, ok
		case y.base == nil:
			v, ok := constOp(op, x.coef, y.coef, integer)
			return term{coef: v.coef, base: x.base}, ok
		}
	case token.SHL:
		if y.base == nil {
			v, ok := constOp(op, x.coef, y.coef, integer)
			return term{coef: v.coef, base: x.base}, ok
		}
	}
	return term{}, false
}

// constOp computes x op y on constants, with integer division where the
// expression is an integer.
func constOp(op token.Token, x, y constant.Value, integer bool) (term, bool) {
	if op == token.LAND || op == token.LOR {
		if x.Kind() != constant.Bool || y.Kind() != constant.Bool {
			return term{}, false
		}
		return term{coef: constant.BinaryOp(x, op, y)}, true
	}
	if !numeric(x) || !numeric(y) {
		return term{}, false
	}
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return term{coef: constant.MakeBool(constant.Compare(x, op, y))}, true
	case token.SHL, token.SHR:
		n, ok := constant.Uint64Val(constant.ToInt(y))
		if !ok || n > 62 || constant.ToInt(x).Kind() != constant.Int {
			return term{}, false
		}
		return term{coef: constant.Shift(constant.ToInt(x), op, uint(n))}, true
	case token.QUO:
		if constant.Sign(y) == 0 {
			return term{}, false
		}
		if integer {
			x, y = constant.ToInt(x), constant.ToInt(y)
			if x.Kind() != constant.Int || y.Kind() != constant.Int {
				return term{}, false
			}
			op = token.QUO_ASSIGN // integer division, as go/constant spells it
		}
	case token.REM:
		x, y = constant.ToInt(x), constant.ToInt(y)
		if !integer || x.Kind() != constant.Int || y.Kind() != constant.Int || constant.Sign(y) == 0 {
			return term{}, false
		}
	case token.ADD, token.SUB, token.MUL:
	default:
		return term{}, false
	}
	v := constant.BinaryOp(x, op, y)
	if integer {
		var ok bool
		if v, ok = truncate(v); !ok {
			return term{}, false
		}
	}
	return term{coef: v}, v.Kind() != constant.Unknown
}

// numeric reports whether v is a known integer or real number.
func numeric(v constant.Value) bool {
	return v != nil && (v.Kind() == constant.Int || v.Kind() == constant.Float)
}

// convert converts a constant to type t: an integer type truncates.
func convert(v constant.Value, t types.Type) (term, bool) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return term{}, false
	}
	switch {
	case b.Info()&types.IsInteger != 0:
		v, ok := truncate(v)
		return term{coef: v}, ok
	case b.Info()&types.IsFloat != 0:
		v = constant.ToFloat(v)
		return term{coef: v}, v.Kind() == constant.Float
	}
	return term{}, false
}

// truncate returns the integer part of a numeric constant that fits in an
// int64, as a conversion to an integer type would.
func truncate(v constant.Value) (constant.Value, bool) {
	if !numeric(v) {
		return nil, false
	}
	if i := constant.ToInt(v); i.Kind() == constant.Int {
		_, exact := constant.Int64Val(i)
		return i, exact
	}
	f, ok := constant.Float64Val(constant.ToFloat(v))
	if !ok && (math.IsInf(f, 0) || math.Abs(f) > math.MaxInt64) {
		return nil, false
	}
	if math.Abs(f) >= math.MaxInt64 {
		return nil, false
	}
	return constant.MakeInt64(int64(f)), true
}

// minMax evaluates min or max of constants.
func (s *simulation) minMax(isMin bool, args []ast.Expr) (term, bool) {
	var best constant.Value
	for _, a := range args {
		t, ok := s.eval(a)
		if !ok || t.base != nil || !numeric(t.coef) {
			return term{}, false
		}
		if best == nil || constant.Compare(t.coef, token.LSS, best) == isMin && constant.Compare(t.coef, token.NEQ, best) {
			best = t.coef
		}
	}
	return term{coef: best}, best != nil
}

// varies reports whether the sleeps seen so far differ.
func (s *simulation) varies() bool {
	for _, t := range s.sleeps[min(1, len(s.sleeps)):] {
		if !numeric(t.coef) || !numeric(s.sleeps[0].coef) || !t.sameBase(s.sleeps[0]) || constant.Compare(t.coef, token.NEQ, s.sleeps[0].coef) {
			return true
		}
	}
	return s.unknown
}

// budget adds up the sleeps: a constant, or a whole multiple of one base.
func (s *simulation) budget(timePkg string) budget {
	b := budget{varies: s.varies()}
	if len(s.sleeps) == 0 {
		return budget{}
	}
	total := constant.MakeInt64(0)
	base := s.sleeps[0]
	for _, t := range s.sleeps {
		if !t.sameBase(base) {
			return budget{varies: true}
		}
		if !numeric(t.coef) || t.base != nil && constant.ToInt(t.coef).Kind() != constant.Int {
			return budget{varies: true} // 1.5 × base: no whole multiple
		}
		total = constant.BinaryOp(total, token.ADD, t.coef)
	}
	total, ok := truncate(total)
	if !ok {
		return budget{varies: b.varies}
	}
	n, ok := constant.Int64Val(total)
	if !ok || n <= 0 {
		return budget{varies: b.varies}
	}
	b.known = true
	if base.base == nil {
		b.constant, b.total = true, time.Duration(n)
		b.min, b.max = time.Duration(math.MaxInt64), 0
		for _, t := range s.sleeps {
			d, _ := constant.Int64Val(constant.ToInt(t.coef))
			b.min, b.max = min(b.min, time.Duration(d)), max(b.max, time.Duration(d))
		}
		b.expr = durationText(n, timePkg)
		return b
	}
	// A multiple of an invariant duration, spelled as the loop spelled it.
	src := s.c.baseSource(base.base)
	b.expr = src
	if n != 1 {
		if _, isBinary := base.base.(*ast.BinaryExpr); isBinary {
			src = "(" + src + ")"
		}
		b.expr = fmt.Sprintf("%d * %s", n, src)
	}
	if base.base.Pos().IsValid() {
		b.kept = []span{spanOf(base.base)}
	}
	b.uses = s.c.objectsIn(base.base)
	return b
}

// baseSource spells a base: its source, or the name of the parameter it
// stands for.
func (c *retryChecker) baseSource(e ast.Expr) string {
	if !e.Pos().IsValid() {
		return types.ExprString(e)
	}
	return edits.Source(c.pass, e)
}

// mentionsAny reports whether e refers to one of vars.
func (c *retryChecker) mentionsAny(e ast.Expr, vars map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && vars[c.info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}
