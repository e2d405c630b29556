package spawn

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// prefetchBounded reports whether stream carries AMQP deliveries
// (streadway/amqp, rabbitmq/amqp091-go) of a consumer the broker holds to
// a prefetch count: the package sets a Qos whose count is not 0 and
// consumes only with manual acks. The broker then sends no more deliveries
// than the count until some are acked, so the goroutines in flight are
// bounded by it, as long as they ack after the work (a package that acks
// first defeats it, but sets no Qos either, in the code seen).
func (c *checker) prefetchBounded(stream ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(stream)
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	n, ok := types.Unalias(ch.Elem()).(*types.Named)
	if !ok || n.Obj().Name() != "Delivery" || n.Obj().Pkg() == nil || !isAMQP(n.Obj().Pkg().Path()) {
		return false
	}
	qos := false
	for cur := range c.insp.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		fn := code.CalleeFunc(c.pass.TypesInfo, call)
		if fn == nil || fn.Pkg() == nil || !isAMQP(fn.Pkg().Path()) || fn.Signature().Recv() == nil {
			continue
		}
		switch {
		case fn.Name() == "Qos" && len(call.Args) >= 1:
			if k, isConst := consts.Int(c.pass.TypesInfo, call.Args[0]); !isConst || k != 0 {
				qos = true
			}
		case strings.HasPrefix(fn.Name(), "Consume"):
			// Consume(queue, consumer, autoAck, …), ConsumeWithContext(ctx,
			// queue, consumer, autoAck, …).
			i := 2
			if fn.Name() == "ConsumeWithContext" {
				i = 3
			}
			if len(call.Args) <= i {
				return false
			}
			tv, ok := c.pass.TypesInfo.Types[call.Args[i]]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool || constant.BoolVal(tv.Value) {
				return false // auto-ack, or not known: no flow control
			}
		}
	}
	return qos
}

// finiteStream reports whether stream is a channel this call makes and
// closes: a local made here, or returned by a function of the package that
// makes it, and closed by its producer (close(ch), in the function or a
// goroutine it starts). Its items are one batch the call produced (hatchet's
// tryAssign: one result per action, then close), not a service's input.
func (c *checker) finiteStream(stream ast.Expr, loop inspector.Cursor) bool {
	info := c.pass.TypesInfo
	v := code.Var(info, stream)
	fn := code.EnclosingFunc(loop)
	if v == nil || !code.IsLocal(v) || !fn.Valid() {
		return false
	}
	made, closed := false, false
	var producer *types.Func
	ast.Inspect(fn.Node(), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if code.Var(info, lhs) != v || len(n.Rhs) != len(n.Lhs) {
					continue
				}
				if call, ok := ast.Unparen(n.Rhs[i]).(*ast.CallExpr); ok {
					if code.BuiltinName(info, call) == "make" {
						made = true
					} else {
						producer = c.sh.Callee(call)
					}
				}
			}
		case *ast.CallExpr:
			if code.BuiltinName(info, n) == "close" && len(n.Args) == 1 && code.Var(info, n.Args[0]) == v {
				closed = true
			}
		}
		return true
	})
	if made {
		return closed
	}
	if producer == nil {
		return false
	}
	d, ok := c.sh.Res.FuncDecl(producer)
	return ok && makesClosesReturns(info, d.Node())
}

// makesClosesReturns reports whether the function decl makes a channel in
// a local, closes it, and returns it.
func makesClosesReturns(info *types.Info, decl ast.Node) bool {
	made := make(map[*types.Var]bool)
	closed := make(map[*types.Var]bool)
	returned := make(map[*types.Var]bool)
	ast.Inspect(decl, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if len(n.Rhs) == len(n.Lhs) {
					if call, ok := ast.Unparen(n.Rhs[i]).(*ast.CallExpr); ok && code.BuiltinName(info, call) == "make" {
						if v := code.Var(info, lhs); v != nil && code.IsLocal(v) {
							made[v] = true
						}
					}
				}
			}
		case *ast.CallExpr:
			if code.BuiltinName(info, n) == "close" && len(n.Args) == 1 {
				if v := code.Var(info, n.Args[0]); v != nil {
					closed[v] = true
				}
			}
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if v := code.Var(info, r); v != nil {
					returned[v] = true
				}
			}
		}
		return true
	})
	for v := range made {
		if closed[v] && returned[v] {
			return true
		}
	}
	return false
}

