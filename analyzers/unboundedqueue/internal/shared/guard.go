package shared

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
)

// AlwaysHolds reports whether the if statement at cur always runs its body:
// its condition says a parameter of the function is positive (n > 0,
// n >= 1, n != 0), the function never changes the parameter, and every
// call of the function passes a value its caller made positive (a positive
// constant, or a variable the caller normalised with if n < 1 { n =
// runtime.NumCPU() * 2 }). "concurrency 0 means no limit" guards an
// acquire that, with such callers, always runs (machinery's consume).
func (c *Pkg) AlwaysHolds(cur inspector.Cursor) bool {
	ifs, ok := cur.Node().(*ast.IfStmt)
	if !ok || ifs.Init != nil {
		return false
	}
	v := positiveOperand(c.Pass.TypesInfo, ifs.Cond)
	if v == nil {
		return false
	}
	decl, ok := code.EnclosingDecl(cur)
	if !ok {
		return false
	}
	fn, _ := c.Pass.TypesInfo.Defs[decl.Node().(*ast.FuncDecl).Name].(*types.Func)
	i := ParamIndex(fn, v)
	if i < 0 || code.ReassignedIn(c.Pass.TypesInfo, decl.Node())[v] {
		return false
	}
	return c.callersMakePositive(fn, i)
}

// positiveOperand returns the integer variable cond says is positive:
// n > 0, n >= 1, n != 0 (of an unsigned n, or of a value callers keep
// non-negative), or the mirrored forms.
func positiveOperand(info *types.Info, cond ast.Expr) *types.Var {
	x, op, k, ok := ComparedWithConst(info, cond)
	if !ok {
		return nil
	}
	switch {
	case op == token.GTR && k == 0, op == token.GEQ && k == 1, op == token.NEQ && k == 0:
	default:
		return nil
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}

// ComparedWithConst splits cond, a comparison of an expression with an
// integer constant, into the expression, the operator and the constant,
// written with the constant on the right (0 < n becomes n > 0).
func ComparedWithConst(info *types.Info, cond ast.Expr) (x ast.Expr, op token.Token, k int64, ok bool) {
	b, isBin := ast.Unparen(cond).(*ast.BinaryExpr)
	if !isBin {
		return nil, 0, 0, false
	}
	x, y, op := b.X, b.Y, b.Op
	if _, isConst := consts.Int(info, x); isConst {
		x, y, op = y, x, mirror(op)
	}
	k, ok = consts.Int(info, y)
	return x, op, k, ok
}

// mirror returns the operator that compares y with x as op compares x
// with y.
func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// ParamIndex returns the index of v among fn's parameters, or -1.
func ParamIndex(fn *types.Func, v *types.Var) int {
	if fn == nil {
		return -1
	}
	params := fn.Signature().Params()
	for i := range params.Len() {
		if params.At(i) == v {
			return i
		}
	}
	return -1
}

// callersMakePositive reports whether fn is called only here, directly,
// and every call passes a positive value as parameter i. An exported
// function, one used as a value (a callback, a method value), or a method
// an interface of the package may dispatch to has callers the check cannot
// see.
func (c *Pkg) callersMakePositive(fn *types.Func, i int) bool {
	if fn.Exported() || fn.Signature().Variadic() && i == fn.Signature().Params().Len()-1 {
		return false
	}
	sites := c.CallersOf(fn)
	if len(sites) == 0 || c.usedOtherwise(fn, len(sites)) {
		return false
	}
	for _, site := range sites {
		call := site.Node().(*ast.CallExpr)
		if i >= len(call.Args) || !c.positiveAt(site, call.Args[i]) {
			return false
		}
	}
	return true
}

// usedOtherwise reports whether fn is referred to other than as the callee
// of its calls sites, or an interface method of the same name exists in
// the package (a dynamic call may reach fn).
func (c *Pkg) usedOtherwise(fn *types.Func, calls int) bool {
	refs := 0
	for id, obj := range c.Pass.TypesInfo.Uses {
		f, ok := obj.(*types.Func)
		if !ok || f.Name() != fn.Name() {
			continue
		}
		if f.Origin() == fn.Origin() {
			refs++
			continue
		}
		if recv := f.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) && id.Name == fn.Name() {
			return true
		}
	}
	return refs != calls
}

// positiveAt reports whether arg, passed by the call at site, is positive:
// a positive constant, or a variable of the calling function that a
// normalising if before the call makes positive and nothing else changes.
func (c *Pkg) positiveAt(site inspector.Cursor, arg ast.Expr) bool {
	info := c.Pass.TypesInfo
	if k, ok := consts.Int(info, arg); ok {
		return k > 0
	}
	id, ok := ast.Unparen(arg).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := info.Uses[id].(*types.Var)
	decl, ok := code.EnclosingDecl(site)
	if v == nil || !ok || v.Pos() < decl.Node().Pos() || v.Pos() >= decl.Node().End() {
		return false
	}
	body := decl.Node().(*ast.FuncDecl).Body
	var norm *ast.IfStmt
	for _, st := range body.List {
		if st.Pos() >= site.Node().Pos() {
			break
		}
		if ifs, ok := st.(*ast.IfStmt); ok && normalises(info, ifs, v) {
			norm = ifs
		}
	}
	if norm == nil {
		return false
	}
	// Nothing but the normalisation changes v after its declaration.
	for _, st := range body.List {
		if st != norm && code.ReassignedIn(info, st)[v] {
			return false
		}
	}
	return true
}

// normalises reports whether ifs is if v < 1 { v = E } (or v <= 0, 1 > v,
// 0 >= v) with a positive E, and nothing else: after it, v is positive.
func normalises(info *types.Info, ifs *ast.IfStmt, v *types.Var) bool {
	if ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) != 1 {
		return false
	}
	x, op, k, ok := ComparedWithConst(info, ifs.Cond)
	if !ok || code.Var(info, x) != v {
		return false
	}
	switch {
	case op == token.LSS && k >= 1, op == token.LEQ && k >= 0:
	default:
		return false
	}
	as, ok := ifs.Body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || code.Var(info, as.Lhs[0]) != v {
		return false
	}
	return isPositive(info, as.Rhs[0])
}

// isPositive reports whether e is known to be positive: a positive
// constant, runtime.NumCPU(), runtime.GOMAXPROCS(0), or the sum, product or
// max of such values.
func isPositive(info *types.Info, e ast.Expr) bool {
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) > 0
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		return (e.Op == token.MUL || e.Op == token.ADD) && isPositive(info, e.X) && isPositive(info, e.Y)
	case *ast.CallExpr:
		if code.BuiltinName(info, e) == "max" {
			for _, a := range e.Args {
				if isPositive(info, a) {
					return true
				}
			}
			return false
		}
		fn := code.CalleeFunc(info, e)
		switch {
		case code.IsFunc(fn, "runtime", "NumCPU"):
			return true
		case code.IsFunc(fn, "runtime", "GOMAXPROCS") && len(e.Args) == 1:
			k, ok := consts.Int(info, e.Args[0])
			return ok && k <= 0 // reads the setting, which is at least 1
		}
	}
	return false
}
