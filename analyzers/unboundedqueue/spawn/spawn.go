package spawn

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"go/version"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// goroutinesPerSend reports go func() { ch <- v }() where the goroutine only
// hands over a value computed before it started.
func (c *checker) goroutinesPerSend() {
	info := c.pass.TypesInfo
	for _, cur := range c.goStmts {
		g := cur.Node().(*ast.GoStmt)
		lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit)
		if !ok {
			if !g.Call.Ellipsis.IsValid() {
				c.sendHelperSpawn(cur, g.Call, analysis.TextEdit{Pos: g.Pos(), End: g.Call.Pos()})
			}
			continue
		}
		if len(lit.Body.List) != 1 {
			continue
		}
		if es, ok := lit.Body.List[0].(*ast.ExprStmt); ok {
			if call, ok := ast.Unparen(es.X).(*ast.CallExpr); ok {
				if text, ok := c.inlinedCall(g, lit, call); ok {
					c.sendHelperSpawn(cur, call, edits.Replace(g, text))
				}
			}
			continue
		}
		send, ok := lit.Body.List[0].(*ast.SendStmt)
		var stop *ast.SelectStmt // select { case ch <- v: case <-s.closing: }
		if !ok {
			sel, isSel := lit.Body.List[0].(*ast.SelectStmt)
			if !isSel {
				continue
			}
			if send = c.sendOrStop(sel); send == nil {
				continue
			}
			stop = sel
		}
		ch := code.Var(info, send.Chan)
		if !c.sh.IsSharedVar(ch) || !shared.CarriesItems(ch.Type()) {
			// A channel made in this function is a one-shot result or a
			// future its caller drains later: a blocking send would deadlock.
			continue
		}
		value, ok := c.sentValue(g, lit, send)
		if !ok {
			continue // the goroutine computes what it sends: it does the work
		}
		fn := code.EnclosingFunc(cur)
		if !fn.Valid() {
			continue
		}
		if _, ok := c.bounded(kindPerSend, candidate{cur: cur, fn: fn, ch: ch}); ok {
			continue
		}
		sendText := edits.Source(c.pass, send.Chan) + " <- " + value
		what, remedy := "only sends to "+edits.Source(c.pass, send.Chan), "send directly"
		fixable := true
		if stop != nil {
			// The same select, run in place: it still ends at shutdown.
			sendText = edits.Source(c.pass, stop)
			what += ", or stops at shutdown,"
			remedy = "run its select in place"
			// A value the literal takes as a parameter would need renaming
			// inside the select: the fix is left to the reader.
			fixable = value == edits.Source(c.pass, send.Value)
		}
		f := &shared.Finding{
			Diag: analysis.Diagnostic{
				Pos:      g.Pos(),
				End:      g.End(),
				Category: "goroutinepersend",
				Message: fmt.Sprintf("goroutine that %s parks with its value until the consumer takes it, an unbounded queue in disguise under overload; %s so the channel's bound pushes back",
					what, remedy),
				Related: c.consumerOf(ch),
			},
		}
		if fixable {
			f.Msg, f.Edits = "Send directly instead of from a new goroutine", []analysis.TextEdit{edits.Replace(g, sendText)}
		}
		c.persend[g] = true
		c.findings = append(c.findings, f)
	}
}

// sendOrStop returns the send of sel when sel only sends or stops: one
// send case and receive cases from a stop channel the goroutine's owner
// holds (a field or package variable of empty structs, closed at shutdown),
// each with an empty body, and no default. Such a select ends only when
// the consumer takes the value or the service stops: under overload it
// parks like a bare send. A per-call ctx.Done() or a timer bounds how long
// it waits, and is left alone.
func (c *checker) sendOrStop(sel *ast.SelectStmt) *ast.SendStmt {
	info := c.pass.TypesInfo
	var send *ast.SendStmt
	stops := 0
	for _, st := range sel.Body.List {
		cc := st.(*ast.CommClause)
		if len(cc.Body) > 0 {
			return nil
		}
		switch comm := cc.Comm.(type) {
		case *ast.SendStmt:
			if send != nil {
				return nil
			}
			send = comm
		case *ast.ExprStmt:
			recv := shared.ReceiveIn(comm)
			if recv == nil {
				return nil
			}
			v := code.Var(info, recv.X)
			if !c.sh.IsSharedVar(v) {
				return nil
			}
			ch, ok := v.Type().Underlying().(*types.Chan)
			if !ok || !code.IsEmptyStruct(ch.Elem()) {
				return nil
			}
			stops++
		default:
			return nil // a default, or a receive that keeps a value
		}
	}
	if stops == 0 {
		return nil
	}
	return send
}

// sendHelperSpawn reports go a.enqueue(x), or go func() { a.enqueue(x) }(),
// where enqueue, in this package or (through a fact) another, only sends its
// parameter on a channel that outlives the call: the goroutine is
// go func() { a.in <- x }() in another spelling. The go statement's
// arguments are evaluated before it starts, so calling the helper directly
// (the edit) sends the same value.
func (c *checker) sendHelperSpawn(cur inspector.Cursor, call *ast.CallExpr, edit analysis.TextEdit) {
	g := cur.Node().(*ast.GoStmt)
	h, fn := c.res.HelperCall(call)
	if h == nil || h.Send == nil || fn == nil || call.Ellipsis.IsValid() {
		return
	}
	ch := c.res.SendChan(call, fn, h.Send)
	if ch == nil || !shared.CarriesItems(ch.Type()) {
		return
	}
	encl := code.EnclosingFunc(cur)
	if !encl.Valid() {
		return
	}
	if _, ok := c.bounded(kindPerSend, candidate{cur: cur, fn: encl, ch: ch}); ok {
		return
	}
	var related []analysis.RelatedInformation
	if ch.Pkg() == c.pass.Pkg {
		related = c.consumerOf(ch)
	}
	name := h.Send.Chan
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && h.Send.Field != "" {
		name = edits.Source(c.pass, sel.X) + "." + h.Send.Field // as the caller would name it
	}
	c.persend[g] = true
	c.findings = append(c.findings, &shared.Finding{
		Diag: analysis.Diagnostic{
			Pos:      g.Pos(),
			End:      g.End(),
			Category: "goroutinepersend",
			Message: fmt.Sprintf("goroutine that only sends to %s (in %s) parks with its value until the consumer takes it, an unbounded queue in disguise under overload; call %s directly so the channel's bound pushes back",
				name, code.DisplayName(fn), fn.Name()),
			Related: related,
		},
		Msg:   "Call " + fn.Name() + " directly instead of in a new goroutine",
		Edits: []analysis.TextEdit{edit},
	})
}