// repliesInLockstep reports whether the loop reads requests from a stream
// (Recv, Receive) and the goroutine, and only the goroutine, sends its reply
// on that same stream: a request/reply stream run in lock step (Cortex's and
// Loki's querier workers), whose peer sends the next request once it has
// the reply, so one goroutine per stream is in flight. A datagram read does
// not count: a UDP client does not wait for the answer.
func (c *checker) repliesInLockstep(sp spawn, stream ast.Expr, recv ast.Node) bool {
	read, ok := recv.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel := ast.Unparen(read.Fun).(*ast.SelectorExpr)
	if sel.Sel.Name != "Recv" && sel.Sel.Name != "Receive" {
		return false
	}
	// The reply may be sent by the goroutine's body or by a callback it is
	// handed (go p.run(ctx, req, func(r *Response) error { return c.Send(r) })).
	var where []ast.Node
	if body := c.spawnedBody(sp); body != nil {
		where = append(where, body)
	}
	for _, arg := range sp.call.Args {
		if lit, ok := ast.Unparen(arg).(*ast.FuncLit); ok {
			where = append(where, lit.Body)
		}
	}
	v := code.Var(c.pass.TypesInfo, stream)
	if v == nil {
		return false
	}
	replies := false
	for _, n := range where {
		ast.Inspect(n, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && !replies {
				if s, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && knowledge.ReplyMethods.Has(s.Sel.Name) && code.Var(c.pass.TypesInfo, s.X) == v {
					replies = true
				}
			}
			return !replies
		})
	}
	return replies
}

// isAMQP reports whether path is an AMQP 0.9.1 client package.
func isAMQP(path string) bool { return knowledge.AMQPPackages.Has(path) }

// The goroutine per item may be per entity (a subscription, a connection)
// rather than a task per message: the items are connections or other
// resources with a Close method (streams, files), or hand one out
// (entityItems); the goroutine loops over a stream, itself or in a function
// of this package it calls (longLived); or it lives until the loop's owner
// stops (untilStop). Items that carry a reply channel are still messages.

// entityItems reports whether the items of stream are entities.
func (c *checker) entityItems(stream ast.Expr) bool {
	if t := c.pass.TypesInfo.TypeOf(stream); t != nil {
		if ch, ok := t.Underlying().(*types.Chan); ok && (hasClose(ch.Elem()) || holdsConn(ch.Elem()) || acceptsStream(ch.Elem()) || isComponent(ch.Elem())) {
			return true
		}
	}
	return false
}

// longLived reports whether the goroutine loops over a stream, itself or in
// a function of this package it calls.
func (c *checker) longLived(sp spawn) bool {
	body := c.spawnedBody(sp)
	if body == nil {
		return false
	}
	if loopsForever(c.pass.TypesInfo, body) {
		return true
	}
	long := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !long {
			if d, ok := c.sh.Res.FuncDecl(c.sh.Callee(call)); ok && loopsForever(c.pass.TypesInfo, code.FuncBody(d.Node())) {
				long = true
			}
		}
		return !long
	})
	return long
}

// untilStop reports whether the goroutine's body lives until a stop signal
// (livesUntilStop).
func (c *checker) untilStop(sp spawn, loop inspector.Cursor) bool {
	body := c.spawnedBody(sp)
	return body != nil && c.livesUntilStop(sp, body, loop)
}

// restartsWorker reports whether the goroutine sends on the stream the loop
// takes its items from: the items are the exits of the loop's own workers,
// and the goroutine started per item replaces the one that just ended (a
// supervisor restarting a fixed set), so their number does not grow. A
// goroutine that sends in a loop hands the stream many items (feedsBack):
// no restart.
func (c *checker) restartsWorker(sp spawn, stream ast.Expr) bool {
	sends, inLoop := c.sendsBack(sp, stream)
	return sends && !inLoop
}

// feedsBack reports whether the goroutine sends the stream the loop reads
// several items, in a loop: the subdirectories of the directory a
// traversal worker just listed. It holds them until the bounded stream
// takes them, so the goroutines parked on the send are the overflow of the
// channel's bound, and their number grows with the data.
func (c *checker) feedsBack(sp spawn, stream ast.Expr) bool {
	sends, inLoop := c.sendsBack(sp, stream)
	return sends && inLoop
}

// sendsBack reports whether the body the spawn runs sends on the stream,
// and whether a send is inside a loop of the body.
func (c *checker) sendsBack(sp spawn, stream ast.Expr) (sends, inLoop bool) {
	ch := code.Var(c.pass.TypesInfo, stream)
	body := c.spawnedBody(sp)
	if ch == nil || body == nil {
		return false, false
	}
	var visit func(n ast.Node, loops int)
	visit = func(n ast.Node, loops int) {
		ast.Inspect(n, func(m ast.Node) bool {
			if sends && inLoop {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return m == n
			case *ast.ForStmt:
				if m != n {
					visit(m.Body, loops+1)
					return false
				}
			case *ast.RangeStmt:
				if m != n {
					visit(m.Body, loops+1)
					return false
				}
			case *ast.SendStmt:
				if code.Var(c.pass.TypesInfo, m.Chan) == ch {
					sends = true
					inLoop = inLoop || loops > 0
				}
			}
			return true
		})
	}
	visit(body, 0)
	return sends, inLoop
}

