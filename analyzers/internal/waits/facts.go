package waits

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/limiter"
	"golang.org/x/tools/go/types/typeutil"
)

// facts are what the package as a whole says about channels and errgroups.
type facts struct {
	semaphore  map[*types.Var]bool        // a send is released by a later receive that drops the value
	token      map[*types.Var]bool        // a received value is sent back
	unbuffered map[*types.Var]bool        // made without a buffer somewhere
	buffered   map[*types.Var]bool        // made with a buffer of more than one somewhere
	capOne     map[*types.Var]bool        // made with a buffer of exactly one somewhere
	worked     map[*types.Var]bool        // received from in a loop of a goroutine
	limited    map[*types.Var]bool        // errgroups given a limit
	created    map[*types.Var][]token.Pos // where a value made by a call is stored in the variable
}

// IsSemaphoreChan reports whether v holds a channel used as a counting
// semaphore, as package limiter decides it (sent values that carry no data,
// receives that drop the value, never unbuffered or pre-filled), and paired
// the way an acquire and its release are: a function sends to it and then
// (in the same function, a deferred closure or a goroutine it starts)
// receives from it and drops the value. A completion signal, sent by a goroutine and
// received by its parent, does not pair that way. Channels made unbuffered
// are not semaphores, and channels of one slot are mutexes, which count only
// when the Config asks for mutexes.
func (f *Finder) IsSemaphoreChan(v *types.Var) bool {
	fs := f.gather()
	v = origin(v)
	return fs.semaphore[v] && f.limiter().IsSemaphoreChan(v) && (f.cfg.Mutex || !fs.capOne[v] || fs.buffered[v])
}

// IsTokenChan reports whether v holds a channel of tokens or pooled resources:
// pre-filled, as package limiter decides it, or received from and sent the
// same value back by one function. Receiving from it acquires a slot.
func (f *Finder) IsTokenChan(v *types.Var) bool {
	fs := f.gather()
	v = origin(v)
	return (fs.token[v] || f.limiter().IsTokenChan(v)) && !fs.unbuffered[v] && (f.cfg.Mutex || !fs.capOne[v] || fs.buffered[v])
}

// IsPoolChan reports whether v holds the job channel of a pool of workers:
// made unbuffered, never buffered, and received from in a loop by goroutines
// of the package. A send to it waits until a worker is free, and returns
// when one has taken the job, so a timestamp after the send marks the start
// of the run.
func (f *Finder) IsPoolChan(v *types.Var) bool {
	fs := f.gather()
	v = origin(v)
	return fs.worked[v] && fs.unbuffered[v] && !fs.buffered[v] && !fs.capOne[v] && !fs.semaphore[v] && !fs.token[v]
}

// IsLimitedGroup reports whether v holds an errgroup.Group whose SetLimit is
// called somewhere in the package with a limit that is not a negative
// constant (a negative limit removes the limit).
func (f *Finder) IsLimitedGroup(v *types.Var) bool {
	return f.gather().limited[origin(v)]
}

// CreatedAt returns where the value v holds is created: the declaration of a
// local variable, and every call (make, a constructor) whose result is
// stored in v, a field included (w := &walker{sem: make(chan struct{}, n)}).
// A function that creates a semaphore and acquires it before anyone else
// can see it does not wait.
func (f *Finder) CreatedAt(v *types.Var) []token.Pos {
	v = origin(v)
	var at []token.Pos
	if !v.IsField() && v.Pkg() != nil && v.Parent() != nil && v.Parent() != v.Pkg().Scope() {
		at = append(at, v.Pos())
	}
	return append(at, f.gather().created[v]...)
}

// A chanOp is one send or receive on a channel variable.
type chanOp struct {
	cur     inspector.Cursor
	send    bool
	discard bool       // a receive whose value is dropped
	value   *types.Var // the variable a receive assigns, or a send sends
}

