package spawn

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// Goroutines left parked on a send: a function makes an unbuffered
// channel, starts a goroutine that sends on it (a result, an error), and
// can return without taking the value — the receive is a case of a select
// whose other case returns (ctx.Done(), a timer), a return comes first on
// some path, or, with several senders, the loop that receives returns
// before the last. The goroutine then stays parked on its send for the
// life of the process: one more per call that returns so, and calls return
// so exactly when the backend is slow or failing.
//
// The channel must be the function's own (neverClosed: made by it, used
// only to send, receive, range, ask len or cap of, closed only by the
// sender after its sends), every send of it
// in the goroutine's literal as a statement of its own (a send in a select
// may give up), and every receive in the function's body, outside function
// literals: another receiver could take the value.
//
// A buffer of one lets the one send complete whether or not the function
// still waits (the idiom reviewers call the canonical no-leak one): the fix
// when one goroutine sends once, outside loops. Several senders need a
// buffer as large as their number, which the code must say.

// abandonedSenders reports the goroutines that send on an unbuffered
// channel their function may stop receiving from.
func (c requestSpawns) abandonedSenders() {
	for cur, fn := range c.repeatedGoStmts() {
		gs := cur.Node().(*ast.GoStmt)
		ch, sends, body := c.sender(fn, gs)
		if ch == nil {
			continue
		}
		mk := c.unbufferedMake(fn, ch)
		if mk == nil {
			continue
		}
		recvs, ok := c.receivesInBody(fn, ch)
		if !ok {
			continue
		}
		exit, why := c.leavesWithoutReceiving(fn, cur, recvs, c.exitSignals(fn, gs, ch))
		if exit == nil && (shared.NearestLoop(cur) != nil || slices.ContainsFunc(sends, func(s *ast.SendStmt) bool { return inLoopOf(s, body) })) {
			exit, why = rangeLeavesEarly(recvs)
		}
		if exit == nil || c.reported(gs) {
			continue
		}
		if c.lifecycleEnd(fn, exit) {
			c.silenced(ruleLifecycle, cur)
			continue
		}
		c.asked[cur.Node()] = true
		single := len(sends) == 1 && shared.NearestLoop(cur) == nil && !inLoopOf(sends[0], body)
		c.findings = append(c.findings, abandonedFinding(c.sh, gs, fn, ch, mk, exit, why, single))
	}
}

var ruleLifecycle = newRule("lifecycle-end", "the function that leaves the sender parked is a method named as a component's lifecycle (knowledge list lifecycle-methods: Start, Run, Serve) and leaves when its context parameter ends: it runs once per component, and what it leaves at shutdown does not grow with load", nil)

// lifecycleEnd reports whether fn is a method of the lifecycle-methods
// list and the way out exit is the case of its context's Done.
func (c requestSpawns) lifecycleEnd(fn inspector.Cursor, exit ast.Node) bool {
	decl, ok := fn.Node().(*ast.FuncDecl)
	if !ok || decl.Recv == nil || !knowledge.LifecycleMethods.Has(decl.Name.Name) {
		return false
	}
	cc, ok := exit.(*ast.CommClause)
	if !ok {
		return false
	}
	es, ok := cc.Comm.(*ast.ExprStmt)
	if !ok {
		return false
	}
	u, ok := ast.Unparen(es.X).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return false
	}
	call, ok := ast.Unparen(u.X).(*ast.CallExpr)
	if !ok || code.CalleeName(call) != "Done" {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && isParam(c.pass.TypesInfo, fn.Node(), code.Var(c.pass.TypesInfo, sel.X)) && code.IsContext(c.pass.TypesInfo.TypeOf(sel.X))
}

