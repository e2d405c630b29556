package admission

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// sendHelper returns what fn is when its body is one send of a parameter on
// a channel that outlives the call (a field or a package variable).
func sendHelper(info *types.Info, fn *types.Func, list []ast.Stmt) *SendHelper {
	if len(list) != 1 {
		return nil
	}
	s, ok := list[0].(*ast.SendStmt)
	if !ok {
		return nil
	}
	i := paramOf(info, fn, s.Value)
	ch := code.Var(info, s.Chan)
	if i < 0 || ch == nil {
		return nil
	}
	h := &SendHelper{Param: i, Chan: types.ExprString(s.Chan)}
	switch recv := fn.Signature().Recv(); {
	case ch.IsField() && recv != nil && onReceiver(info, s, recv):
		h.Field = ch.Name()
	case !ch.IsField() && ch.Pkg() == fn.Pkg() && ch.Parent() == ch.Pkg().Scope():
		h.Global = ch.Name()
	default:
		return nil // a channel the caller handed in, or a field of something else
	}
	return h
}

// SendChan returns the channel variable a call of fn, a send helper h,
// sends on: the field of the call's receiver, or the package variable.
func (r *Result) SendChan(call *ast.CallExpr, fn *types.Func, h *SendHelper) *types.Var {
	switch {
	case h.Field != "":
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return fieldOf(r.info, sel.X, h.Field)
		}
	case h.Global != "" && fn.Pkg() != nil:
		v, _ := fn.Pkg().Scope().Lookup(h.Global).(*types.Var)
		return v
	}
	return nil
}

// paramOf returns the index of the parameter of fn that e names, or -1.
func paramOf(info *types.Info, fn *types.Func, e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return -1
	}
	params := fn.Signature().Params()
	for i := range params.Len() {
		if info.Uses[id] == params.At(i) {
			return i
		}
	}
	return -1
}

// trySendHelper returns what fn is when it only tries a non-blocking send of
// a parameter on a field or package channel and returns whether it
// succeeded: a select whose send case returns true (or nil) and whose
// default returns false (or an error), or falls through to such a return,
// perhaps after counting or logging the miss.
func (r *Result) trySendHelper(fn *types.Func, body inspector.Cursor) *TrySendHelper {
	kind := outcomeOf(fn)
	if kind == noOutcome {
		return nil
	}
	list := body.Node().(*ast.BlockStmt).List
	if len(list) == 0 || len(list) > 2 {
		return nil
	}
	sel, ok := list[0].(*ast.SelectStmt)
	if !ok {
		return nil
	}
	nb, ok := sendselect.Match(sel)
	if !ok || len(nb.Case.Body) != 1 || !r.returnsOutcome(kind, nb.Case.Body[0], true) {
		return nil
	}
	// The default may count or log the miss before it says so.
	dflt := sendselect.Case(r.info, nb.Default.Body, nil, nil)
	if !dflt.Idle || len(dflt.Waits) > 0 {
		return nil
	}
	switch {
	case len(list) == 1 && dflt.Last != nil && r.returnsOutcome(kind, dflt.Last, false):
	case len(list) == 2 && dflt.Last == nil && r.returnsOutcome(kind, list[1], false):
	default:
		return nil
	}
	i := paramOf(r.info, fn, nb.Send.Value)
	ch := code.Var(r.info, nb.Send.Chan)
	if i < 0 || ch == nil {
		return nil
	}
	h := &TrySendHelper{Param: i, Chan: types.ExprString(nb.Send.Chan), Err: kind == errOutcome}
	if recv := fn.Signature().Recv(); recv != nil {
		if ch.IsField() && onReceiver(r.info, nb.Send, recv) {
			h.Field = ch.Name()
		}
		h.Blocking = r.blockingSibling(fn, ch)
	}
	return h
}

// An outcome is how a try reports whether the item went in.
type outcome int

const (
	noOutcome   outcome = iota
	boolOutcome         // true: in
	errOutcome          // nil: in; an error: not
)

// outcomeOf returns how fn reports its outcome: a single bool or error
// result.
func outcomeOf(fn *types.Func) outcome {
	res := fn.Signature().Results()
	if res.Len() != 1 {
		return noOutcome
	}
	switch t := res.At(0).Type(); {
	case types.Identical(t, types.Typ[types.Bool]):
		return boolOutcome
	case types.Identical(t, types.Universe.Lookup("error").Type()):
		return errOutcome
	}
	return noOutcome
}