// inlinedCall returns the call a goroutine's literal makes, written as the
// go statement's caller would make it, when its operands are already
// computed: the literal's parameters appear only as whole arguments (they
// become the go statement's arguments), and nothing else calls or receives.
func (c *checker) inlinedCall(g *ast.GoStmt, lit *ast.FuncLit, call *ast.CallExpr) (string, bool) {
	info := c.pass.TypesInfo
	params, ok := literalArgs(info, g, lit)
	if !ok || call.Ellipsis.IsValid() || !c.sh.IsComputed(call.Fun) || shared.RefersTo(info, call.Fun, params) {
		return "", false
	}
	args := make([]string, len(call.Args))
	for j, a := range call.Args {
		if !c.sh.IsComputed(a) {
			return "", false
		}
		if id, ok := ast.Unparen(a).(*ast.Ident); ok {
			if arg, ok := params[info.Uses[id]]; ok {
				args[j] = edits.Source(c.pass, arg)
				continue
			}
		}
		if shared.RefersTo(info, a, params) {
			return "", false
		}
		args[j] = edits.Source(c.pass, a)
	}
	return edits.Source(c.pass, call.Fun) + "(" + strings.Join(args, ", ") + ")", true
}

// literalArgs maps the parameters of the literal a go statement starts to
// the go statement's arguments; false when they do not pair up one to one.
func literalArgs(info *types.Info, g *ast.GoStmt, lit *ast.FuncLit) (map[types.Object]ast.Expr, bool) {
	params := make(map[types.Object]ast.Expr)
	i := 0
	for _, field := range lit.Type.Params.List {
		for _, name := range field.Names {
			if i < len(g.Call.Args) {
				params[info.Defs[name]] = g.Call.Args[i]
			}
			i++
		}
		if len(field.Names) == 0 {
			i++
		}
	}
	return params, i == len(g.Call.Args) && !g.Call.Ellipsis.IsValid()
}

// sentValue returns the source of the value the goroutine sends, as the
// go statement's caller would write it, when that value is already computed:
// it calls nothing (conversions and len/cap aside), receives nothing, and
// refers to the literal's parameters only as the whole value.
func (c *checker) sentValue(g *ast.GoStmt, lit *ast.FuncLit, send *ast.SendStmt) (string, bool) {
	info := c.pass.TypesInfo
	params, ok := literalArgs(info, g, lit)
	if !ok {
		return "", false
	}
	if !c.sh.IsComputed(send.Chan) || !c.sh.IsComputed(send.Value) || shared.RefersTo(info, send.Chan, params) {
		return "", false
	}
	if id, ok := ast.Unparen(send.Value).(*ast.Ident); ok {
		if arg, ok := params[info.Uses[id]]; ok {
			return edits.Source(c.pass, arg), true
		}
	}
	if shared.RefersTo(info, send.Value, params) {
		return "", false
	}
	return edits.Source(c.pass, send.Value), true
}

// receivesIn reports whether the function declaration around fn receives from
// ch outside the goroutines it starts: it consumes what it would send, and a
// blocking send there would deadlock.
func (c *checker) receivesIn(fn inspector.Cursor, ch *types.Var) bool {
	top := fn
	for f := range fn.Enclosing((*ast.FuncDecl)(nil)) {
		top = f
	}
	for cur := range top.Preorder((*ast.UnaryExpr)(nil), (*ast.RangeStmt)(nil)) {
		if code.Var(c.pass.TypesInfo, shared.ReceivedFrom(cur.Node())) != ch {
			continue
		}
		otherGoroutine := false
		for lit := range cur.Enclosing((*ast.FuncLit)(nil)) {
			if top.Contains(lit) && code.IsSpawnedLit(lit) {
				otherGoroutine = true
			}
		}
		if !otherGoroutine {
			return true
		}
	}
	return false
}

// locksHeldAt reports whether a sync mutex is held at site: a goroutine that
// sends from under a lock may exist so that the consumer, which takes the
// same lock, cannot deadlock with the sender.
func (c *checker) locksHeldAt(site, fn inspector.Cursor) bool {
	return len(c.sh.HeldLocks(site, fn)) > 0
}

// consumerOf points at the first receive from ch in the package, or at its
// declaration when the package never receives from it.
func (c *checker) consumerOf(ch *types.Var) []analysis.RelatedInformation {
	for file := range c.insp.Root().Children() {
		if c.rep.Skip(file.Node().(*ast.File)) {
			continue
		}
		for cur := range file.Preorder((*ast.UnaryExpr)(nil), (*ast.RangeStmt)(nil)) {
			if x := shared.ReceivedFrom(cur.Node()); x != nil && code.Var(c.pass.TypesInfo, x) == ch {
				n := cur.Node()
				return []analysis.RelatedInformation{{Pos: n.Pos(), End: n.End(), Message: "the consumer receives here"}}
			}
		}
	}
	return []analysis.RelatedInformation{{Pos: ch.Pos(), End: ch.Pos() + token.Pos(len(ch.Name())), Message: "channel declared here"}}
}

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
		case fn.Pkg().Path() == "golang.org/x/sync/errgroup" && t == "Group":
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
			items = append(items, perItem{sp, cur, stream, pulled})
		}
		lim := newLoopLimit(loop, items, fmt.Sprint(c.inFlight))
		for _, it := range items {
			c.findings = append(c.findings, c.itemFinding(it, lim))
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
func (c *checker) spawnName(sp spawn) string {
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

// pullReads names the methods of package net that read the next datagram
// of a packet connection: a loop that starts a goroutine per datagram has
// nothing between the sender's rate and the goroutines in flight.
var pullReads = map[string]bool{
	"ReadFrom": true, "ReadFromUDP": true, "ReadFromUDPAddrPort": true,
	"ReadMsgUDP": true, "ReadMsgUDPAddrPort": true, "ReadFromIP": true,
	"ReadMsgIP": true, "ReadFromUnix": true, "ReadMsgUnix": true,
}

// messageReads names the methods that, by the conventions of message
// clients (kafka-go's ReadMessage and FetchMessage, NATS's NextMsg, a gRPC
// stream's Recv, a WebSocket's ReadMessage), take the next message of a
// stream the client pulls from.
var messageReads = map[string]bool{
	"ReadMessage": true, "FetchMessage": true, "NextMsg": true,
	"NextMessage": true, "ReceiveMessage": true, "Recv": true,
	"Receive": true, "Respond": true, // CloudEvents' protocol.Receiver and Responder
	"ReadPacket": true, "WaitReadPacket": true, // sing's packet readers: a datagram
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
		if !messageReads[fn.Name()] || len(call.Args) != 1 {
			return nil
		}
		if u, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr); !ok || u.Op != token.AND {
			return nil
		}
		return call
	}
	switch {
	case fn.Pkg().Path() == "net" && pullReads[fn.Name()]:
		return call
	case messageReads[fn.Name()]:
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
			if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && code.Inside(v.Pos(), loop.Node()) {
				uses = true
			}
		}
		return !uses
	})
	return uses
}

