package pools

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// funcTask fills t with the function fn runs: a literal's body or a
// declared function or method value.
func (f *finder) funcTask(t *Task, fn ast.Expr) {
	switch e := ast.Unparen(fn).(type) {
	case *ast.FuncLit:
		t.Body = append(t.Body, e.Body)
	case *ast.Ident:
		if g, ok := f.info.Uses[e].(*types.Func); ok {
			t.Funcs = append(t.Funcs, g.Origin())
		}
	case *ast.SelectorExpr:
		if sel, ok := f.info.Selections[e]; ok {
			if g, ok := sel.Obj().(*types.Func); ok && sel.Kind() != types.FieldVal && !isInterface(sel.Recv()) {
				t.Funcs = append(t.Funcs, g.Origin())
			}
		} else if g, ok := f.info.Uses[e.Sel].(*types.Func); ok {
			t.Funcs = append(t.Funcs, g.Origin())
		}
	}
}

// A dispatch is how a worker runs what it receives: by calling it, calling a
// method of it, calling a func field of it, or deciding from its data.
type dispatch struct {
	kind int // 0: none; callValue, callMethod, callField, onData
	name string
	data *Data // for onData
}

const (
	callValue = iota + 1
	callMethod
	callField
	onData
)

// workerLoop records a loop that receives v from the channel ch and runs it
// in body.
func (f *finder) workerLoop(cur inspector.Cursor, ch ast.Expr, v *types.Var, body *ast.BlockStmt) {
	if v == nil || body == nil {
		return
	}
	d := f.dispatchOf(body, v)
	if d.kind == 0 {
		return
	}
	obj, _ := f.chanVar(ch)
	if obj == nil {
		return
	}
	// A loop over a parameter of a declared function is a worker of every
	// channel passed to that function by a go statement.
	if fn, idx := f.paramOf(cur, obj); fn != nil {
		if f.paramWorkers == nil {
			f.paramWorkers = make(map[*types.Func][]paramWorker)
		}
		f.paramWorkers[fn] = append(f.paramWorkers[fn], paramWorker{idx, cur, d})
		return
	}
	f.addLoop(obj, cur, d)
}

func (f *finder) addLoop(obj *types.Var, loop inspector.Cursor, d dispatch) {
	u := f.use(obj, loop.Node().Pos())
	u.loops = append(u.loops, loop)
	if u.dispatch == nil {
		u.dispatch = make(map[inspector.Cursor]dispatch)
	}
	u.dispatch[loop] = d
}

// paramOf returns the declared function whose parameter obj is, and its index.
func (f *finder) paramOf(cur inspector.Cursor, obj *types.Var) (*types.Func, int) {
	for enc := range cur.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		decl, ok := enc.Node().(*ast.FuncDecl)
		if !ok {
			return nil, -1
		}
		fn, _ := f.info.Defs[decl.Name].(*types.Func)
		if fn == nil {
			return nil, -1
		}
		params := fn.Signature().Params()
		for i := range params.Len() {
			if params.At(i) == obj {
				return fn, i
			}
		}
		return nil, -1
	}
	return nil, -1
}

// resolveParamWorkers turns go worker(ch) into worker loops over ch, started
// by that go statement.
func (f *finder) resolveParamWorkers() {
	if len(f.paramWorkers) == 0 {
		return
	}
	for _, g := range f.goCalls {
		call := g.Node().(*ast.GoStmt).Call
		fn := code.Callee(f.info, call)
		for _, pw := range f.paramWorkers[fn] {
			if pw.index >= len(call.Args) {
				continue
			}
			if obj, _ := f.chanVar(call.Args[pw.index]); obj != nil {
				f.addLoop(obj, g, pw.d)
			}
		}
	}
}