// returnsOutcome reports whether s returns the outcome in (true, nil) or,
// for in false, not in (false, an error).
func (r *Result) returnsOutcome(kind outcome, s ast.Stmt, in bool) bool {
	ret, ok := s.(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	got, known := r.outcomeValue(kind, ret.Results[0])
	return known && got == in
}

// outcomeValue tells what e, returned, says: in or not, when it can be told
// without running anything. An error is a package's sentinel, a value
// errors.New or fmt.Errorf builds from call-free arguments, or a local
// variable (whose branch decides what it holds).
func (r *Result) outcomeValue(kind outcome, e ast.Expr) (in, known bool) {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		switch r.info.Uses[id] {
		case types.Universe.Lookup("true"):
			return true, kind == boolOutcome
		case types.Universe.Lookup("false"):
			return false, kind == boolOutcome
		case types.Universe.Lookup("nil"):
			return true, kind == errOutcome
		}
	}
	if kind != errOutcome {
		return false, false
	}
	switch e.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		return false, code.Var(r.info, e) != nil
	case *ast.CallExpr:
		return false, IsCheap(r.info, e)
	}
	return false, false
}

// tryEnqueuer returns what fn is when it reports whether it took an item
// in, and says no only because a channel was full: every return is true,
// false in the default of a non-blocking send of data (the channel is full),
// false right after a try-send helper said no, the result of such a helper,
// or false in a receive case (a stop signal, which only ends the retries).
// It must say no for a full channel somewhere, and block on no channel
// itself: then a caller that loops on it is polling the channel.
func (r *Result) tryEnqueuer(fn *types.Func, body inspector.Cursor) *TrySendHelper {
	kind := outcomeOf(fn)
	if kind == noOutcome {
		return nil
	}
	var h *TrySendHelper
	ok := true
	body.Inspect(nil, func(cur inspector.Cursor) bool {
		if !ok {
			return false
		}
		switch n := cur.Node().(type) {
		case *ast.FuncLit:
			return false
		case *ast.SendStmt:
			if cc, isCase := cur.Parent().Node().(*ast.CommClause); !isCase || cc.Comm != n || !hasDefault(cur.Parent().Parent().Parent()) {
				ok = false // a blocking send: the function waits for room itself
			}
		case *ast.SelectStmt:
			if !hasDefault(cur) {
				ok = false
			}
		case *ast.ReturnStmt:
			full, allowed := r.tryReturn(fn, kind, cur)
			switch {
			case !allowed:
				ok = false
			case full != nil && h == nil:
				h = full
			}
		}
		return ok
	})
	if !ok || h == nil {
		return nil
	}
	h.Err = kind == errOutcome
	return h
}

// tryReturn classifies a return of a would-be tryEnqueuer: whether it is
// allowed, and, when it says no because a channel is full, the send it
// stands for.
func (r *Result) tryReturn(fn *types.Func, kind outcome, ret inspector.Cursor) (full *TrySendHelper, allowed bool) {
	rs := ret.Node().(*ast.ReturnStmt)
	if len(rs.Results) != 1 {
		return nil, false
	}
	if call, ok := ast.Unparen(rs.Results[0]).(*ast.CallExpr); ok {
		if h := r.tryCall(fn, call); h != nil {
			return h, outcomeOf(code.Callee(r.info, call)) == kind // return q.TryPush(v)
		}
	}
	in, known := r.outcomeValue(kind, rs.Results[0])
	switch {
	case !known:
		return nil, false
	case in:
		return nil, true
	}
	// Not in: in whose branch?
	switch p := ret.Parent().Node().(type) {
	case *ast.CommClause:
		switch p.Comm.(type) {
		case nil:
			sel := ret.Parent().Parent().Parent().Node().(*ast.SelectStmt)
			nb, isSend := sendselect.Match(sel)
			if !isSend || sendselect.Coalesces(r.info, nb.Send) {
				return nil, false
			}
			h := &TrySendHelper{Param: -1, Chan: types.ExprString(nb.Send.Chan)}
			if recv := fn.Signature().Recv(); recv != nil {
				if v := code.Var(r.info, nb.Send.Chan); v != nil && v.IsField() && onReceiver(r.info, nb.Send, recv) {
					h.Field = v.Name()
				}
			}
			return h, true
		case *ast.ExprStmt:
			return nil, true // case <-stop: a stop signal
		default:
			return nil, false // a no after a send went through
		}
	case *ast.BlockStmt:
		ifs, isIf := ret.Parent().Parent().Node().(*ast.IfStmt)
		if !isIf || ifs.Body != p {
			return nil, false
		}
		if call := r.failedTry(ret, ifs); call != nil {
			h := r.tryCall(fn, call)
			return h, h != nil
		}
	}
	return nil, false
}