// limitedBefore reports whether the loop body acquires a limiter before the
// spawn at spawnCur (the stream's own receive aside): a send to a semaphore
// channel, a receive from a token channel, Acquire, Wait, Take, Start,
// TryAcquire with a fallback, or a call of a function (of this package or,
// through a fact, of another) whose main path does one of those. The spawn
// itself counts when it is Go on a limited errgroup.
func (c *checker) limitedBefore(loop, spawnCur inspector.Cursor, recv ast.Node) bool {
	if _, ok := c.adm.At(spawnCur); ok {
		return true
	}
	body, _ := loop.FindNode(loopBody(loop.Node()))
	end := spawnCur.Node().Pos()
	limited := false
	body.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil)}, func(cur inspector.Cursor) bool {
		n := cur.Node()
		if limited || n.Pos() >= end {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // runs later, or elsewhere
		case *ast.CallExpr:
			if _, ok := c.adm.At(cur); ok {
				limited = c.holdsBoth(cur, spawnCur)
			}
		default:
			if n == recv {
				return true
			}
			if _, ok := c.adm.At(cur); ok {
				limited = c.holdsBoth(cur, spawnCur)
			}
		}
		return !limited
	})
	return limited
}

// holdsBoth reports whether the statement list that runs the acquire at cur
// also holds the spawn, so that every spawn is preceded by an acquire: an
// acquire in one case of a switch does not bound a go statement after it.
// An acquire in an if condition or a select's comm belongs to the list
// holding the if or select, and so does one in the body of an if whose
// condition always holds (alwaysHolds).
func (c *checker) holdsBoth(cur, spawn inspector.Cursor) bool {
	for at := cur; ; at = at.Parent() {
		p := at.Parent()
		if !p.Valid() {
			return false
		}
		switch p.Node().(type) {
		case *ast.BlockStmt:
			switch p.ParentEdgeKind() {
			case edge.SelectStmt_Body, edge.SwitchStmt_Body, edge.TypeSwitchStmt_Body:
				continue // the clauses' container, not a statement list
			case edge.IfStmt_Body:
				if !p.Contains(spawn) && c.sh.AlwaysHolds(p.Parent()) {
					continue
				}
			}
			return p.Contains(spawn)
		case *ast.CaseClause, *ast.CommClause:
			if k := at.ParentEdgeKind(); k == edge.CaseClause_Body || k == edge.CommClause_Body {
				return p.Contains(spawn)
			}
		}
	}
}

// waitsAfter reports whether the loop body, after the spawn and before the
// next item, waits: a Wait call (the WaitGroup or errgroup of this batch), or
// a receive (of the goroutine's result). Either bounds the goroutines of one
// iteration, as an errgroup with a fixed two Go calls per item and a Wait is.
// Leaving the loop after the spawn (return, break) bounds them too: the
// spawn is not per item.
func (c *checker) waitsAfter(loop, spawnCur inspector.Cursor) bool {
	body := loopBody(loop.Node())
	label := loopLabel(loop)
	inSwitch := inSwitchOf(loop, spawnCur)
	for cur := spawnCur; cur.Node() != body && cur.Parent().Valid(); cur = cur.Parent() {
		var list []ast.Stmt
		switch p := cur.Parent().Node().(type) {
		case *ast.BlockStmt:
			switch cur.Parent().Parent().Node().(type) {
			case *ast.SelectStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
				continue // the other cases do not run after this one
			}
			list = p.List
		case *ast.CaseClause:
			list = p.Body
		case *ast.CommClause:
			list = p.Body
		}
		after := false
		for _, s := range list {
			if s == cur.Node() {
				after = true
				continue
			}
			if !after {
				continue
			}
			if c.waits(s) {
				return true
			}
			switch s := s.(type) {
			case *ast.ReturnStmt:
				return true
			case *ast.BranchStmt:
				if s.Tok == token.BREAK && ((s.Label == nil && !inSwitch) || (s.Label != nil && s.Label.Name == label)) {
					return true
				}
			}
		}
	}
	return false
}

// cappedByCounter reports whether, before the spawn, the loop leaves once a
// counter it increments reaches a bound (if started == len(readers) { break }
// … go read(…); started++): the loop then starts a bounded number of
// goroutines, whatever the comparison and whatever the bound.
func (c *checker) cappedByCounter(loop, spawnCur inspector.Cursor) bool {
	info := c.pass.TypesInfo
	body := loopBody(loop.Node())
	label := loopLabel(loop)
	counters := incrementedIn(info, body)
	if len(counters) == 0 {
		return false
	}
	inSwitch := inSwitchOf(loop, spawnCur)
	for cur := spawnCur; cur.Node() != body && cur.Parent().Valid(); cur = cur.Parent() {
		list := shared.StmtList(cur.Parent().Node())
		for _, st := range list {
			if st == cur.Node() {
				break
			}
			ifs, ok := st.(*ast.IfStmt)
			if !ok || !leavesBefore(ifs.Body.List, label, inSwitch) {
				continue
			}
			if comparesCounter(info, ifs.Cond, counters) {
				return true
			}
		}
	}
	return false
}