// spawnedBody returns the body of the function the spawn runs: a literal, a
// function or method of this package, or a literal held in a local variable
// that is never reassigned (reader := func(…) {…} … go reader(x)); nil when
// it is none of these.
func (c *checker) spawnedBody(sp spawn) *ast.BlockStmt {
	info := c.pass.TypesInfo
	switch f := ast.Unparen(sp.fun).(type) {
	case *ast.FuncLit:
		return f.Body
	case *ast.Ident:
		switch obj := info.Uses[f].(type) {
		case *types.Func:
			if decl, ok := c.sh.Res.FuncDecl(obj.Origin()); ok {
				return code.FuncBody(decl.Node())
			}
		case *types.Var:
			if lit := c.localFuncLit(obj); lit != nil {
				return lit.Body
			}
		}
	case *ast.SelectorExpr:
		if fn, ok := info.Uses[f.Sel].(*types.Func); ok {
			if decl, ok := c.sh.Res.FuncDecl(fn.Origin()); ok {
				return code.FuncBody(decl.Node())
			}
		}
	}
	return nil
}

// localFuncLit returns the function literal a local variable is declared
// with (f := func(…) {…}), when nothing assigns the variable again.
func (c *checker) localFuncLit(v *types.Var) *ast.FuncLit {
	if !code.IsLocal(v) || v.Pkg() != c.pass.Pkg {
		return nil
	}
	id, ok := c.insp.Root().FindByPos(v.Pos(), v.Pos()+token.Pos(len(v.Name())))
	if !ok {
		return nil
	}
	a, ok := id.Parent().Node().(*ast.AssignStmt)
	if !ok || a.Tok != token.DEFINE || len(a.Lhs) != len(a.Rhs) {
		return nil
	}
	fn := code.EnclosingFunc(id)
	if !fn.Valid() || code.ReassignedIn(c.pass.TypesInfo, fn.Node())[v] {
		return nil
	}
	for i, lhs := range a.Lhs {
		if lhs == id.Node() {
			lit, _ := ast.Unparen(a.Rhs[i]).(*ast.FuncLit)
			return lit
		}
	}
	return nil
}

// hasClose reports whether values of type t, or pointers to them, have a
// Close method.
func hasClose(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Close")
	_, ok := obj.(*types.Func)
	return ok
}

// isComponent reports whether t is a component the program starts with a
// context and that runs until it ends: it has a method named as a
// component's lifecycle (knowledge list lifecycle-methods: Start, Run,
// Serve) whose first parameter is a context (controller-runtime's
// Runnable.Start(ctx) error). A channel of such items hands out components
// added at setup, one goroutine each, not messages.
func isComponent(t types.Type) bool {
	ms := types.NewMethodSet(t)
	if !types.IsInterface(t) {
		if _, isPtr := t.Underlying().(*types.Pointer); !isPtr {
			ms = types.NewMethodSet(types.NewPointer(t))
		}
	}
	for m := range ms.Methods() {
		fn, ok := m.Obj().(*types.Func)
		if !ok || !knowledge.LifecycleMethods.Has(fn.Name()) {
			continue
		}
		if params := fn.Signature().Params(); params.Len() > 0 && code.ImplementsContext(params.At(0).Type()) {
			return true
		}
	}
	return false
}

// holdsConn reports whether t holds or hands out a connection: a field of a
// connection type, or a method without parameters that returns one
// (ConnContext.Conn() net.Conn). A channel of such items is the channel form
// of an accept loop: the goroutine per item serves one connection.
func holdsConn(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := t.Underlying().(*types.Struct); ok {
		for i := range s.NumFields() {
			if isConn(s.Field(i).Type()) {
				return true
			}
		}
	}
	ms := types.NewMethodSet(types.NewPointer(t))
	if types.IsInterface(t) {
		ms = types.NewMethodSet(t)
	}
	for m := range ms.Methods() {
		sig, ok := m.Type().(*types.Signature)
		if ok && sig.Params().Len() == 0 && sig.Results().Len() >= 1 && isConn(sig.Results().At(0).Type()) {
			return true
		}
	}
	return false
}

// acceptsStream reports whether t is a stream waiting to be accepted: it
// has an Accept method without parameters whose first result reads, writes
// and closes (ssh.NewChannel's Accept returns an ssh.Channel). A channel of
// such items is an accept loop over a multiplexed connection.
func acceptsStream(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Accept")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Signature()
	return sig.Params().Len() == 0 && sig.Results().Len() >= 1 && isStream(sig.Results().At(0).Type())
}