// sender returns the channel the goroutine of gs sends on, a channel fn
// made and owns, with the sends and the body they are in: the go
// statement's literal, or the body of the function of this package it
// runs (go produce(ch, parts)), whose parameter the channel is given to.
// The channel is owned when fn makes it and only sends, receives, ranges
// over, asks len or cap of it, and hands it to the goroutine, and the
// goroutine only sends on it, asks its len or cap, and closes it after
// its sends.
func (c requestSpawns) sender(fn inspector.Cursor, gs *ast.GoStmt) (*types.Var, []*ast.SendStmt, *ast.BlockStmt) {
	info := c.pass.TypesInfo
	if lit, ok := ast.Unparen(gs.Call.Fun).(*ast.FuncLit); ok {
		ch, sends := sentChan(info, lit.Body, func(v *types.Var) bool {
			return !v.IsField() && code.Inside(v.Pos(), fn.Node()) && !code.Inside(v.Pos(), lit.Body)
		})
		if ch == nil || !c.neverClosed(fn, ch, 0, true, lit) {
			return nil, nil, nil
		}
		return ch, sends, lit.Body
	}
	callee := c.sh.Callee(gs.Call)
	if callee == nil || callee.Pkg() != c.pass.Pkg {
		return nil, nil, nil
	}
	decl, ok := c.sh.Res.FuncDecl(callee)
	if !ok {
		return nil, nil, nil
	}
	body := code.FuncBody(decl.Node())
	params := callee.Signature().Params()
	for i, arg := range gs.Call.Args {
		ch := code.Var(info, arg)
		if ch == nil || ch.IsField() || !code.IsChan(ch.Type()) || !code.Inside(ch.Pos(), fn.Node()) || i >= params.Len() {
			continue
		}
		param := params.At(i)
		pch, sends := sentChan(info, body, func(v *types.Var) bool { return v == param })
		if pch == nil || !c.onlySendsAndCloses(decl, param) || !c.onlyGivenTo(fn, ch, gs) {
			continue
		}
		return ch, sends, body
	}
	return nil, nil, nil
}

// onlySendsAndCloses reports whether fn's uses of the channel parameter ch
// are sends, len or cap, and a close.
func (c requestSpawns) onlySendsAndCloses(fn inspector.Cursor, ch *types.Var) bool {
	info := c.pass.TypesInfo
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if info.Uses[id] != ch {
			continue
		}
		switch p := cur.Parent().Node().(type) {
		case *ast.SendStmt:
			if p.Chan != id {
				return false
			}
		case *ast.CallExpr:
			if name := code.BuiltinName(info, p); name != "len" && name != "cap" && name != "close" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// onlyGivenTo reports whether fn makes ch and uses it only to receive,
// range over, ask len or cap of, and hand to the goroutine of gs.
func (c requestSpawns) onlyGivenTo(fn inspector.Cursor, ch *types.Var, gs *ast.GoStmt) bool {
	info := c.pass.TypesInfo
	made := false
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if info.Defs[id] == ch {
			made = c.madeAt(cur)
			continue
		}
		if info.Uses[id] != ch {
			continue
		}
		switch p := cur.Parent().Node().(type) {
		case *ast.UnaryExpr:
			if p.Op != token.ARROW {
				return false
			}
		case *ast.RangeStmt:
		case *ast.CallExpr:
			if p != gs.Call {
				if name := code.BuiltinName(info, p); name != "len" && name != "cap" {
					return false
				}
			}
		default:
			return false
		}
	}
	return made
}

// sentChan returns the channel that body sends on, a variable for which
// want holds, when every send on it there is a statement of its own (not a
// select's case, which may give up), with those sends; or nil.
func sentChan(info *types.Info, body *ast.BlockStmt, want func(*types.Var) bool) (*types.Var, []*ast.SendStmt) {
	var ch *types.Var
	var sends []*ast.SendStmt
	ok := true
	wanted := func(e ast.Expr) *types.Var {
		if v := code.Var(info, e); v != nil && want(v) {
			return v
		}
		return nil
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CommClause:
			if s, isSend := n.Comm.(*ast.SendStmt); isSend && wanted(s.Chan) != nil {
				ok = false // a send in a select may give up
				return false
			}
			for _, st := range n.Body {
				ast.Inspect(st, visit)
			}
			return false
		case *ast.SendStmt:
			v := wanted(n.Chan)
			if v == nil {
				return true
			}
			if ch != nil && ch != v {
				ok = false // two channels: not one result's
				return false
			}
			ch = v
			sends = append(sends, n)
		}
		return true
	}
	ast.Inspect(body, visit)
	if !ok || ch == nil {
		return nil, nil
	}
	return ch, sends
}