// gather collects the package's facts once.
func (f *Finder) gather() *facts {
	if f.facts != nil {
		return f.facts
	}
	fs := &facts{
		semaphore:  make(map[*types.Var]bool),
		token:      make(map[*types.Var]bool),
		unbuffered: make(map[*types.Var]bool),
		buffered:   make(map[*types.Var]bool),
		capOne:     make(map[*types.Var]bool),
		worked:     make(map[*types.Var]bool),
		limited:    make(map[*types.Var]bool),
		created:    make(map[*types.Var][]token.Pos),
	}
	f.facts = fs
	ops := make(map[*types.Var][]chanOp)
	goStarted := make(map[*types.Func]bool)
	var loops []inspector.Cursor // receives and ranges that may be worker loops
	var flows [][2]*types.Var    // a channel variable stored in another: {to, from}
	kinds := []ast.Node{
		(*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil), (*ast.RangeStmt)(nil), (*ast.GoStmt)(nil),
		(*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.KeyValueExpr)(nil),
	}
	for cur := range f.insp.Root().Preorder(kinds...) {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt, *ast.ValueSpec, *ast.KeyValueExpr:
			for to, from := range f.stores(n) {
				if from, ok := f.info.Uses[from].(*types.Var); ok && isChan(from.Type()) && to != from {
					flows = append(flows, [2]*types.Var{to, origin(from)})
				}
			}
		case *ast.SendStmt:
			v := Var(f.info, n.Chan)
			if v == nil {
				continue
			}
			ops[v] = append(ops[v], chanOp{cur: cur, send: true, value: Var(f.info, n.Value)})
		case *ast.UnaryExpr:
			if n.Op != token.ARROW {
				continue
			}
			v := Var(f.info, n.X)
			if v == nil {
				continue
			}
			op := chanOp{cur: cur}
			switch p := cur.Parent().Node().(type) {
			case *ast.ExprStmt:
				op.discard = true
			case *ast.AssignStmt:
				if len(p.Lhs) >= 1 && len(p.Rhs) == 1 {
					op.value = Var(f.info, p.Lhs[0])
				}
			}
			ops[v] = append(ops[v], op)
			loops = append(loops, cur)
		case *ast.RangeStmt:
			loops = append(loops, cur)
		case *ast.GoStmt:
			markGoStarted(f.info, n, goStarted)
		case *ast.CallExpr:
			f.gatherCall(fs, cur, n, goStarted)
		}
	}
	// memMu := make(chan T, 1); w := worker{memMu: memMu}: the field is made
	// as the variable was.
	for range 2 {
		for _, fl := range flows {
			to, from := fl[0], fl[1]
			fs.unbuffered[to] = fs.unbuffered[to] || fs.unbuffered[from]
			fs.buffered[to] = fs.buffered[to] || fs.buffered[from]
			fs.capOne[to] = fs.capOne[to] || fs.capOne[from]
		}
	}
	for v, vops := range ops {
		if pairs(vops, func(acq, rel chanOp) bool { return acq.send && !rel.send && rel.discard }) {
			fs.semaphore[v] = true
		}
		if pairs(vops, func(acq, rel chanOp) bool { return !acq.send && acq.value != nil && rel.send && rel.value == acq.value }) {
			fs.token[v] = true
		}
	}
	for _, cur := range loops {
		if v := workerLoopChan(f.info, cur, goStarted); v != nil {
			fs.worked[v] = true
		}
	}
	return fs
}

// gatherCall records channel makes, errgroup limits, and functions handed to
// a Go method (they run as goroutines).
func (f *Finder) gatherCall(fs *facts, cur inspector.Cursor, call *ast.CallExpr, goStarted map[*types.Func]bool) {
	if v := limiter.AssignedTo(f.info, cur); v != nil {
		fs.created[v] = append(fs.created[v], call.Pos())
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := f.info.Uses[id].(*types.Builtin); ok && b.Name() == "make" {
			if v := limiter.AssignedTo(f.info, cur); v != nil {
				recordMake(f.info, fs, v, call)
			}
		}
		return
	}
	fn, ok := typeutil.Callee(f.info, call).(*types.Func)
	if !ok {
		return
	}
	if fn.Name() == "Go" && len(call.Args) == 1 {
		if callee := funcOf(f.info, call.Args[0]); callee != nil {
			goStarted[callee] = true
		}
	}
	if !isMethod(fn, errgroupPath, "Group", "SetLimit") || len(call.Args) != 1 {
		return
	}
	if tv, ok := f.info.Types[call.Args[0]]; ok && tv.Value != nil && strings.HasPrefix(tv.Value.ExactString(), "-") {
		return // SetLimit(-1) removes the limit
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if v := Var(f.info, sel.X); v != nil {
			fs.limited[v] = true
		}
	}
}

func recordMake(info *types.Info, fs *facts, v *types.Var, call *ast.CallExpr) {
	if len(call.Args) == 0 {
		return
	}
	if t := info.TypeOf(call.Args[0]); t == nil {
		return
	} else if _, ok := t.Underlying().(*types.Chan); !ok {
		return
	}
	if len(call.Args) == 1 {
		fs.unbuffered[v] = true
		return
	}
	tv, ok := info.Types[call.Args[1]]
	switch {
	case !ok || tv.Value == nil:
		fs.buffered[v] = true // sized at run time
	case tv.Value.ExactString() == "0":
		fs.unbuffered[v] = true
	case tv.Value.ExactString() == "1":
		fs.capOne[v] = true
	default:
		fs.buffered[v] = true
	}
}

// markGoStarted records the functions a go statement runs: its callee, or the
// functions a go'd literal calls as statements of its own (go func() {
// s.worker() }()).
func markGoStarted(info *types.Info, g *ast.GoStmt, goStarted map[*types.Func]bool) {
	if fn := funcOf(info, g.Call.Fun); fn != nil {
		goStarted[fn] = true
		return
	}
	lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit)
	if !ok {
		return
	}
	for _, stmt := range lit.Body.List {
		if es, ok := stmt.(*ast.ExprStmt); ok {
			if call, ok := ast.Unparen(es.X).(*ast.CallExpr); ok {
				if fn := funcOf(info, call.Fun); fn != nil {
					goStarted[fn] = true
				}
			}
		}
	}
}

