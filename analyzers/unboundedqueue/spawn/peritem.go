package spawn

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// A spawn starts a goroutine: go f(x), g.Go(f) or wg.Go(f).
type spawn struct {
	stmt  ast.Stmt      // the go statement or the expression statement of the call
	call  *ast.CallExpr // the call that starts it
	group *types.Var    // the errgroup or WaitGroup; nil for go
	kind  string        // "go", "errgroup", "waitgroup"
	// fun and args are the function the goroutine runs and its arguments.
	fun  ast.Expr
	args []ast.Expr
}

// spawnAt returns the spawn at cur, a go statement or a call.
func (c *checker) spawnAt(cur inspector.Cursor) (spawn, bool) {
	switch n := cur.Node().(type) {
	case *ast.GoStmt:
		return spawn{stmt: n, call: n.Call, kind: "go", fun: n.Call.Fun, args: n.Call.Args}, true
	case *ast.CallExpr:
		stmt, ok := cur.Parent().Node().(*ast.ExprStmt)
		if !ok || len(n.Args) != 1 {
			return spawn{}, false
		}
		fn := c.sh.Callee(n)
		sel, _ := ast.Unparen(n.Fun).(*ast.SelectorExpr)
		if fn == nil || sel == nil || fn.Name() != "Go" || fn.Pkg() == nil {
			return spawn{}, false
		}
		kind := ""
		switch t := recvNamed(fn); {
		case fn.Pkg().Path() == code.ErrgroupPath && t == "Group":
			kind = "errgroup"
		case fn.Pkg().Path() == "sync" && t == "WaitGroup":
			kind = "waitgroup"
		default:
			return spawn{}, false
		}
		return spawn{stmt: stmt, call: n, group: code.Var(c.pass.TypesInfo, sel.X), kind: kind, fun: n.Args[0]}, true
	}
	return spawn{}, false
}

// recvNamed returns the name of the named type of fn's receiver.
func recvNamed(fn *types.Func) string {
	t := code.Recv(fn)
	if t == nil {
		return ""
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// goroutinesPerItem reports loops over a stream that start a goroutine per
// item with nothing bounding how many run at once.
func (c *checker) goroutinesPerItem() {
	for _, loop := range c.loops {
		if !mayConsumeStream(c.pass.TypesInfo, loop.Node()) {
			continue
		}
		body := loopBody(loop.Node())
		bodyCur, ok := loop.FindNode(body)
		if !ok {
			continue
		}
		var items []perItem
		for cur := range bodyCur.Preorder((*ast.GoStmt)(nil), (*ast.CallExpr)(nil)) {
			sp, ok := c.spawnAt(cur)
			if !ok || (shared.NearestLoop(cur) != loop.Node() && !c.fansOutItem(cur, loop)) {
				continue
			}
			stream, recv, ok := c.streamOf(loop, cur)
			if !ok {
				continue // no item taken from a stream: not per item
			}
			if _, ok := c.bounded(kindPerItem, candidate{sp: sp, cur: cur, loop: loop, stream: stream, recv: recv}); ok {
				continue
			}
			_, pulled := recv.(*ast.CallExpr)
			items = append(items, perItem{sp: sp, cur: cur, stream: stream, pulled: pulled, feedsBack: c.feedsBack(sp, stream)})
		}
		lim := newLoopLimit(loop, items, fmt.Sprint(c.inFlight))
		for _, it := range items {
			c.findings = append(c.findings, newFixer(c.sh).itemFinding(it, lim))
		}
	}
}

// fansOutItem reports whether the spawn at cur sits in a range over the
// parts of the item the stream loop took (for _, p := range msg.Parts),
// directly inside that loop: the goroutines per item are many, and no fewer
// for being bounded by the item.
func (c *checker) fansOutItem(cur, loop inspector.Cursor) bool {
	inner, ok := shared.NearestLoop(cur).(*ast.RangeStmt)
	if !ok {
		return false
	}
	innerCur, ok := loop.FindNode(inner)
	return ok && shared.NearestLoop(innerCur) == loop.Node() && c.readsIteration(inner.X, loop.Node())
}

// A perItem is a spawn reported as goroutineperitem.
type perItem struct {
	sp     spawn
	cur    inspector.Cursor // the spawn
	stream ast.Expr         // where the items come from
	pulled bool             // read by a call (conn.ReadFrom, r.ReadMessage), not received
	// feedsBack is set when the goroutine sends the stream several items
	// (feedsBack): its overflow, not a bound's.
	feedsBack bool
}

// newLoopLimit returns the limit the fixes of the loop's reported spawns
// share: one semaphore (and one SetLimit per group), whose declaration each
// fix makes the same way, so that drivers merge them.
func newLoopLimit(loop inspector.Cursor, items []perItem, size string) *loopLimit {
	lim := &loopLimit{loop: loop, size: size}
	for _, it := range items {
		lim.uses = append(lim.uses, it.sp.stmt.Pos())
		if lit, ok := ast.Unparen(it.sp.fun).(*ast.FuncLit); ok {
			lim.uses = append(lim.uses, lit.Body.Lbrace+1)
		}
	}
	return lim
}

// spawnName names the spawn for a message: "goroutine", "g.Go goroutine".
func (c fixer) spawnName(sp spawn) string {
	if sp.kind == "go" {
		return "goroutine"
	}
	return edits.Source(c.pass, sp.call.Fun) + " goroutine"
}

// A loopLimit is what the fixes of one loop's spawns share.
type loopLimit struct {
	loop inspector.Cursor
	uses []token.Pos // where the semaphore is used: it must not be shadowed there
	sem  string      // the semaphore's name, once chosen
	size string      // the limit, as source
}

func loopBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.ForStmt:
		return n.Body
	case *ast.RangeStmt:
		return n.Body
	}
	return nil
}