// incrementedIn returns the integer variables declared outside body that
// body steps in one direction: n++, n += k, n = n + k, and the same counting
// down (left--, left -= k) to a bound such as zero.
func incrementedIn(info *types.Info, body *ast.BlockStmt) map[*types.Var]bool {
	out := make(map[*types.Var]bool)
	add := func(e ast.Expr) {
		if v := code.Var(info, e); v != nil && !code.Inside(v.Pos(), body) {
			if b, ok := v.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
				out[v] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IncDecStmt:
			add(n.X)
		case *ast.AssignStmt:
			if len(n.Lhs) != 1 || len(n.Rhs) != 1 {
				break
			}
			switch n.Tok {
			case token.ADD_ASSIGN, token.SUB_ASSIGN:
				add(n.Lhs[0])
			case token.ASSIGN:
				if b, ok := ast.Unparen(n.Rhs[0]).(*ast.BinaryExpr); ok && (b.Op == token.ADD || b.Op == token.SUB) && shared.SameExpr(b.X, n.Lhs[0]) {
					add(n.Lhs[0])
				}
			}
		}
		return true
	})
	return out
}

// comparesCounter reports whether cond compares one of the counters with
// something, with any comparison operator.
func comparesCounter(info *types.Info, cond ast.Expr, counters map[*types.Var]bool) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && shared.IsComparison(b.Op) {
			if counters[code.Var(info, b.X)] || counters[code.Var(info, b.Y)] {
				found = true
			}
		}
		return !found
	})
	return found
}

// leavesBefore reports whether list ends by leaving the loop labeled label
// (or unlabeled): a return, a panic, or a break of the loop.
func leavesBefore(list []ast.Stmt, label string, inSwitch bool) bool {
	if !code.Terminates(list, true) {
		return false
	}
	if s, ok := list[len(list)-1].(*ast.BranchStmt); ok {
		return s.Tok == token.BREAK && ((s.Label == nil && !inSwitch) || (s.Label != nil && s.Label.Name == label))
	}
	return true
}

// loopLabel returns the label of the loop at loop, or "".
func loopLabel(loop inspector.Cursor) string {
	if l, ok := loop.Parent().Node().(*ast.LabeledStmt); ok {
		return l.Label.Name
	}
	return ""
}

// inSwitchOf reports whether a select or switch inside the loop encloses
// cur: an unlabeled break there leaves it, not the loop.
func inSwitchOf(loop, cur inspector.Cursor) bool {
	for e := range cur.Enclosing((*ast.SelectStmt)(nil), (*ast.SwitchStmt)(nil), (*ast.TypeSwitchStmt)(nil), (*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
		if e.Node() == loop.Node() {
			return false
		}
		switch e.Node().(type) {
		case *ast.SelectStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
			return true
		}
	}
	return false
}

// guardedByCount reports whether an if between the loop and the spawn
// compares a count with a limit (inflight < max, active.Load() < limit,
// len(running) < n): the loop then runs the item inline or drops it when too
// many are in flight, which bounds the goroutines like a TryAcquire does.
//
// The guard may also come first and skip the spawn at the limit (if
// inflight.Load() >= max { handle(j); continue }), with a count that is not
// read from the iteration's own values (a skip on j.priority bounds nothing).
func (c *checker) guardedByCount(loop, spawnCur inspector.Cursor) bool {
	for e := range spawnCur.Enclosing((*ast.IfStmt)(nil), (*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
		if e.Node() == loop.Node() {
			break
		}
		if ifs, ok := e.Node().(*ast.IfStmt); ok && c.comparesCount(ifs.Cond, nil) {
			return true
		}
	}
	body := loopBody(loop.Node())
	label := loopLabel(loop)
	inSwitch := inSwitchOf(loop, spawnCur)
	for cur := spawnCur; cur.Node() != body && cur.Parent().Valid(); cur = cur.Parent() {
		for _, st := range shared.StmtList(cur.Parent().Node()) {
			if st == cur.Node() {
				break
			}
			ifs, ok := st.(*ast.IfStmt)
			if ok && skipsRest(ifs.Body.List, label, inSwitch) && c.comparesCount(ifs.Cond, loop.Node()) {
				return true
			}
		}
	}
	return false
}

// comparesCount reports whether cond compares a count of work in flight
// with something; with loop set, a count not read from a variable the loop
// declares (the item, or what the iteration computes from it).
func (c *checker) comparesCount(cond ast.Expr, loop ast.Node) bool {
	counts := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && shared.IsRelational(b.Op) {
			for _, side := range []ast.Expr{b.X, b.Y} {
				if c.sh.IsCount(side) && (loop == nil || (!c.readsIteration(side, loop) && c.changes(side, loop))) {
					counts = true
				}
			}
		}
		return !counts
	})
	return counts
}

// readsIteration reports whether e reads a variable declared inside loop
// (its header's included).
func (c *checker) readsIteration(e ast.Expr, loop ast.Node) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && code.Inside(v.Pos(), loop) {
				found = true
			}
		}
		return !found
	})
	return found
}

// changes reports whether the count e can change while the loop runs: a
// call (an atomic load) or a field, or a local variable that something in
// the function around the loop assigns after its declaration.
func (c *checker) changes(e ast.Expr, loop ast.Node) bool {
	v := code.Var(c.pass.TypesInfo, e)
	if v == nil || v.IsField() || !code.IsLocal(v) {
		return true
	}
	cur, ok := c.insp.Root().FindNode(loop)
	if !ok {
		return false
	}
	return code.ReassignedIn(c.pass.TypesInfo, code.FuncBody(code.EnclosingFunc(cur).Node()))[v]
}

// skipsRest reports whether list ends by leaving the rest of the iteration:
// it leaves the loop (see leavesBefore) or continues it.
func skipsRest(list []ast.Stmt, label string, inSwitch bool) bool {
	if leavesBefore(list, label, inSwitch) {
		return true
	}
	if len(list) == 0 {
		return false
	}
	s, ok := list[len(list)-1].(*ast.BranchStmt)
	return ok && s.Tok == token.CONTINUE && (s.Label == nil || s.Label.Name == label)
}