// funcOf returns the function or method expr names (f, s.worker), or nil.
func funcOf(info *types.Info, expr ast.Expr) *types.Func {
	switch e := ast.Unparen(expr).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[e].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := info.Uses[e.Sel].(*types.Func)
		return fn
	}
	return nil
}

// workerLoopChan returns the channel a worker goroutine loops over at cur (a
// range over a channel, or a receive in a for loop), or nil when cur is not
// such a loop or does not run in a goroutine.
func workerLoopChan(info *types.Info, cur inspector.Cursor, goStarted map[*types.Func]bool) *types.Var {
	var v *types.Var
	switch n := cur.Node().(type) {
	case *ast.RangeStmt:
		if t := info.TypeOf(n.X); t == nil {
			return nil
		} else if _, ok := t.Underlying().(*types.Chan); !ok {
			return nil
		}
		v = Var(info, n.X)
	case *ast.UnaryExpr:
		inLoop := false
		for enc := range cur.Enclosing((*ast.ForStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
			_, inLoop = enc.Node().(*ast.ForStmt)
			break
		}
		if !inLoop {
			return nil
		}
		v = Var(info, n.X)
	}
	if v == nil {
		return nil
	}
	for enc := range cur.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		switch fn := enc.Node().(type) {
		case *ast.FuncLit:
			if isGoroutineLit(enc) {
				return origin(v)
			}
		case *ast.FuncDecl:
			if obj, ok := info.Defs[fn.Name].(*types.Func); ok && goStarted[obj] {
				return origin(v)
			}
			return nil
		}
	}
	return nil
}

// isGoroutineLit reports whether the function literal at cur runs as a
// goroutine: go func() {...}() or g.Go(func() error {...}).
func isGoroutineLit(cur inspector.Cursor) bool {
	call, ok := cur.Parent().Node().(*ast.CallExpr)
	if !ok {
		return false
	}
	if call.Fun == cur.Node() {
		_, ok := cur.Parent().Parent().Node().(*ast.GoStmt)
		return ok
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Go" {
		return true
	}
	return false
}

// pairs reports whether some op acquires and a later op releases, as match
// decides, in the acquire's own function: the same body, a deferred closure
// or a goroutine it starts. An op in an enclosing function does not pair: a
// goroutine's final send received by its parent is a completion signal.
func pairs(ops []chanOp, match func(acq, rel chanOp) bool) bool {
	for _, acq := range ops {
		home := homeFunc(acq.cur)
		for _, rel := range ops {
			if rel.cur.Node().Pos() <= acq.cur.Node().Pos() || !match(acq, rel) {
				continue
			}
			if home.Contains(rel.cur) {
				return true
			}
		}
	}
	return false
}

// homeFunc returns the innermost function around cur, looking through
// deferred closures (they run in the function that defers them).
func homeFunc(cur inspector.Cursor) inspector.Cursor {
	for enc := range cur.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		if _, ok := enc.Node().(*ast.FuncLit); ok && IsDeferredLit(enc) {
			continue
		}
		return enc
	}
	return cur.Inspector().Root()
}

// IsDeferredLit reports whether the function literal at cur is called by a
// defer statement: defer func() {...}().
func IsDeferredLit(cur inspector.Cursor) bool {
	call, ok := cur.Parent().Node().(*ast.CallExpr)
	if !ok || call.Fun != cur.Node() {
		return false
	}
	_, ok = cur.Parent().Parent().Node().(*ast.DeferStmt)
	return ok
}

// stores yields, for an assignment, a var spec or a keyed composite literal
// element, each variable or field stored to and the identifier stored in it.
func (f *Finder) stores(n ast.Node) iter.Seq2[*types.Var, *ast.Ident] {
	return func(yield func(*types.Var, *ast.Ident) bool) {
		var lhs, rhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs, rhs = n.Lhs, n.Rhs
		case *ast.ValueSpec:
			for _, name := range n.Names {
				lhs = append(lhs, name)
			}
			rhs = n.Values
		case *ast.KeyValueExpr:
			if key, ok := n.Key.(*ast.Ident); ok {
				if v, ok := f.info.Uses[key].(*types.Var); ok && v.IsField() {
					if id, ok := ast.Unparen(n.Value).(*ast.Ident); ok {
						yield(origin(v), id)
					}
				}
			}
			return
		}
		if len(lhs) != len(rhs) {
			return
		}
		for i := range lhs {
			id, ok := ast.Unparen(rhs[i]).(*ast.Ident)
			if !ok {
				continue
			}
			if to := Var(f.info, lhs[i]); to != nil && !yield(to, id) {
				return
			}
		}
	}
}

func isChan(t types.Type) bool {
	_, ok := t.Underlying().(*types.Chan)
	return ok
}
