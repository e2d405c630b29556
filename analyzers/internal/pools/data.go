package pools

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// Data describes workers that decide what to do from the values they
// receive rather than run a function sent to them: a switch on a field of
// the value or on its type, each branch a kind of job, or a loop body that
// calls interface methods, whose implementations decide what runs.
type Data struct {
	// Common is the code that runs for every value besides its branch: the
	// worker's loop body without the statement holding the switch, and, when
	// the switch sits in a function the value is handed to, that function's
	// body without it.
	Common []ast.Node
	// Switch is the dispatching switch statement (an *ast.SwitchStmt or an
	// *ast.TypeSwitchStmt), or nil.
	Switch   ast.Stmt
	Branches []*Branch

	// field is the field the switch tests (job.Kind), "" for a switch on the
	// value itself; typeSwitch tells the two kinds of switch apart.
	field      string
	typeSwitch bool
}

// A Branch is one case of a dispatching switch.
type Branch struct {
	Clause *ast.CaseClause
	// Body is the code of the case: its statements.
	Body []ast.Node
}

// dataDispatch returns how the worker loop body, which received v and calls
// nothing of it, dispatches on it: a switch on v.F or on the type of v or v.F
// in a function of the package that v is handed to. Without such a switch, a
// body that calls an interface method is data work as a whole; otherwise nil.
func (f *finder) dataDispatch(body *ast.BlockStmt, v *types.Var) *Data {
	// The value handed to a function that switches on it: w.handle(job).
	var d *Data
	inspectCalls(body, func(call *ast.CallExpr, top ast.Stmt) bool {
		fn := code.Callee(f.info, call)
		if fn == nil || fn.Pkg() != f.pass.Pkg {
			return true
		}
		for i, arg := range call.Args {
			if id, ok := ast.Unparen(arg).(*ast.Ident); !ok || f.info.Uses[id] != v {
				continue
			}
			decl, ok := f.adm.FuncDecl(fn)
			if !ok || i >= fn.Signature().Params().Len() {
				continue
			}
			if inner := f.switchOn(code.FuncBody(decl.Node()), fn.Signature().Params().At(i)); inner != nil {
				inner.Common = append(without(body.List, top), inner.Common...)
				d = inner
				return false
			}
		}
		return true
	})
	if d != nil {
		return d
	}
	if f.callsInterface(body) {
		return &Data{Common: []ast.Node{body}}
	}
	return nil
}

// switchOn finds, in body, a switch on v.F, v.(type) or v.F.(type) with at
// least one case, and returns its dispatch.
func (f *finder) switchOn(body *ast.BlockStmt, v *types.Var) *Data {
	var d *Data
	var top ast.Stmt
	ast.Inspect(body, func(n ast.Node) bool {
		if d != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			return false
		case *ast.SwitchStmt:
			if field, ok := f.fieldOf(n.Tag, v); ok && field != "" && n.Init == nil {
				d = &Data{Switch: n, field: field}
			}
		case *ast.TypeSwitchStmt:
			var x ast.Expr
			switch a := n.Assign.(type) {
			case *ast.AssignStmt:
				if len(a.Rhs) == 1 {
					x = a.Rhs[0]
				}
			case *ast.ExprStmt:
				x = a.X
			}
			if ta, ok := x.(*ast.TypeAssertExpr); ok && n.Init == nil {
				if field, ok := f.fieldOf(ta.X, v); ok {
					d = &Data{Switch: n, field: field, typeSwitch: true}
				}
			}
		}
		return d == nil
	})
	if d == nil {
		return nil
	}
	for _, st := range body.List {
		if code.Inside(d.Switch.Pos(), st) {
			top = st
			break
		}
	}
	d.Common = without(body.List, top)
	var clauses []ast.Stmt
	switch sw := d.Switch.(type) {
	case *ast.SwitchStmt:
		clauses = sw.Body.List
	case *ast.TypeSwitchStmt:
		clauses = sw.Body.List
	}
	for _, c := range clauses {
		cc := c.(*ast.CaseClause)
		d.Branches = append(d.Branches, &Branch{Clause: cc, Body: without(cc.Body, nil)})
	}
	return d
}

// fieldOf reports whether e is v itself ("") or a field of v (v.F, through a
// pointer too), and which.
func (f *finder) fieldOf(e ast.Expr, v *types.Var) (string, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return "", f.info.Uses[e] == v
	case *ast.SelectorExpr:
		id, ok := ast.Unparen(e.X).(*ast.Ident)
		if !ok || f.info.Uses[id] != v {
			return "", false
		}
		if sel, ok := f.info.Selections[e]; ok && sel.Kind() == types.FieldVal && len(sel.Index()) == 1 {
			return e.Sel.Name, true
		}
	}
	return "", false
}

