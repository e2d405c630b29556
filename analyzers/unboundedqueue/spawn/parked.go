package spawn

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// Goroutines parked past their RPC. A streaming RPC method is given its
// stream, not a request struct, and a goroutine it starts may do no
// blocking work at all and still outlive it: it waits on a channel of
// shared state (a session's close channel, a subscription's done) that the
// RPC neither owns nor closes, and the RPC returns when another goroutine
// reports first (a Recv error on the stream). One goroutine is then left
// per ended call, parked until someone closes a channel nobody is bound to
// close, and a peer that reconnects every few seconds leaves one each time.

// streamTypeName returns the name of t when it is the stream a streaming
// RPC method is given (a type with the methods of grpc.ServerStream:
// Context, SendMsg and RecvMsg), or "". The stream is answered when the
// method returns: its context is cancelled and its Send and Recv fail.
func streamTypeName(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return ""
	}
	if _, ok := n.Underlying().(*types.Interface); !ok {
		return ""
	}
	ms := types.NewMethodSet(t)
	for _, name := range knowledge.RPCStreamMethods.Entries() {
		if ms.Lookup(nil, name) == nil {
			return ""
		}
	}
	name := n.Obj().Name()
	if a, ok := t.(*types.Alias); ok {
		name = a.Obj().Name() // Foo_BarServer = grpc.BidiStreamingServer[Req, Resp]
	}
	return name + " stream"
}

// usesStream reports whether the spawned work uses a parameter of fn that
// is a streaming RPC's stream: its Send and Recv fail once the RPC ends, so
// the goroutine ends with it.
func (c requestSpawns) usesStream(fn inspector.Cursor, sp spawn) bool {
	info := c.pass.TypesInfo
	sig := code.FuncSignature(info, fn.Node())
	if sig == nil {
		return false
	}
	streams := make(map[*types.Var]bool)
	for i := range sig.Params().Len() {
		if streamTypeName(sig.Params().At(i).Type()) != "" {
			streams[sig.Params().At(i)] = true
		}
	}
	if len(streams) == 0 {
		return false
	}
	uses := func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		v, _ := info.Uses[id].(*types.Var)
		return ok && streams[v]
	}
	return code.AnyNode(sp.call, nil, uses)
}

// parkedOnShared returns the receive a spawned function literal parks on
// among its own statements (<-sess.close, v := <-sub.done) when the
// channel is a field of a value fn did not make, nor its receiver's, and
// fn neither closes it nor sends on it: a channel of shared state whose
// close the request does not decide. Nil otherwise.
func (c requestSpawns) parkedOnShared(fn inspector.Cursor, sp spawn) *ast.UnaryExpr {
	lit, ok := ast.Unparen(sp.fun).(*ast.FuncLit)
	if !ok {
		return nil
	}
	info := c.pass.TypesInfo
	for _, st := range lit.Body.List {
		var x ast.Expr
		switch st := st.(type) {
		case *ast.ExprStmt:
			x = st.X
		case *ast.AssignStmt:
			if len(st.Rhs) == 1 {
				x = st.Rhs[0]
			}
		}
		recv, ok := ast.Unparen(x).(*ast.UnaryExpr)
		if !ok || recv.Op != token.ARROW {
			continue
		}
		sel, ok := ast.Unparen(recv.X).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		f, ok := info.Uses[sel.Sel].(*types.Var)
		if !ok || !f.IsField() {
			return nil
		}
		root, _ := info.Uses[rootIdent(sel.X)].(*types.Var)
		if root == nil || root == receiverVar(info, fn) || c.madeIn(fn, root) || c.signalsIn(fn, f) {
			return nil
		}
		return recv
	}
	return nil
}

