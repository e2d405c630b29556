package spawn

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// goroutinesPerSend reports go func() { ch <- v }() where the goroutine only
// hands over a value computed before it started.
func (c perSender) goroutinesPerSend() {
	info := c.pass.TypesInfo
	for _, cur := range c.sh.GoStmts {
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
		if _, ok := c.chk.bounded(kindPerSend, candidate{cur: cur, fn: fn, ch: ch}); ok {
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
		c.chk.persend[g] = true
		c.chk.findings = append(c.chk.findings, f)
	}
}

// sendOrStop returns the send of sel when sel only sends or stops: one
// send case and receive cases from a stop channel the goroutine's owner
// holds (a field or package variable of empty structs, closed at shutdown),
// each with an empty body, and no default. Such a select ends only when
// the consumer takes the value or the service stops: under overload it
// parks like a bare send. A per-call ctx.Done() or a timer bounds how long
// it waits, and is left alone.
func (c perSender) sendOrStop(sel *ast.SelectStmt) *ast.SendStmt {
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
func (c perSender) sendHelperSpawn(cur inspector.Cursor, call *ast.CallExpr, edit analysis.TextEdit) {
	g := cur.Node().(*ast.GoStmt)
	h, fn := c.sh.Res.HelperCall(call)
	if h == nil || h.Send == nil || fn == nil || call.Ellipsis.IsValid() {
		return
	}
	ch := c.sh.Res.SendChan(call, fn, h.Send)
	if ch == nil || !shared.CarriesItems(ch.Type()) {
		return
	}
	encl := code.EnclosingFunc(cur)
	if !encl.Valid() {
		return
	}
	if _, ok := c.chk.bounded(kindPerSend, candidate{cur: cur, fn: encl, ch: ch}); ok {
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
	c.chk.persend[g] = true
	c.chk.findings = append(c.chk.findings, &shared.Finding{
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
func (c perSender) inlinedCall(g *ast.GoStmt, lit *ast.FuncLit, call *ast.CallExpr) (string, bool) {
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
func (c perSender) sentValue(g *ast.GoStmt, lit *ast.FuncLit, send *ast.SendStmt) (string, bool) {
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

// consumerOf points at the first receive from ch in the package, or at its
// declaration when the package never receives from it.
func (c perSender) consumerOf(ch *types.Var) []analysis.RelatedInformation {
	for file := range c.sh.Insp.Root().Children() {
		if c.sh.Rep.Skip(file.Node().(*ast.File)) {
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