// unbufferedMake returns the make(chan T) (or make(chan T, 0)) that fn
// assigns to ch, or nil.
func (c requestSpawns) unbufferedMake(fn inspector.Cursor, ch *types.Var) *ast.CallExpr {
	info := c.pass.TypesInfo
	var mk *ast.CallExpr
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if info.Defs[id] != ch {
			continue
		}
		as, ok := cur.Parent().Node().(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return nil
		}
		for i, l := range as.Lhs {
			if l != id {
				continue
			}
			call, ok := ast.Unparen(as.Rhs[i]).(*ast.CallExpr)
			if !ok || code.BuiltinName(info, call) != "make" {
				return nil
			}
			if len(call.Args) == 2 {
				if n, ok := consts.Int(info, call.Args[1]); !ok || n != 0 {
					return nil
				}
			}
			mk = call
		}
	}
	return mk
}

// receivesInBody returns the receives of ch (<-ch, a range over it) in
// fn's body outside function literals, and false when a literal other
// receives from it too: that receiver may take the
// value.
func (c requestSpawns) receivesInBody(fn inspector.Cursor, ch *types.Var) ([]inspector.Cursor, bool) {
	info := c.pass.TypesInfo
	var recvs []inspector.Cursor
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		if info.Uses[cur.Node().(*ast.Ident)] != ch {
			continue
		}
		var recv bool
		switch p := cur.Parent().Node().(type) {
		case *ast.UnaryExpr:
			recv = p.Op == token.ARROW
		case *ast.RangeStmt:
			recv = true
		}
		if !recv {
			continue
		}
		if encl := code.EnclosingFunc(cur); encl.Node() != fn.Node() {
			return nil, false // another receiver, or the sender itself: not one result's channel
		}
		recvs = append(recvs, cur.Parent())
	}
	return recvs, true
}

// leavesWithoutReceiving returns a statement through which fn can return,
// after the go statement at gs, without receiving the goroutine's value,
// and says how: the other case of a select that receives it, a return
// before the first receive (not in a branch the go statement is not on),
// or a return after a receive in the loop that receives when several
// goroutines send. It returns nil when fn receives on every path.
func (c requestSpawns) leavesWithoutReceiving(fn, gs inspector.Cursor, recvs []inspector.Cursor, exits map[*types.Var]bool) (ast.Node, string) {
	var first inspector.Cursor
	for _, r := range recvs {
		if r.Node().Pos() < gs.Node().End() {
			continue
		}
		if !first.Valid() || r.Node().Pos() < first.Node().Pos() {
			first = r
		}
		if cc, sel := selectOf(r); sel != nil {
			for _, other := range sel.Body.List {
				occ := other.(*ast.CommClause)
				if other != cc && returns(&ast.BlockStmt{List: occ.Body}) && !c.receivesFrom(occ.Comm, exits) {
					return other, "the select's other case returns first"
				}
			}
		}
	}
	if !first.Valid() {
		return nil, "" // a receive before the go statement, in a loop around it: not followed
	}
	body := code.FuncBody(fn.Node())
	if early := returnBetween(fn, gs, first.Node().Pos()); early != nil {
		return early, "it returns before it receives"
	}
	if loop := shared.NearestLoop(gs); loop != nil && code.Inside(loop.Pos(), body) {
		// Several senders: a return in the receiving loop on what a
		// receive got (if err != nil { return err }) leaves the rest
		// parked. A return on a count of the values received is not one.
		if rl := shared.NearestLoop(first); rl != nil && rl != loop {
			got := c.receivedVars(first)
			var ret ast.Node
			ast.Inspect(rl, func(n ast.Node) bool {
				if ret != nil {
					return false
				}
				if _, lit := n.(*ast.FuncLit); lit {
					return false
				}
				if ifs, ok := n.(*ast.IfStmt); ok && ifs.Cond.Pos() > first.Node().Pos() && c.mentions(ifs.Cond, got) && returns(ifs.Body) {
					ret = ifs
				}
				return true
			})
			if ret != nil {
				return ret, "it returns from the loop that receives on a value it got, before the last one"
			}
		}
	}
	return nil, ""
}