// failedTry returns the call of a try whose no the if statement's
// condition tests: !q.TryPush(v), !ok after ok := q.TryPush(v), err != nil
// after err := q.TryPush(v) (in the if's init or declared once before), or
// q.TryPush(v) != nil.
func (r *Result) failedTry(at inspector.Cursor, ifs *ast.IfStmt) *ast.CallExpr {
	var x ast.Expr // what is tested
	wantErr := false
	switch cond := ast.Unparen(ifs.Cond).(type) {
	case *ast.UnaryExpr:
		if cond.Op != token.NOT {
			return nil
		}
		x = cond.X
	case *ast.BinaryExpr:
		if cond.Op != token.NEQ || !code.IsNil(r.info, cond.Y) {
			return nil
		}
		x, wantErr = cond.X, true
	default:
		return nil
	}
	var call *ast.CallExpr
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		call = x
	case *ast.Ident:
		if as, ok := ifs.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && len(as.Lhs) == 1 && len(as.Rhs) == 1 && code.Var(r.info, as.Lhs[0]) == r.info.Uses[x] {
			call, _ = ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		} else {
			call = r.assignedOnce(at, x)
		}
	}
	if call == nil {
		return nil
	}
	callee := code.Callee(r.info, call)
	if callee == nil || (outcomeOf(callee) == errOutcome) != wantErr {
		return nil
	}
	return call
}

// tryCall returns the try-send a call of another function stands for in
// fn, or nil when the callee is not one.
func (r *Result) tryCall(fn *types.Func, call *ast.CallExpr) *TrySendHelper {
	callee := code.Callee(r.info, call)
	if callee == nil || callee == fn.Origin() {
		return nil
	}
	ff := r.Helper(callee)
	if ff == nil || ff.TrySend == nil {
		return nil
	}
	// The channel is the callee's: name it by the callee's type, as fn's
	// callers cannot see the callee's receiver.
	ch := ff.TrySend.Chan
	if ff.TrySend.Field != "" {
		if n := code.NamedOf(callee.Signature().Recv().Type()); n != nil {
			ch = n.Obj().Name() + "." + ff.TrySend.Field
		}
	}
	return &TrySendHelper{Param: -1, Chan: ch}
}

// assignedOnce returns the call id was declared from, when id is a local
// declared as id := call in the function holding at and never assigned
// again.
func (r *Result) assignedOnce(at inspector.Cursor, id *ast.Ident) *ast.CallExpr {
	v, ok := r.info.Uses[id].(*types.Var)
	if !ok || !code.IsLocal(v) {
		return nil
	}
	var call *ast.CallExpr
	n := 0
	for cur := range at.Enclosing((*ast.FuncDecl)(nil)) {
		for as := range cur.Preorder((*ast.AssignStmt)(nil)) {
			a := as.Node().(*ast.AssignStmt)
			for i, lhs := range a.Lhs {
				if code.Var(r.info, lhs) != v {
					continue
				}
				n++
				if a.Tok == token.DEFINE && len(a.Lhs) == 1 && len(a.Rhs) == 1 && i == 0 {
					call, _ = ast.Unparen(a.Rhs[0]).(*ast.CallExpr)
				}
			}
		}
		break
	}
	if n != 1 {
		return nil
	}
	return call
}

// hasDefault reports whether the node at sel is a select with a default.
func hasDefault(sel inspector.Cursor) bool {
	s, ok := sel.Node().(*ast.SelectStmt)
	return ok && code.HasDefault(s)
}

// blockingSibling returns the name of an exported method of fn's receiver
// type whose body is only the blocking send of a parameter on ch (q.Push
// beside q.TryPush), or "".
func (r *Result) blockingSibling(fn *types.Func, ch *types.Var) string {
	n := code.NamedOf(fn.Signature().Recv().Type())
	if n == nil {
		return ""
	}
	for m := range n.Origin().Methods() {
		d := r.productionDecl(m)
		if m == fn.Origin() || d == nil || d.Body == nil || m.Signature().Params().Len() != 1 || m.Signature().Results().Len() != 0 {
			continue
		}
		if len(d.Body.List) == 1 {
			if s, ok := d.Body.List[0].(*ast.SendStmt); ok && code.Var(r.info, s.Chan) == ch && paramOf(r.info, m, s.Value) == 0 {
				return m.Name()
			}
		}
	}
	return ""
}