// mayConsumeStream reports whether loop can be a loop over a stream: a range
// over a channel of items, or a bare for {} (which must then receive).
func mayConsumeStream(info *types.Info, loop ast.Node) bool {
	switch l := loop.(type) {
	case *ast.RangeStmt:
		t := info.TypeOf(l.X)
		return t != nil && shared.CarriesItems(t)
	case *ast.ForStmt:
		return l.Init == nil && l.Cond == nil && l.Post == nil
	}
	return false
}

// streamOf returns the channel the loop takes the spawn's item from, and the
// receive that takes it (nil for a range loop): the range expression, the
// select case around the spawn, or a receive statement before it.
func (c *checker) streamOf(loop, spawnCur inspector.Cursor) (ast.Expr, ast.Node, bool) {
	info := c.pass.TypesInfo
	if r, ok := loop.Node().(*ast.RangeStmt); ok {
		return r.X, nil, true
	}
	body := loopBody(loop.Node())
	for cur := spawnCur; cur.Node() != loop.Node(); cur = cur.Parent() {
		if cc, ok := cur.Node().(*ast.CommClause); ok {
			if recv := shared.ReceiveIn(cc.Comm); recv != nil && shared.CarriesItems(info.TypeOf(recv.X)) {
				return recv.X, recv, true
			}
			return nil, nil, false // a tick, a signal or ctx.Done(): not an item
		}
		if cur.Parent().Node() == body {
			for _, s := range body.List {
				if s == cur.Node() {
					break
				}
				if recv := shared.ReceiveIn(s); recv != nil && shared.CarriesItems(info.TypeOf(recv.X)) {
					return recv.X, recv, true
				}
				if read := c.pullReadIn(s); read != nil {
					return ast.Unparen(read.Fun).(*ast.SelectorExpr).X, read, true
				}
			}
			break
		}
	}
	return nil, nil, false
}

// pullReadIn returns the pull read s makes, itself or in the branches of an
// if (if c.responder != nil { msg, fn, err = c.responder.Respond(ctx) } else
// { msg, err = c.receiver.Receive(ctx) }; if err := sock.Recv(&msg); err !=
// nil { … }), outside function literals and loops.
func (c *checker) pullReadIn(s ast.Stmt) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.AssignStmt:
			if found == nil {
				found = c.pullRead(n)
			}
		}
		return found == nil
	})
	return found
}

// pullRead returns the call of s, an assignment from a call, when it reads
// the next item of a stream the loop pulls from: a datagram of a packet
// connection (net's ReadFrom and its kin), or a message of a client stream
// (a method named as message clients name it, which returns the message
// and an error, and whose message is not a connection or a stream of its
// own, or reads it into the pointer it is given and returns an error).
func (c *checker) pullRead(s ast.Stmt) *ast.CallExpr {
	as, ok := s.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 {
		return nil
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if _, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); !ok {
		return nil
	}
	fn := code.CalleeFunc(c.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() == nil {
		return nil
	}
	res := fn.Signature().Results()
	if res.Len() == 0 || len(as.Lhs) != res.Len() || !types.Identical(res.At(res.Len()-1).Type(), shared.ErrorType) {
		return nil
	}
	if res.Len() == 1 {
		// err := sock.Recv(&msg): the message is read into the argument.
		if !knowledge.MessageReads.Has(fn.Name()) || len(call.Args) != 1 {
			return nil
		}
		if u, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr); !ok || u.Op != token.AND {
			return nil
		}
		return call
	}
	switch {
	case fn.Pkg().Path() == "net" && knowledge.PacketReads.Has(fn.Name()):
		return call
	case knowledge.MessageReads.Has(fn.Name()):
		for i := range res.Len() - 1 {
			t := res.At(i).Type()
			if isConn(t) || hasClose(t) || holdsConn(t) || acceptsStream(t) || shared.CarriesItems(t) {
				return nil // a connection, a stream or a channel: an entity
			}
		}
		return call
	}
	return nil
}

// usesIterationState reports whether the spawn reads a variable the loop
// declares (the item, or something derived from it): a goroutine that reads
// none is not per item, such as go p.Kill() once a counter reaches a limit.
func (c *checker) usesIterationState(sp spawn, loop inspector.Cursor) bool {
	uses := false
	ast.Inspect(sp.call, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			// The goroutine's own variables (if err := …; err != nil in its
			// literal) are not the loop's, though they sit inside it.
			if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && code.Inside(v.Pos(), loop.Node()) && !code.Inside(v.Pos(), sp.call) {
				uses = true
			}
		}
		return !uses
	})
	return uses
}