// exitSignals returns the channels of fn, other than ch, that the
// goroutine of gs sends on or closes (go reader(conn, msgs, errc) with a
// reader that sends its last error on errc): a case of fn that receives
// from one of them learns that the goroutine has ended, so returning there
// abandons nothing.
func (c requestSpawns) exitSignals(fn inspector.Cursor, gs *ast.GoStmt, ch *types.Var) map[*types.Var]bool {
	info := c.pass.TypesInfo
	exits := make(map[*types.Var]bool)
	signals := func(body ast.Node, mine func(ast.Expr) *types.Var) {
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SendStmt:
				if v := mine(n.Chan); v != nil && v != ch {
					exits[v] = true
				}
			case *ast.CallExpr:
				if code.BuiltinName(info, n) == "close" && len(n.Args) == 1 {
					if v := mine(n.Args[0]); v != nil && v != ch {
						exits[v] = true
					}
				}
			}
			return true
		})
	}
	if lit, ok := ast.Unparen(gs.Call.Fun).(*ast.FuncLit); ok {
		signals(lit.Body, func(e ast.Expr) *types.Var {
			if v := code.Var(info, e); v != nil && !v.IsField() && code.Inside(v.Pos(), fn.Node()) && !code.Inside(v.Pos(), lit) {
				return v
			}
			return nil
		})
		return exits
	}
	callee := c.sh.Callee(gs.Call)
	decl, ok := c.sh.Res.FuncDecl(callee)
	if !ok {
		return exits
	}
	params := callee.Signature().Params()
	byParam := make(map[*types.Var]*types.Var) // the callee's parameter → fn's channel
	for i, arg := range gs.Call.Args {
		if v := code.Var(info, arg); v != nil && i < params.Len() && code.IsChan(v.Type()) {
			byParam[params.At(i)] = v
		}
	}
	signals(decl.Node(), func(e ast.Expr) *types.Var { return byParam[code.Var(info, e)] })
	return exits
}

// receivesFrom reports whether the comm statement of a select case
// receives from one of chans.
func (c requestSpawns) receivesFrom(comm ast.Stmt, chans map[*types.Var]bool) bool {
	var x ast.Expr
	switch st := comm.(type) {
	case *ast.ExprStmt:
		x = st.X
	case *ast.AssignStmt:
		if len(st.Rhs) == 1 {
			x = st.Rhs[0]
		}
	}
	u, ok := ast.Unparen(x).(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW && chans[code.Var(c.pass.TypesInfo, u.X)]
}

// receivedVars returns the variables the receive at r assigns (err := <-ch,
// case v, ok := <-ch:), or none.
func (c requestSpawns) receivedVars(r inspector.Cursor) map[*types.Var]bool {
	vars := make(map[*types.Var]bool)
	as, ok := r.Parent().Node().(*ast.AssignStmt)
	if !ok {
		return vars
	}
	for _, l := range as.Lhs {
		if v := code.Var(c.pass.TypesInfo, l); v != nil {
			vars[v] = true
		}
	}
	return vars
}

// mentions reports whether e uses one of vars.
func (c requestSpawns) mentions(e ast.Expr, vars map[*types.Var]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && vars[code.Var(c.pass.TypesInfo, id)] {
			found = true
		}
		return !found
	})
	return found
}

// rangeLeavesEarly returns a statement by which a range over the channel
// among recvs leaves before the channel is drained — a return, or a break
// of that range — when the goroutines send several values: the sends not
// yet taken stay parked.
func rangeLeavesEarly(recvs []inspector.Cursor) (ast.Node, string) {
	for _, r := range recvs {
		rs, ok := r.Node().(*ast.RangeStmt)
		if !ok {
			continue
		}
		var exit ast.Node
		var visit func(n ast.Node, nested bool) bool
		visit = func(n ast.Node, nested bool) bool {
			if exit != nil {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				exit = n
			case *ast.BranchStmt:
				if n.Tok == token.BREAK && ((n.Label == nil && !nested) || (n.Label != nil && labels(r, n.Label.Name))) {
					exit = n
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				// An unlabeled break in here is not the range's.
				ast.Inspect(n, func(m ast.Node) bool {
					if m == n {
						return true
					}
					return visit(m, true)
				})
				return false
			}
			return true
		}
		ast.Inspect(rs.Body, func(n ast.Node) bool { return visit(n, false) })
		if exit != nil {
			return exit, "it leaves the range over the channel before the goroutine's last send"
		}
	}
	return nil, ""
}

// labels reports whether the statement at r carries the label name.
func labels(r inspector.Cursor, name string) bool {
	l, ok := r.Parent().Node().(*ast.LabeledStmt)
	return ok && l.Label.Name == name
}

// returnBetween returns a return statement of fn, outside literals, after
// the go statement at gs and ending before the position to, on a path the
// go statement is on (sameBranch), or nil.
func returnBetween(fn, gs inspector.Cursor, to token.Pos) *ast.ReturnStmt {
	var early *ast.ReturnStmt
	ast.Inspect(code.FuncBody(fn.Node()), func(n ast.Node) bool {
		if early != nil || n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if n.Pos() > gs.Node().End() && n.End() < to && sameBranch(fn, gs.Node(), n) {
				early = n
			}
		}
		return true
	})
	return early
}