// waits reports whether the statement s blocks on a Wait call or a receive
// outside any function literal.
func (c *checker) waits(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" {
				found = true
			}
		}
		return !found
	})
	return found
}

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
	d, ok := c.sh.FuncDecl(producer)
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
				if s, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && (s.Sel.Name == "Send" || s.Sel.Name == "SendMsg") && code.Var(c.pass.TypesInfo, s.X) == v {
					replies = true
				}
			}
			return !replies
		})
	}
	return replies
}

// isAMQP reports whether path is an AMQP 0.9.1 client package.
func isAMQP(path string) bool {
	return path == "github.com/streadway/amqp" || path == "github.com/rabbitmq/amqp091-go"
}

// The goroutine per item may be per entity (a subscription, a connection)
// rather than a task per message: the items are connections or other
// resources with a Close method (streams, files), or hand one out
// (entityItems); the goroutine loops over a stream, itself or in a function
// of this package it calls (longLived); or it lives until the loop's owner
// stops (untilStop). Items that carry a reply channel are still messages.

// entityItems reports whether the items of stream are entities.
func (c *checker) entityItems(stream ast.Expr) bool {
	if t := c.pass.TypesInfo.TypeOf(stream); t != nil {
		if ch, ok := t.Underlying().(*types.Chan); ok && (hasClose(ch.Elem()) || holdsConn(ch.Elem()) || acceptsStream(ch.Elem())) {
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
			if d, ok := c.sh.FuncDecl(c.sh.Callee(call)); ok && loopsForever(c.pass.TypesInfo, code.FuncBody(d.Node())) {
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
// supervisor restarting a fixed set), so their number does not grow.
func (c *checker) restartsWorker(sp spawn, stream ast.Expr) bool {
	ch := code.Var(c.pass.TypesInfo, stream)
	body := c.spawnedBody(sp)
	if ch == nil || body == nil {
		return false
	}
	sends := false
	ast.Inspect(body, func(n ast.Node) bool {
		if s, ok := n.(*ast.SendStmt); ok && code.Var(c.pass.TypesInfo, s.Chan) == ch {
			sends = true
		}
		return !sends
	})
	return sends
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
			if decl, ok := c.sh.FuncDecl(obj.Origin()); ok {
				return code.FuncBody(decl.Node())
			}
		case *types.Var:
			if lit := c.localFuncLit(obj); lit != nil {
				return lit.Body
			}
		}
	case *ast.SelectorExpr:
		if fn, ok := info.Uses[f.Sel].(*types.Func); ok {
			if decl, ok := c.sh.FuncDecl(fn.Origin()); ok {
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
func isStream(t types.Type) bool {
	for _, name := range []string{"Read", "Write", "Close"} {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		if _, ok := obj.(*types.Func); !ok {
			return false
		}
	}
	return true
}

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
func isConn(t types.Type) bool {
	for _, name := range []string{"Read", "Write", "Close", "RemoteAddr"} {
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
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			if n.Cond == nil || receivesOrSelects(n.Body) {
				found = true
			}
		case *ast.RangeStmt:
			if t := info.TypeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Chan); ok {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func receivesOrSelects(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectStmt:
			found = true
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		}
		return !found
	})
	return found
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

// itemFinding builds the goroutineperitem diagnostic, with a fix where one
// is safe.
func (c *checker) itemFinding(it perItem, lim *loopLimit) *shared.Finding {
	sp := it.sp
	what := c.spawnName(sp)
	from, why := "received from", "the channel never fills, so it never pushes back on the producer"
	if it.pulled {
		from, why = "read from", "the loop reads the next one at once, so nothing pushes back on the sender"
	}
	f := &shared.Finding{
		Diag: analysis.Diagnostic{
			Pos:      sp.stmt.Pos(),
			End:      sp.stmt.End(),
			Category: "goroutineperitem",
			Message: fmt.Sprintf("%s per item %s %s with nothing bounding how many run at once: %s; acquire a semaphore before starting each one",
				what, from, edits.Source(c.pass, it.stream), why),
			Related: []analysis.RelatedInformation{{Pos: it.stream.Pos(), End: it.stream.End(), Message: "items arrive here"}},
		},
	}
	switch c.limitFix(f, it, lim) {
	case limitedGroup:
		f.Diag.Message = fmt.Sprintf("%s per item %s %s with nothing bounding how many run at once: %s; give the group a limit with SetLimit",
			what, from, edits.Source(c.pass, it.stream), why)
	case unlimited:
		if _, _, watched := c.doneCase(lim.loop); watched {
			f.Diag.Message += ", in a select that also waits on ctx.Done()"
		}
	}
	return f
}

// How limitFix bounded a spawn.
const (
	unlimited          = iota // no fix
	limitedGroup              // g.SetLimit
	limitedBySemaphore        // a semaphore channel
)

// limitFix completes f with the fix that bounds the spawn of it by lim's
// size: SetLimit on an errgroup that can take it, else the loop's
// semaphore. It returns which, or unlimited when no edit is safe.
func (c *checker) limitFix(f *shared.Finding, it perItem, lim *loopLimit) int {
	if it.sp.kind == "errgroup" {
		if es, ok := c.setLimitEdits(it.sp, lim.loop, lim.size); ok {
			f.Msg, f.Edits = "Limit the group's goroutines in flight with SetLimit", es
			return limitedGroup
		}
	}
	if es, ok := c.semaphoreEdits(it.sp, lim, it.cur); ok {
		f.Msg, f.Edits = "Bound the goroutines in flight with a semaphore", es
		return limitedBySemaphore
	}
	return unlimited
}

// setLimitEdits returns the edit that gives the errgroup of the spawn a
// limit: g.SetLimit(N) on a line of its own right after the statement that
// declares the group, before any Go, since SetLimit panics while goroutines
// of the group run; or, where the group's limit is removed with SetLimit(-1),
// N in its place. It reports false when every Go of the group is not in the
// loop (a limit would also hold back the group's other, perhaps long-lived,
// goroutines), when the group has TryGo calls (a limit makes them fail), or
// when the declaration cannot take a line after it.
func (c *checker) setLimitEdits(sp spawn, loop inspector.Cursor, limit string) ([]analysis.TextEdit, bool) {
	g := sp.group
	fn := code.EnclosingFunc(loop)
	if g == nil || !fn.Valid() {
		return nil, false
	}
	var setLimit *ast.CallExpr
	for cur := range fn.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || code.Var(c.pass.TypesInfo, sel.X) != g {
			continue
		}
		switch sel.Sel.Name {
		case "Go":
			if !loop.Contains(cur) {
				return nil, false
			}
		case "TryGo":
			return nil, false
		case "SetLimit":
			if setLimit != nil || len(call.Args) != 1 {
				return nil, false
			}
			setLimit = call
		}
	}
	if setLimit != nil {
		return []analysis.TextEdit{edits.Replace(setLimit.Args[0], limit)}, true
	}
	id, ok := c.insp.Root().FindByPos(g.Pos(), g.Pos()+token.Pos(len(g.Name())))
	if !ok {
		return nil, false
	}
	decl := code.StmtOf(id)
	if !decl.Valid() || !shared.InStatementList(decl) || !c.sh.StartsLine(decl.Node().Pos()) || c.sh.EndsLineWithCode(decl.Node()) {
		return nil, false
	}
	return []analysis.TextEdit{c.sh.InsertLinesAfter(decl.Node(), g.Name()+".SetLimit("+limit+")")}, true
}

// semaphoreEdits returns the edits that bound the spawn with the loop's
// semaphore: made before the loop, acquired before the spawn, released when
// the goroutine ends. Where the loop watches ctx.Done(), the acquire watches
// it too and leaves the way the loop does, so that shutdown does not wait
// for a slot.
func (c *checker) semaphoreEdits(sp spawn, lim *loopLimit, spawnCur inspector.Cursor) ([]analysis.TextEdit, bool) {
	loop := lim.loop
	file := c.sh.FileOf(sp.stmt.Pos())
	if file == nil {
		return nil, false
	}
	// The semaphore is made before the loop, or before its label: gofmt
	// outdents labels, so the new line takes the indentation of the for.
	loopStmt := loop
	if _, ok := loop.Parent().Node().(*ast.LabeledStmt); ok {
		loopStmt = loop.Parent()
	}
	stmtCur := spawnCur
	if _, isGo := sp.stmt.(*ast.GoStmt); !isGo {
		stmtCur = spawnCur.Parent()
	}
	if !c.sh.StartsLine(loopStmt.Node().Pos()) || !c.sh.StartsLine(loop.Node().Pos()) || !shared.InStatementList(loopStmt) ||
		!c.sh.StartsLine(sp.stmt.Pos()) || !shared.InStatementList(stmtCur) || c.sh.JumpedOver(loopStmt, loopStmt.Node().Pos()) {
		return nil, false
	}
	if lim.sem == "" {
		lim.sem = c.names.Local(loopStmt.Node().Pos(), "sem", lim.uses...)
	}
	sem := lim.sem
	release := "defer func() { <-" + sem + " }()"
	acquire := sem + " <- struct{}{}"
	var early ast.Stmt // where the acquire goes when not right before the spawn
	if done, leave, watched := c.doneCase(loop); watched {
		// Leaving between a WaitGroup's Add and the spawn would leave the
		// group waiting for a goroutine that never starts: acquire first.
		at := sp.stmt.Pos()
		add, outer := c.waitGroupAddBefore(loop, stmtCur)
		if outer {
			return nil, false // counted in a block around the spawn's
		}
		if add != nil {
			early, at = add, add.Pos()
		}
		if leave == nil || !c.sh.VisibleAt(done, at) {
			return nil, false // the acquire must watch ctx.Done(), and cannot leave as the loop does
		}
		var lines []string
		for _, st := range leave {
			if !c.sh.VisibleAt(st, at) {
				return nil, false
			}
			lines = append(lines, edits.Source(c.pass, st))
		}
		acquire = "select {\ncase " + acquire + ":\ncase <-" + edits.Source(c.pass, done) + ":\n" + strings.Join(lines, "\n") + "\n}"
	}
	spawnAcquire := acquire
	if early != nil {
		spawnAcquire = ""
	}
	es, ok := c.releaseEdits(sp, loop, spawnCur, file, spawnAcquire, release)
	if !ok {
		return nil, false
	}
	if early != nil {
		es = append(es, edits.InsertBefore(c.pass, early, acquire))
	}
	return append(es, c.sh.InsertLinesBefore(loopStmt.Node(), loop.Node().Pos(), fmt.Sprintf("%s := make(chan struct{}, %s)", sem, lim.size))), true
}

// waitGroupAddBefore returns the first statement, before the spawn's
// statement in its list, that adds to a sync.WaitGroup, or nil; outer
// reports such a statement before a statement around the spawn's, inside
// the loop, where no acquire placed in the spawn's list can precede it.
func (c *checker) waitGroupAddBefore(loop, stmtCur inspector.Cursor) (first ast.Stmt, outer bool) {
	for cur := stmtCur; cur.Valid() && cur != loop; cur = cur.Parent() {
		switch cur.Node().(type) {
		case *ast.CaseClause, *ast.CommClause:
			continue // the other cases do not run before this one
		case ast.Stmt:
		default:
			continue
		}
		for prev, ok := cur.PrevSibling(); ok; prev, ok = prev.PrevSibling() {
			st, isStmt := prev.Node().(ast.Stmt)
			if !isStmt || !c.addsToWaitGroup(st) {
				continue
			}
			if cur != stmtCur {
				return nil, true
			}
			first = st
		}
	}
	return first, false
}

// addsToWaitGroup reports whether n calls Add of a sync.WaitGroup.
func (c *checker) addsToWaitGroup(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := code.Callee(c.pass.TypesInfo, call); fn != nil && code.IsMethod(fn, "sync", "WaitGroup", "Add") {
				found = true
			}
		}
		return !found
	})
	return found
}

// doneCase finds how the loop watches for cancellation: a select case
// receiving from ctx.Done() (of a context.Context) in the loop's own body.
// It returns the Done() call and the statements of that case when they
// leave the loop for good (a return, a break or continue of the loop's
// label, a panic); leave is nil when the case does something else. watched
// is false when the loop does not watch a context.
func (c *checker) doneCase(loop inspector.Cursor) (done ast.Expr, leave []ast.Stmt, watched bool) {
	info := c.pass.TypesInfo
	label := loopLabel(loop)
	body, _ := loop.FindNode(loopBody(loop.Node()))
	for cur := range body.Preorder((*ast.CommClause)(nil)) {
		if shared.NearestLoop(cur) != loop.Node() {
			continue
		}
		cc := cur.Node().(*ast.CommClause)
		recv := shared.CommRecv(cc.Comm)
		if recv == nil {
			continue
		}
		call, ok := ast.Unparen(recv.X).(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			continue
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Done" || !code.IsContext(info.TypeOf(sel.X)) {
			continue
		}
		if !code.Terminates(cc.Body, true) || !leavesLoop(cc.Body, label) {
			return call, nil, true
		}
		return call, cc.Body, true
	}
	return nil, nil, false
}

// leavesLoop reports whether the branch statements of list, copied into a
// select of their own inside the loop, still leave the loop: an unlabeled
// break would leave only that select, and a label other than the loop's
// might not enclose it.
func leavesLoop(list []ast.Stmt, label string) bool {
	ok := true
	for _, s := range list {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				switch {
				case n.Tok == token.GOTO:
					ok = false
				case n.Label == nil:
					ok = ok && n.Tok == token.CONTINUE
				default:
					ok = ok && n.Label.Name == label
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				ok = false // branches inside would mean something else
			}
			return ok
		})
	}
	return ok
}