// madeIn reports whether fn assigns v a value it makes (a composite
// literal, its address, new or make): the request's own value, whose
// channels end with it.
func (c requestSpawns) madeIn(fn inspector.Cursor, v *types.Var) bool {
	info := c.pass.TypesInfo
	for cur := range fn.Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		for i, lhs := range as.Lhs {
			if code.Var(info, lhs) != v || i >= len(as.Rhs) {
				continue
			}
			rhs := ast.Unparen(as.Rhs[i])
			if u, ok := rhs.(*ast.UnaryExpr); ok && u.Op == token.AND {
				rhs = ast.Unparen(u.X)
			}
			switch r := rhs.(type) {
			case *ast.CompositeLit:
				return true
			case *ast.CallExpr:
				if name := code.BuiltinName(info, r); name == "new" || name == "make" {
					return true
				}
			}
		}
	}
	return false
}

// signalsIn reports whether fn, outside function literals, closes or sends
// on a channel held by the field f: the request signals it itself.
func (c requestSpawns) signalsIn(fn inspector.Cursor, f *types.Var) bool {
	info := c.pass.TypesInfo
	isField := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		return ok && info.Uses[sel.Sel] == f
	}
	found := false
	ast.Inspect(code.FuncBody(fn.Node()), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SendStmt:
			found = found || isField(n.Chan)
		case *ast.CallExpr:
			found = found || code.BuiltinName(info, n) == "close" && len(n.Args) == 1 && isField(n.Args[0])
		}
		return !found
	})
	return found
}

// racedBy reports whether every channel fn receives from after the go
// statement at cur, which the goroutine sends on, has another sender: a
// second goroutine fn starts, or fn itself. The function's wait then ends
// with whichever reports first, and does not wait for this goroutine.
func (c requestSpawns) racedBy(fn, cur inspector.Cursor, sp spawn) bool {
	info := c.pass.TypesInfo
	lit, ok := ast.Unparen(sp.fun).(*ast.FuncLit)
	if !ok {
		return false
	}
	sendsOn := func(body ast.Node) map[*types.Var]bool {
		out := make(map[*types.Var]bool)
		ast.Inspect(body, func(n ast.Node) bool {
			if s, ok := n.(*ast.SendStmt); ok {
				if v := code.Var(info, s.Chan); v != nil {
					out[v] = true
				}
			}
			return true
		})
		return out
	}
	mine := sendsOn(lit.Body)
	others := make(map[*types.Var]bool)
	ast.Inspect(code.FuncBody(fn.Node()), func(n ast.Node) bool {
		if n == lit {
			return false
		}
		if s, ok := n.(*ast.SendStmt); ok {
			if v := code.Var(info, s.Chan); v != nil {
				others[v] = true
			}
		}
		return true
	})
	waits, alone, raced := false, false, false
	ast.Inspect(code.FuncBody(fn.Node()), func(n ast.Node) bool {
		if n == nil || n.End() <= cur.Node().End() && !code.Inside(cur.Node().Pos(), n) {
			return false // before the go statement
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" && n.Pos() > cur.Node().End() {
				waits = true
			}
		case *ast.UnaryExpr:
			if v := code.Var(info, n.X); n.Op == token.ARROW && n.Pos() > cur.Node().End() && v != nil && mine[v] {
				if others[v] {
					raced = true
				} else {
					alone = true
				}
			}
		}
		return true
	})
	return raced && !alone && !waits
}

// parkedFinding builds the diagnostic of a goroutine parked past its
// request on a channel of shared state. It has no fix: what ends the
// wait when the request ends (its context, a channel the function closes
// on return) is for the code to choose.
func (c fixer) parkedFinding(sp spawn, fn inspector.Cursor, req string, park *ast.UnaryExpr) *shared.Finding {
	ch := edits.Source(c.pass, park.X)
	return &shared.Finding{
		Diag: analysis.Diagnostic{
			Pos:      sp.stmt.Pos(),
			End:      sp.stmt.End(),
			Category: "detached",
			Message: fmt.Sprintf("goroutine started per %s by %s outlives it: it waits on %s, a channel of shared state the function neither closes nor sends on, and the function may return before that wait ends (another goroutine reports first), so one is left parked per call that ends so, and nothing limits how many; by hand: select on the request's context beside %s, or on a channel the function closes when it returns",
				req, c.sh.FuncName(fn), ch, ch),
			Related: []analysis.RelatedInformation{{Pos: park.Pos(), End: park.End(), Message: "the wait that outlives the request"}},
		},
	}
}