// callsInterface reports whether body calls a method of an interface, outside
// the goroutines and function literals it starts.
func (f *finder) callsInterface(body *ast.BlockStmt) bool {
	outside := func(n ast.Node) bool { return code.IsFuncLit(n) || code.IsGoStmt(n) }
	return code.AnyCall(body, outside, func(call *ast.CallExpr) bool {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		s, ok := f.info.Selections[sel]
		return ok && s.Kind() == types.MethodVal && isInterface(s.Recv())
	})
}

// inspectCalls calls visit for each call in body, outside function literals
// and go statements, with the statement of body's list that holds it, until
// visit returns false.
func inspectCalls(body *ast.BlockStmt, visit func(call *ast.CallExpr, top ast.Stmt) bool) {
	for _, st := range body.List {
		more := true
		ast.Inspect(st, func(n ast.Node) bool {
			if !more {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit, *ast.GoStmt:
				return false
			case *ast.CallExpr:
				more = visit(n, st)
			}
			return more
		})
		if !more {
			return
		}
	}
}

// without returns the statements of list other than skip, as nodes.
func without(list []ast.Stmt, skip ast.Stmt) []ast.Node {
	var out []ast.Node
	for _, st := range list {
		if st != skip {
			out = append(out, st)
		}
	}
	return out
}

// branchOf returns the branch of d that the value sent selects, or nil when
// the send does not tell: the type of a value that is not an interface, or
// the constant a composite literal gives the field switched on (its zero
// value when the literal leaves it out).
func (f *finder) branchOf(d *Data, value ast.Expr) *Branch {
	if d.Switch == nil {
		return nil
	}
	if d.typeSwitch {
		t := f.info.TypeOf(value)
		if d.field != "" {
			e, _, ok := f.litField(value, d.field)
			if !ok || e == nil {
				return nil
			}
			t = f.info.TypeOf(e)
		}
		if t == nil || isInterface(t) {
			return nil
		}
		return d.caseOf(func(e ast.Expr) (bool, bool) {
			ct := f.info.TypeOf(e)
			if ct == nil {
				return false, true // case nil
			}
			return types.Identical(ct, t) || (types.IsInterface(ct) && types.Implements(t, ct.Underlying().(*types.Interface))), true
		})
	}
	e, ft, ok := f.litField(value, d.field)
	if !ok {
		return nil
	}
	val := zeroOf(ft)
	if e != nil {
		val = f.info.Types[e].Value
	}
	if val == nil {
		return nil
	}
	return d.caseOf(func(e ast.Expr) (bool, bool) {
		cv := f.info.Types[e].Value
		if cv == nil {
			return false, false // a case that is not a constant: the match is not known
		}
		return cv.Kind() == val.Kind() && constant.Compare(cv, token.EQL, val), true
	})
}

// caseOf returns the branch of the first case expression that match
// accepts, the default when none does, or nil when match cannot tell for a
// case it meets first.
func (d *Data) caseOf(match func(e ast.Expr) (ok, known bool)) *Branch {
	var def *Branch
	for _, b := range d.Branches {
		if b.Clause.List == nil {
			def = b
		}
		for _, e := range b.Clause.List {
			ok, known := match(e)
			if !known {
				return nil
			}
			if ok {
				return b
			}
		}
	}
	return def
}

// litField returns the expression a composite literal (or &literal) of a
// struct gives to field (nil when the literal leaves the field out) and the
// field's type; false when value is no such literal.
func (f *finder) litField(value ast.Expr, field string) (ast.Expr, types.Type, bool) {
	lit := compositeLit(value)
	if lit == nil {
		return nil, nil, false
	}
	t := f.info.TypeOf(lit)
	if t == nil {
		return nil, nil, false // a type error
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil, nil, false
	}
	var ft types.Type
	for i := range st.NumFields() {
		if st.Field(i).Name() == field {
			ft = st.Field(i).Type()
		}
	}
	for i, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if key, ok := kv.Key.(*ast.Ident); ok && key.Name == field {
				return kv.Value, ft, true
			}
			continue
		}
		if i < st.NumFields() && st.Field(i).Name() == field {
			return elt, ft, true // a positional literal
		}
	}
	return nil, ft, true
}

func compositeLit(e ast.Expr) *ast.CompositeLit {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

// zeroOf returns the zero value of a basic type as a constant, or nil.
func zeroOf(t types.Type) constant.Value {
	if t == nil {
		return nil
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return nil
	}
	switch {
	case b.Info()&types.IsInteger != 0:
		return constant.MakeInt64(0)
	case b.Info()&types.IsString != 0:
		return constant.MakeString("")
	case b.Info()&types.IsBoolean != 0:
		return constant.MakeBool(false)
	}
	return nil
}