// workerStart returns the statement that starts the worker loop at loop: the
// go statement (or WaitGroup.Go or Group.Go call) running the function
// literal that holds it. A loop found through a go worker(ch) statement is
// that statement.
func workerStart(info *types.Info, loop inspector.Cursor) (inspector.Cursor, bool) {
	if _, ok := loop.Node().(*ast.GoStmt); ok {
		return loop, true
	}
	for enc := range loop.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		if _, ok := enc.Node().(*ast.FuncLit); !ok {
			return inspector.Cursor{}, false
		}
		parent := enc.Parent()
		call, ok := parent.Node().(*ast.CallExpr)
		if !ok {
			return inspector.Cursor{}, false
		}
		stmt := parent.Parent()
		switch st := stmt.Node().(type) {
		case *ast.GoStmt:
			if call.Fun == enc.Node() {
				return stmt, true
			}
		case *ast.ExprStmt:
			// wg.Go(func() { … }), g.Go(func() error { … })
			if fn := code.Callee(info, call); fn != nil && fn.Name() == "Go" && len(call.Args) == 1 && call.Args[0] == enc.Node() && st.X == call {
				return stmt, true
			}
		}
		return inspector.Cursor{}, false
	}
	return inspector.Cursor{}, false
}

// dispatchOf finds how body runs the value v it received. A switch on the
// value decides before any call of it: the calls are then the branches' work.
func (f *finder) dispatchOf(body *ast.BlockStmt, v *types.Var) dispatch {
	if data := f.switchOn(body, v); data != nil {
		return dispatch{kind: onData, data: data}
	}
	info := f.info
	var d dispatch
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || d.kind != 0 {
			return d.kind == 0
		}
		switch fun := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			if info.Uses[fun] == v {
				d = dispatch{kind: callValue}
			}
		case *ast.SelectorExpr:
			id, ok := ast.Unparen(fun.X).(*ast.Ident)
			if !ok || info.Uses[id] != v {
				break
			}
			if sel, ok := info.Selections[fun]; ok {
				switch sel.Kind() {
				case types.MethodVal:
					d = dispatch{kind: callMethod, name: fun.Sel.Name}
				case types.FieldVal:
					d = dispatch{kind: callField, name: fun.Sel.Name}
				}
			}
		}
		return true
	})
	if d.kind == 0 {
		if data := f.dataDispatch(body, v); data != nil {
			d = dispatch{kind: onData, data: data}
		}
	}
	return d
}

// dispatchTask fills t with what a worker that dispatches by d runs for the
// value sent.
func (f *finder) dispatchTask(t *Task, value ast.Expr, d dispatch) {
	switch d.kind {
	case callValue:
		f.funcTask(t, value)
	case callMethod:
		typ := f.info.TypeOf(value)
		if typ == nil {
			return
		}
		if isInterface(typ) {
			// The dynamic type is not known here: the task is one of the
			// implementations of the method.
			if m, _, _ := types.LookupFieldOrMethod(typ, true, f.pass.Pkg, d.name); m != nil {
				t.Iface, _ = m.(*types.Func)
			}
			return
		}
		obj, _, _ := types.LookupFieldOrMethod(typ, true, f.pass.Pkg, d.name)
		if fn, ok := obj.(*types.Func); ok && !isInterface(fn.Signature().Recv().Type()) {
			t.Funcs = append(t.Funcs, fn.Origin())
		}
	case onData:
		t.Branch = f.branchOf(d.data, value)
	case callField:
		e := ast.Unparen(value)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		lit, ok := e.(*ast.CompositeLit)
		if !ok {
			return
		}
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if key, ok := kv.Key.(*ast.Ident); ok && key.Name == d.name {
					f.funcTask(t, kv.Value)
				}
			}
		}
	}
}

// selectReceive returns, for a receive in a select case (case v := <-ch:),
// the variable received and the case body.
func selectReceive(info *types.Info, recv inspector.Cursor) (*types.Var, *ast.BlockStmt) {
	as, ok := recv.Parent().Node().(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || as.Rhs[0] != recv.Node() || len(as.Lhs) == 0 {
		return nil, nil
	}
	cc, ok := recv.Parent().Parent().Node().(*ast.CommClause)
	if !ok || cc.Comm != as {
		return nil, nil
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil, nil
	}
	v, _ := info.Defs[id].(*types.Var)
	if v == nil {
		v, _ = info.Uses[id].(*types.Var)
	}
	return v, &ast.BlockStmt{List: cc.Body}
}
