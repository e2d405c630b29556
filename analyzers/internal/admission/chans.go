package admission

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
)

// chanFacts are what the package as a whole says about its channels and
// errgroups. A channel is a semaphore, a token pool or a job queue by how the
// whole package uses it, never by its name.
type chanFacts struct {
	tokenSend  map[*types.Var]bool        // sent a value that carries no data, blocking
	discardRcv map[*types.Var]bool        // received from with the value dropped
	prefilled  map[*types.Var]bool        // sent to in a loop that only fills it
	unbuffered map[*types.Var]bool        // made without a buffer somewhere
	buffered   map[*types.Var]bool        // made with a buffer of more than one (or sized at run time) somewhere
	capOne     map[*types.Var]bool        // made with a buffer of exactly one somewhere
	semaphore  map[*types.Var]bool        // a send released by a later receive that drops the value, in one function
	token      map[*types.Var]bool        // a received value sent back, in one function
	worked     map[*types.Var]bool        // received from in a loop of a goroutine
	batched    map[*types.Var]bool        // the worker loop appends what it receives to a batch
	limited    map[*types.Var]bool        // errgroups given a limit
	created    map[*types.Var][]token.Pos // where a value made by a call is stored in the variable
}

// A chanOp is one send or receive on a channel variable.
type chanOp struct {
	cur     inspector.Cursor
	send    bool
	discard bool       // a receive whose value is dropped
	value   *types.Var // the variable a receive assigns, or a send sends
}

// chanFacts gathers the package's channel facts once, in one walk of the
// shared inspector, on the first question that needs them.
func (r *Result) chanFacts() *chanFacts {
	r.chanOnce.Do(func() { r.chans = gather(r.info, r.insp) })
	return r.chans
}