// isStream reports whether t reads, writes and closes.
func isStream(t types.Type) bool { return hasMethods(t, knowledge.StreamMethods.Entries()) }

// livesUntilStop reports whether the goroutine's body ends by waiting for a
// stop signal that is the same for every item: a receive from a channel of
// struct{} (or ctx.Done()) that the loop's function, not the item, provides
// (go h.forwardPort(conn, req, quit) whose body ends with <-quit). The
// goroutine then lives as long as the connection or service it serves, one
// per entity (a forwarded port, a subscription), not per message.
func (c *checker) livesUntilStop(sp spawn, body *ast.BlockStmt, loop inspector.Cursor) bool {
	info := c.pass.TypesInfo
	if len(body.List) == 0 {
		return false
	}
	es, ok := body.List[len(body.List)-1].(*ast.ExprStmt)
	if !ok {
		return false
	}
	u, ok := ast.Unparen(es.X).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return false
	}
	x := ast.Unparen(u.X)
	if call, ok := x.(*ast.CallExpr); ok && sendselect.IsDone(info, call) {
		x = ast.Unparen(call.Fun).(*ast.SelectorExpr).X // ctx.Done(): where ctx comes from
	} else if t := info.TypeOf(x); t == nil {
		return false
	} else if ch, ok := t.Underlying().(*types.Chan); !ok || !code.IsEmptyStruct(ch.Elem()) {
		return false
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := info.Uses[id].(*types.Var)
	if v == nil {
		return false
	}
	// A parameter of the function the spawn calls: the argument given.
	if fn := code.FuncValue(info, sp.fun); fn != nil {
		if i := shared.ParamIndex(fn.Origin(), v); i >= 0 {
			if i >= len(sp.args) {
				return false
			}
			arg, ok := ast.Unparen(sp.args[i]).(*ast.Ident)
			if !ok {
				return false
			}
			v, _ = info.Uses[arg].(*types.Var)
		}
	}
	// A local declared before the loop (in its function or one around it)
	// and never changed in it: the same for every item.
	return v != nil && code.IsLocal(v) && v.Pos() < loop.Node().Pos() && !code.ReassignedIn(info, loop.Node())[v]
}

// isConn reports whether t is a connection: it reads, writes, closes and has
// a remote address, as net.Conn does.
func isConn(t types.Type) bool { return hasMethods(t, knowledge.ConnMethods.Entries()) }

// hasMethods reports whether t (or *t) has a method of each of the names.
func hasMethods(t types.Type, names []string) bool {
	for _, name := range names {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		if _, ok := obj.(*types.Func); !ok {
			return false
		}
	}
	return true
}

// loopsForever reports whether body contains a loop that lives as long as a
// stream: for {}, a range over a channel, or a loop that receives or selects.
func loopsForever(info *types.Info, body ast.Node) bool {
	return code.AnyNode(body, code.IsFuncLit, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt:
			if n.Cond == nil || receivesOrSelects(n.Body) {
				return true
			}
		case *ast.RangeStmt:
			if t := info.TypeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Chan); ok {
					return true
				}
			}
		}
		return false
	})
}

func receivesOrSelects(n ast.Node) bool {
	return code.AnyNode(n, nil, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectStmt:
			return true
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				return true
			}
		}
		return false
	})
}

// unlimitedGroup reports whether the spawn is known to start goroutines
// without a limit: go statements and WaitGroup.Go always; errgroup.Go only
// on a group created in this function, outside the loop (a group per
// iteration runs a fixed number of tasks), never given a limit and never
// handed to other code that could set one.
func (c *checker) unlimitedGroup(sp spawn, loop, spawnCur inspector.Cursor) bool {
	if sp.kind != "errgroup" {
		return true
	}
	g := sp.group
	if g == nil || c.adm.IsLimitedGroup(g) || g.IsField() || g.Parent() == c.pass.Pkg.Scope() {
		return false
	}
	fn := code.EnclosingFunc(loop)
	if !fn.Valid() {
		return false
	}
	body := code.FuncBody(fn.Node())
	if g.Pos() < body.Lbrace || g.Pos() > body.Rbrace {
		return false // a parameter: the caller may have set a limit
	}
	if loop.Node().Pos() <= g.Pos() && g.Pos() < loop.Node().End() {
		return false
	}
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if c.pass.TypesInfo.Uses[id] != g {
			continue
		}
		sel, ok := cur.Parent().Node().(*ast.SelectorExpr)
		if !ok || sel.X != id {
			return false // &g, f(g): someone else may set a limit
		}
		switch sel.Sel.Name {
		case "Go", "TryGo", "Wait", "SetLimit": // SetLimit(-1): no limit
		default:
			return false
		}
	}
	return true
}