// releaseEdits returns the edits that acquire the semaphore before the spawn
// and release it when the goroutine ends: a deferred receive as the first
// statement of a function literal, or, for go f(x) and g.Go(f), a literal
// wrapped around the call. An empty acquire is made elsewhere by the caller.
func (c *checker) releaseEdits(sp spawn, loop, spawnCur inspector.Cursor, file *ast.File, acquire, release string) ([]analysis.TextEdit, bool) {
	if lit, ok := ast.Unparen(sp.fun).(*ast.FuncLit); ok {
		if len(lit.Body.List) == 0 {
			return nil, false
		}
		if e, ok := c.sh.InsertLineAfterBrace(lit.Body, release); ok {
			if acquire == "" {
				return []analysis.TextEdit{e}, true
			}
			return []analysis.TextEdit{edits.InsertBefore(c.pass, sp.stmt, acquire), e}, true
		}
		// A one-line literal: rewrite the statement, gofmt lays it out.
		src := edits.Source(c.pass, sp.stmt)
		at := int(lit.Body.Lbrace - sp.stmt.Pos() + 1)
		if acquire != "" {
			acquire += "\n"
		}
		text, ok := edits.FormatStmts(acquire+src[:at]+"\n"+release+"\n"+src[at:], edits.Indent(c.pass, sp.stmt.Pos()))
		if !ok {
			return nil, false
		}
		return []analysis.TextEdit{edits.Replace(sp.stmt, text)}, true
	}

	pre, call, ok := c.wrapCall(sp, loop, spawnCur, file)
	if !ok {
		return nil, false
	}
	var stmt string
	switch sp.kind {
	case "go":
		stmt = "go func() {\n" + release + "\n" + call + "\n}()"
	case "errgroup":
		stmt = edits.Source(c.pass, sp.call.Fun) + "(func() error {\n" + release + "\nreturn " + call + "\n})"
	case "waitgroup":
		stmt = edits.Source(c.pass, sp.call.Fun) + "(func() {\n" + release + "\n" + call + "\n})"
	}
	var lines []string
	if acquire != "" {
		lines = append(lines, acquire)
	}
	text, ok := edits.FormatStmts(strings.Join(append(append(lines, pre...), stmt), "\n"), edits.Indent(c.pass, sp.stmt.Pos()))
	if !ok {
		return nil, false
	}
	return []analysis.TextEdit{edits.Replace(sp.stmt, text)}, true
}