func gather(info *types.Info, insp *inspector.Inspector) *chanFacts {
	cf := &chanFacts{
		tokenSend:  make(map[*types.Var]bool),
		discardRcv: make(map[*types.Var]bool),
		prefilled:  make(map[*types.Var]bool),
		unbuffered: make(map[*types.Var]bool),
		buffered:   make(map[*types.Var]bool),
		capOne:     make(map[*types.Var]bool),
		semaphore:  make(map[*types.Var]bool),
		token:      make(map[*types.Var]bool),
		worked:     make(map[*types.Var]bool),
		batched:    make(map[*types.Var]bool),
		limited:    make(map[*types.Var]bool),
		created:    make(map[*types.Var][]token.Pos),
	}
	ops := make(map[*types.Var][]chanOp)
	goStarted := make(map[*types.Func]bool)
	acquirers, releasers := slotHelpers(info, insp)
	var loops []inspector.Cursor // receives and ranges that may be worker loops
	var flows [][2]*types.Var    // a channel variable stored in another: {to, from}
	var argFlows [][2]*types.Var // a channel handed to a goroutine: {parameter, argument}
	var fills []fill             // sends that fill a channel in a counting loop
	kinds := []ast.Node{
		(*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil), (*ast.RangeStmt)(nil), (*ast.GoStmt)(nil),
		(*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.KeyValueExpr)(nil),
	}
	for cur := range insp.Root().Preorder(kinds...) {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt, *ast.ValueSpec, *ast.KeyValueExpr:
			for to, from := range stores(info, n) {
				if from, ok := info.Uses[from].(*types.Var); ok && (code.IsChan(from.Type()) || isGroup(from.Type())) && to != from {
					flows = append(flows, [2]*types.Var{to, from.Origin()})
				}
			}
		case *ast.SendStmt:
			v := code.Var(info, n.Chan)
			if v == nil {
				continue
			}
			// A coalescing wake-up (notify <- struct{}{} or default) does not
			// wait; a semaphore is acquired by waiting.
			if !code.InSelectWithDefault(cur) && carriesNoData(info, n.Value) {
				cf.tokenSend[v] = true
			}
			if isFillLoopBody(info, cur) {
				fills = append(fills, fill{v, cur})
			}
			ops[v] = append(ops[v], chanOp{cur: cur, send: true, value: code.Var(info, n.Value)})
		case *ast.UnaryExpr:
			if n.Op != token.ARROW {
				continue
			}
			v := code.Var(info, n.X)
			if v == nil {
				continue
			}
			op := chanOp{cur: cur}
			switch p := cur.Parent().Node().(type) {
			case *ast.ExprStmt:
				op.discard = true
				cf.discardRcv[v] = true
			case *ast.AssignStmt:
				if len(p.Lhs) >= 1 && len(p.Rhs) == 1 {
					op.value = code.Var(info, p.Lhs[0])
				}
			}
			ops[v] = append(ops[v], op)
			loops = append(loops, cur)
		case *ast.RangeStmt:
			loops = append(loops, cur)
		case *ast.GoStmt:
			markGoStarted(info, n, goStarted)
			argFlows = append(argFlows, chanArgs(info, n.Call)...)
		case *ast.CallExpr:
			gatherCall(info, cf, cur, n, goStarted)
			// incRequestConcurrency(ctx) and decRequestConcurrency(), which
			// send a token on ch and take one back: an acquire and a
			// release where they are called (or deferred).
			if fn := code.Callee(info, n); fn != nil {
				if v := releasers[fn]; v != nil {
					ops[v] = append(ops[v], chanOp{cur: cur, discard: true})
				}
				if v := acquirers[fn]; v != nil {
					ops[v] = append(ops[v], chanOp{cur: cur, send: true})
				}
			}
		}
	}
	// A loop that fills a channel up front does so where the channel is
	// made: a constructor's tokens. A method that sends n tokens on a
	// channel its receiver holds takes n slots (a bounded WaitGroup's Add).
	for _, f := range fills {
		if decl, ok := code.EnclosingDecl(f.send); ok && madeIn(cf, f.v, decl.Node()) {
			cf.prefilled[f.v] = true
		}
	}
	// memMu := make(chan T, 1); w := worker{memMu: memMu}: the field is made
	// as the variable was, and holds the tokens a constructor filled the
	// variable with (tokens := make(…); for … { tokens <- struct{}{} };
	// return &pool{tokens: tokens}). An errgroup limited in a local and
	// stored in a field (g.SetLimit(n); return &T{g: g}) is limited there.
	for range 2 {
		for _, fl := range flows {
			to, from := fl[0], fl[1]
			cf.unbuffered[to] = cf.unbuffered[to] || cf.unbuffered[from]
			cf.buffered[to] = cf.buffered[to] || cf.buffered[from]
			cf.capOne[to] = cf.capOne[to] || cf.capOne[from]
			cf.prefilled[to] = cf.prefilled[to] || cf.prefilled[from]
			cf.limited[to] = cf.limited[to] || cf.limited[from]
		}
	}
	for v, vops := range ops {
		if pairs(vops, func(acq, rel chanOp) bool { return acq.send && !rel.send && rel.discard }) {
			cf.semaphore[v] = true
		}
		if pairs(vops, func(acq, rel chanOp) bool { return !acq.send && acq.value != nil && rel.send && rel.value == acq.value }) {
			cf.token[v] = true
		}
	}
	for _, cur := range loops {
		if v := workerLoopChan(info, cur, goStarted); v != nil {
			cf.worked[v] = true
			if appendsReceived(info, cur) {
				cf.batched[v] = true
			}
		}
	}
	// q := make(chan *job, n); p := &Pool{queue: q}; go p.worker(q), whose
	// loop drains its parameter: the workers drain q, and so p.queue.
	for _, fl := range argFlows {
		param, arg := fl[0], fl[1]
		cf.worked[arg] = cf.worked[arg] || cf.worked[param]
		cf.batched[arg] = cf.batched[arg] || cf.batched[param]
	}
	for _, fl := range flows {
		to, from := fl[0], fl[1]
		cf.worked[to] = cf.worked[to] || cf.worked[from]
		cf.batched[to] = cf.batched[to] || cf.batched[from]
	}
	return cf
}

// A fill is a send of a token in a counting loop of its own.
type fill struct {
	v    *types.Var
	send inspector.Cursor
}

// madeIn reports whether the channel v is made (or created by a call)
// inside the function declaration decl (through its literals: go func() {
// for … { pool <- token } }()).
func madeIn(cf *chanFacts, v *types.Var, decl ast.Node) bool {
	for _, at := range cf.created[v] {
		if code.Inside(at, decl) {
			return true
		}
	}
	return false
}

// chanArgs returns, for a call a go statement runs of a function declared
// in this package, the pairs {parameter, argument} of the channels it is
// handed in local or shared variables.
func chanArgs(info *types.Info, call *ast.CallExpr) [][2]*types.Var {
	fn := code.Callee(info, call)
	if fn == nil || fn.Pkg() == nil || len(call.Args) == 0 {
		return nil
	}
	params := fn.Signature().Params()
	var out [][2]*types.Var
	for i, arg := range call.Args {
		if i >= params.Len() || fn.Signature().Variadic() && i >= params.Len()-1 {
			break
		}
		if v := code.Var(info, arg); v != nil && code.IsChan(v.Type()) {
			out = append(out, [2]*types.Var{params.At(i), v.Origin()})
		}
	}
	return out
}