// selectOf returns the comm clause and the select whose case the receive
// at r is (case v := <-ch:, case <-ch:), or nils.
func selectOf(r inspector.Cursor) (ast.Stmt, *ast.SelectStmt) {
	for p := r.Parent(); p.Valid(); p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.ExprStmt, *ast.AssignStmt:
			continue
		case *ast.CommClause:
			if sel, ok := p.Parent().Parent().Node().(*ast.SelectStmt); ok && n.Comm != nil && code.Inside(r.Node().Pos(), n.Comm) {
				return n, sel
			}
		}
		return nil, nil
	}
	return nil, nil
}

// sameBranch reports whether the return statement ret runs after the go
// statement g on some path: the innermost statement holding both is a
// block (a sequence), not an if, switch or select whose branches part
// them.
func sameBranch(fn inspector.Cursor, g, ret ast.Node) bool {
	gc, ok := fn.FindNode(g)
	if !ok {
		return false
	}
	for p := gc.Parent(); p.Valid(); p = p.Parent() {
		if !code.Inside(ret.Pos(), p.Node()) {
			continue
		}
		switch p.Node().(type) {
		case *ast.BlockStmt, *ast.FuncDecl, *ast.FuncLit:
			return true
		case *ast.CaseClause, *ast.CommClause:
			return true // both in one case, in sequence
		}
		return false // an if's branches, a switch's or select's cases
	}
	return false
}

// inLoopOf reports whether n lies in a loop inside body.
func inLoopOf(n ast.Node, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(m ast.Node) bool {
		if found || m == nil {
			return false
		}
		switch m := m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			if code.Inside(n.Pos(), m) {
				found = true
			}
		}
		return !found
	})
	return found
}

// abandonedFinding builds the diagnostic of a goroutine left parked on a
// send. The fix, for one goroutine sending once, gives the channel a
// buffer of one.
func abandonedFinding(sh *shared.Pkg, gs *ast.GoStmt, fn inspector.Cursor, ch *types.Var, mk *ast.CallExpr, exit ast.Node, why string, single bool) *shared.Finding {
	name := sh.FuncName(fn)
	f := &shared.Finding{
		Diag: analysis.Diagnostic{
			Pos:      gs.Pos(),
			End:      gs.End(),
			Category: "detached",
			Message: fmt.Sprintf("goroutine started by %s sends on %s, an unbuffered channel the function made, and %s can return without receiving (%s): the goroutine then stays parked on the send forever, one more per such call",
				name, ch.Name(), name, why),
			Related: []analysis.RelatedInformation{{Pos: exit.Pos(), End: exit.End(), Message: "the function can return here without receiving from " + ch.Name()}},
		},
	}
	if !single {
		f.Diag.Message += fmt.Sprintf("; by hand: give %s a buffer as large as the number of goroutines that send on it", ch.Name())
		return f
	}
	f.Diag.Message += fmt.Sprintf("; give %s a buffer of one, so the send completes whether or not the function still waits", ch.Name())
	f.Msg = "Give " + ch.Name() + " a buffer of one"
	if len(mk.Args) == 2 {
		f.Edits = []analysis.TextEdit{edits.Replace(mk.Args[1], "1")}
	} else {
		f.Edits = []analysis.TextEdit{{Pos: mk.Args[0].End(), End: mk.Args[0].End(), NewText: []byte(", 1")}}
	}
	return f
}