// wrapCall returns the call the wrapping literal makes, and the statements
// that must run before the spawn so that the goroutine sees the values the
// original spawn evaluated when it started: the function and arguments are
// evaluated at the go statement, the literal's body runs later. Expressions
// that do work (calls, receives) or read variables that change before the
// goroutine runs are hoisted into fresh variables; loop variables shared
// between iterations (before Go 1.22) are copied.
func (c *checker) wrapCall(sp spawn, loop, spawnCur inspector.Cursor, file *ast.File) ([]string, string, bool) {
	info := c.pass.TypesInfo
	fn := code.EnclosingFunc(loop)
	if !fn.Valid() {
		return nil, "", false
	}
	st := c.stability(fn, loop, spawnCur, file)
	var pre []string
	copied := make(map[*types.Var]bool)
	var paramNames []string
	if sig, ok := info.TypeOf(sp.fun).(*types.Signature); ok {
		for i := range sig.Params().Len() {
			paramNames = append(paramNames, sig.Params().At(i).Name())
		}
	}
	render := func(e ast.Expr, base string) (string, bool) {
		if _, tuple := info.TypeOf(e).(*types.Tuple); tuple {
			return "", false
		}
		stable, copies := st.check(e)
		if !stable {
			name := c.names.Local(sp.stmt.Pos(), base)
			pre = append(pre, name+" := "+edits.Source(c.pass, e))
			return name, true
		}
		for _, v := range copies {
			if !copied[v] {
				copied[v] = true
				pre = append(pre, v.Name()+" := "+v.Name())
			}
		}
		return edits.Source(c.pass, e), true
	}
	fun, ok := render(sp.fun, "fn")
	if !ok {
		return nil, "", false
	}

	var args []string
	for i, a := range sp.args {
		base := "arg"
		if i < len(paramNames) && paramNames[i] != "" && paramNames[i] != "_" {
			base = paramNames[i]
		}
		s, ok := render(a, base)
		if !ok {
			return nil, "", false
		}
		args = append(args, s)
	}
	call := fun + "(" + strings.Join(args, ", ")
	if sp.call.Ellipsis.IsValid() && sp.kind == "go" {
		call += "..."
	}
	if len(pre) > 0 && c.sh.JumpedOver(spawnCur, sp.stmt.Pos()) {
		return nil, "", false // the variables would be jumped over
	}
	return pre, call + ")", true
}