// gatherCall records channel makes, creations, errgroup limits, and
// functions handed to a Go method (they run as goroutines).
func gatherCall(info *types.Info, cf *chanFacts, cur inspector.Cursor, call *ast.CallExpr, goStarted map[*types.Func]bool) {
	if v := code.AssignedTo(info, cur); v != nil {
		cf.created[v] = append(cf.created[v], call.Pos())
		if code.BuiltinName(info, call) == "make" {
			recordMake(info, cf, v, call)
		}
	}
	fn := code.CalleeFunc(info, call)
	if fn == nil {
		return
	}
	if fn.Name() == "Go" && len(call.Args) == 1 {
		if callee := code.FuncValue(info, call.Args[0]); callee != nil {
			goStarted[callee] = true
		}
	}
	if g, n, ok := code.SetLimit(info, call); ok && g != nil && code.SetsLimit(info, n) {
		cf.limited[g] = true
	}
}

// isGroup reports whether t is an errgroup.Group or a pointer to one.
func isGroup(t types.Type) bool { return code.IsNamed(t, code.ErrgroupPath, "Group") }

func recordMake(info *types.Info, cf *chanFacts, v *types.Var, call *ast.CallExpr) {
	if len(call.Args) == 0 || !code.IsChan(info.TypeOf(call.Args[0])) {
		return
	}
	if len(call.Args) == 1 {
		cf.unbuffered[v] = true
		return
	}
	n, ok := consts.Int(info, call.Args[1])
	switch {
	case !ok:
		cf.buffered[v] = true // sized at run time
	case n == 0:
		cf.unbuffered[v] = true
	case n == 1:
		cf.capOne[v] = true
	default:
		cf.buffered[v] = true
	}
}

// carriesNoData reports whether a sent value is a token: of a zero-size type
// or a constant.
func carriesNoData(info *types.Info, value ast.Expr) bool {
	tv, ok := info.Types[value]
	if !ok || tv.Type == nil {
		return false
	}
	return tv.Value != nil || code.IsEmptyStruct(tv.Type)
}

// isFillLoopBody reports whether the send at cur is the only statement of a
// counting loop (for i := 0; i < n; i++, for range n): the shape that fills a
// token channel or a resource pool up front. A loop over a slice that sends
// each element is a producer feeding a stream, not a fill.
func isFillLoopBody(info *types.Info, cur inspector.Cursor) bool {
	block, ok := cur.Parent().Node().(*ast.BlockStmt)
	if !ok || len(block.List) != 1 {
		return false
	}
	switch loop := cur.Parent().Parent().Node().(type) {
	case *ast.ForStmt:
		return loop.Init != nil && loop.Cond != nil && loop.Post != nil
	case *ast.RangeStmt:
		t := info.TypeOf(loop.X)
		if t == nil {
			return false
		}
		b, ok := t.Underlying().(*types.Basic)
		return ok && b.Info()&types.IsInteger != 0
	}
	return false
}

// markGoStarted records the functions a go statement runs: its callee, or the
// functions a go'd literal calls as statements of its own (go func() {
// s.worker() }()).
func markGoStarted(info *types.Info, g *ast.GoStmt, goStarted map[*types.Func]bool) {
	if fn := code.FuncValue(info, g.Call.Fun); fn != nil {
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
				if fn := code.FuncValue(info, call.Fun); fn != nil {
					goStarted[fn] = true
				}
			}
		}
	}
}