// stability knows which variables keep their value between a spawn and the
// moment its goroutine reads them.
type stability struct {
	c        *checker
	fn       ast.Node
	loop     ast.Node
	spawn    token.Pos
	oldLoops bool                // the file predates per-iteration loop variables (Go 1.22)
	assigned map[*types.Var]bool // assigned within the loop, or after the spawn
	headers  map[*types.Var]bool // declared by the header of a loop around the spawn
}

func (c *checker) stability(fn, loop, spawnCur inspector.Cursor, file *ast.File) *stability {
	info := c.pass.TypesInfo
	st := &stability{
		c:       c,
		fn:      fn.Node(),
		loop:    loop.Node(),
		spawn:   spawnCur.Node().Pos(),
		headers: make(map[*types.Var]bool),
	}
	v := info.FileVersions[file]
	if v == "" {
		v = c.pass.Pkg.GoVersion()
	}
	st.oldLoops = v != "" && version.Compare(v, "go1.22") < 0

	st.assigned = code.ReassignedIn(info, loop.Node())
	for v := range changedInPlace(info, loop.Node()) {
		st.assigned[v] = true
	}
	for l := range spawnCur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
		if l.Node().Pos() < fn.Node().Pos() {
			break
		}
		switch n := l.Node().(type) {
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						if v, ok := info.Defs[id].(*types.Var); ok {
							st.headers[v] = true
						}
					}
				}
			}
		case *ast.ForStmt:
			if init, ok := n.Init.(*ast.AssignStmt); ok && init.Tok == token.DEFINE {
				for _, e := range init.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						if v, ok := info.Defs[id].(*types.Var); ok {
							st.headers[v] = true
						}
					}
				}
			}
		}
	}
	return st
}

// check reports whether expr can be evaluated inside the goroutine with the
// result the spawn would have had, and which loop variables must be copied
// for that.
func (st *stability) check(expr ast.Expr) (stable bool, copies []*types.Var) {
	info := st.c.pass.TypesInfo
	stable = true
	ast.Inspect(expr, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, ok := info.Types[n.Fun]; !ok || !tv.IsType() {
				stable = false
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				stable = false
			}
		case *ast.FuncLit, *ast.StarExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.SliceExpr, *ast.TypeAssertExpr:
			if tv, ok := info.Types[n.(ast.Expr)]; ok && tv.IsType() {
				return false
			}
			if _, generic := n.(*ast.IndexExpr); generic && isInstantiation(info, n.(ast.Expr)) {
				return false
			}
			stable = false // reads memory that may change before the goroutine runs
		case *ast.Ident:
			v, ok := info.Uses[n].(*types.Var)
			if !ok || v.IsField() || v.Parent() == st.c.pass.Pkg.Scope() || v.Pos() < st.fn.Pos() || v.Pos() >= st.fn.End() {
				return true // a constant, a function, a field, package state
			}
			switch {
			case st.headers[v] && st.oldLoops:
				copies = append(copies, v)
			case st.assigned[v] && (v.Pos() < st.loop.Pos() || !code.Inside(v.Pos(), loopBody(st.loop))):
				stable = false // changes every iteration; the goroutine would see a later value
			case st.assigned[v] && st.assignedAfterSpawn(v):
				stable = false
			}
		}
		return stable
	})
	return stable, copies
}

// assignedAfterSpawn reports whether v is assigned in the loop after the
// spawn, whole or through a field or element it holds by value (v.n++).
func (st *stability) assignedAfterSpawn(v *types.Var) bool {
	info := st.c.pass.TypesInfo
	found := false
	changes := func(e ast.Expr) bool { return code.Var(info, e) == v || valueRoot(info, e) == v }
	ast.Inspect(st.loop, func(n ast.Node) bool {
		if n == nil || n.Pos() <= st.spawn {
			return !found
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				found = found || changes(lhs)
			}
		case *ast.IncDecStmt:
			found = found || changes(n.X)
		}
		return !found
	})
	return found
}

// changedInPlace returns the local variables that node changes through a
// field or array element they hold by value: j.id++, p.pos.x = 0.
func changedInPlace(info *types.Info, node ast.Node) map[*types.Var]bool {
	out := make(map[*types.Var]bool)
	ast.Inspect(node, func(n ast.Node) bool {
		var lhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs = n.Lhs
		case *ast.IncDecStmt:
			lhs = []ast.Expr{n.X}
		}
		for _, e := range lhs {
			if v := valueRoot(info, e); v != nil {
				out[v] = true
			}
		}
		return true
	})
	return out
}

// valueRoot returns the local variable at the root of x.f.g or x[i] when
// every step goes through a value (a struct or an array, no pointer, slice
// or map): changing the expression changes that variable. Otherwise nil.
func valueRoot(info *types.Info, e ast.Expr) *types.Var {
	for {
		var x ast.Expr
		switch n := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			x = n.X
		case *ast.IndexExpr:
			x = n.X
		default:
			return nil
		}
		t := info.TypeOf(x)
		if t == nil {
			return nil
		}
		switch t.Underlying().(type) {
		case *types.Struct, *types.Array:
		default:
			return nil
		}
		if id, ok := ast.Unparen(x).(*ast.Ident); ok {
			v, _ := info.Uses[id].(*types.Var)
			if v != nil && code.IsLocal(v) {
				return v
			}
			return nil
		}
		e = x
	}
}

// isInstantiation reports whether expr instantiates a generic function.
func isInstantiation(info *types.Info, expr ast.Expr) bool {
	var id *ast.Ident
	switch e := ast.Unparen(expr).(type) {
	case *ast.IndexExpr:
		id, _ = ast.Unparen(e.X).(*ast.Ident)
		if sel, ok := ast.Unparen(e.X).(*ast.SelectorExpr); ok {
			id = sel.Sel
		}
	case *ast.IndexListExpr:
		id, _ = ast.Unparen(e.X).(*ast.Ident)
		if sel, ok := ast.Unparen(e.X).(*ast.SelectorExpr); ok {
			id = sel.Sel
		}
	}
	if id == nil {
		return false
	}
	_, ok := info.Instances[id]
	return ok
}