// workerLoopChan returns the channel a worker goroutine loops over at cur (a
// range over a channel, or a receive in a for loop), or nil when cur is not
// such a loop or does not run in a goroutine.
func workerLoopChan(info *types.Info, cur inspector.Cursor, goStarted map[*types.Func]bool) *types.Var {
	var v *types.Var
	switch n := cur.Node().(type) {
	case *ast.RangeStmt:
		if !code.IsChan(info.TypeOf(n.X)) {
			return nil
		}
		v = code.Var(info, n.X)
	case *ast.UnaryExpr:
		inLoop := false
		for enc := range cur.Enclosing((*ast.ForStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
			_, inLoop = enc.Node().(*ast.ForStmt)
			break
		}
		if !inLoop {
			return nil
		}
		v = code.Var(info, n.X)
	}
	if v == nil || !code.InGoroutine(info, cur, func(fn *types.Func) bool { return goStarted[fn] }) {
		return nil
	}
	return v
}

// slotHelpers returns the package's functions that take or give back a
// slot of a channel held in a package variable or a field: acquirers send
// it tokens (values that carry no data) and never receive from it (func
// incRequestConcurrency(ctx) bool { select { case ch <- struct{}{}: … } });
// releasers only receive from it and drop the value (func
// decRequestConcurrency() { <-ch }). Calling one acquires or releases.
func slotHelpers(info *types.Info, insp *inspector.Inspector) (acquirers, releasers map[*types.Func]*types.Var) {
	acquirers = make(map[*types.Func]*types.Var)
	releasers = make(map[*types.Func]*types.Var)
	for cur := range insp.Root().Preorder((*ast.FuncDecl)(nil)) {
		d := cur.Node().(*ast.FuncDecl)
		fn, ok := info.Defs[d.Name].(*types.Func)
		if !ok || d.Body == nil {
			continue
		}
		if v := onlyReceives(info, d.Body); v != nil {
			releasers[fn] = v
			continue
		}
		if !code.Holds(cur, (*ast.SendStmt)(nil)) {
			continue // takes no slot: only a send does
		}
		if v := sendsTokens(info, d.Body); v != nil {
			acquirers[fn] = v
		}
	}
	return acquirers, releasers
}

// onlyReceives returns ch when body is <-ch alone, ch a shared channel.
func onlyReceives(info *types.Info, body *ast.BlockStmt) *types.Var {
	if len(body.List) != 1 {
		return nil
	}
	es, ok := body.List[0].(*ast.ExprStmt)
	if !ok {
		return nil
	}
	u, ok := ast.Unparen(es.X).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	if v := code.Var(info, u.X); v != nil && !code.IsLocal(v) {
		return v.Origin()
	}
	return nil
}

// sendsTokens returns the one shared channel body sends tokens on, outside
// loops and function literals, when it sends nothing else on it and never
// receives from it.
func sendsTokens(info *types.Info, body *ast.BlockStmt) *types.Var {
	// The sends that only try (a case of a select with a default): a
	// function that only tries is a wake-up, not an acquire.
	tries := make(map[*ast.SendStmt]bool)
	ast.Inspect(body, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectStmt); ok && code.HasDefault(sel) {
			for _, st := range sel.Body.List {
				if s, ok := st.(*ast.CommClause).Comm.(*ast.SendStmt); ok {
					tries[s] = true
				}
			}
		}
		return true
	})
	var ch *types.Var
	received := make(map[*types.Var]bool)
	ok, blocks := true, false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.SendStmt:
			v := code.Var(info, n.Chan)
			if v == nil || code.IsLocal(v) || !carriesNoData(info, n.Value) || (ch != nil && ch != v.Origin()) {
				ok = false
			} else {
				ch = v.Origin()
				blocks = blocks || !tries[n]
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				if v := code.Var(info, n.X); v != nil {
					received[v.Origin()] = true
				}
			}
		}
		return ok
	})
	if !ok || !blocks || ch == nil || received[ch] {
		return nil
	}
	return ch
}

// appendsReceived reports whether the worker loop receiving at cur (a range
// over the channel, or a receive in a loop) appends the value it receives
// to a slice in that loop: a batching writer, which takes each item at once
// and applies the batch later, on size or on a tick.
func appendsReceived(info *types.Info, cur inspector.Cursor) bool {
	var got *types.Var
	var scope inspector.Cursor // where the batch is filled: the loop, or the receive's select case
	switch n := cur.Node().(type) {
	case *ast.RangeStmt:
		got, scope = code.Var(info, n.Key), cur // for w := range ch: the element is the key
	case *ast.UnaryExpr:
		if as, ok := cur.Parent().Node().(*ast.AssignStmt); ok && len(as.Lhs) >= 1 {
			got = code.Var(info, as.Lhs[0])
		}
		for enc := range cur.Enclosing((*ast.CommClause)(nil), (*ast.ForStmt)(nil)) {
			scope = enc
			break
		}
	}
	if got == nil || !scope.Valid() {
		return false
	}
	found := false
	for a := range scope.Preorder((*ast.CallExpr)(nil)) {
		call := a.Node().(*ast.CallExpr)
		if code.BuiltinName(info, call) == "append" && len(call.Args) >= 2 && !call.Ellipsis.IsValid() {
			for _, arg := range call.Args[1:] {
				if code.Var(info, arg) == got {
					found = true
				}
			}
		}
	}
	return found
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
		if _, ok := enc.Node().(*ast.FuncLit); ok && code.IsDeferredLit(enc) {
			continue
		}
		return enc
	}
	return cur.Inspector().Root()
}

// stores yields, for an assignment, a var spec or a keyed composite literal
// element, each variable or field stored to and the identifier stored in it.
func stores(info *types.Info, n ast.Node) iter.Seq2[*types.Var, *ast.Ident] {
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
				if v, ok := info.Uses[key].(*types.Var); ok && v.IsField() {
					if id, ok := ast.Unparen(n.Value).(*ast.Ident); ok {
						yield(v.Origin(), id)
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
			if to := code.Var(info, lhs[i]); to != nil && !yield(to, id) {
				return
			}
		}
	}
}
