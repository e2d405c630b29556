package code

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// A goroutine its function waits for. A function that starts one goroutine
// and then receives what it sends,
//
//	done := make(chan error, 1)
//	go func() { done <- c.fetch(ctx) }()
//	select {
//	case err := <-done:
//		return err
//	case <-ctx.Done():
//		return ctx.Err()
//	}
//
// runs the goroutine's work as its own, only cancellably: a wait or a pause
// inside it delays the function's caller as one in its body would.
// Goroutines started in a loop are a batch, not one call's work, and are
// not awaited in this sense.

// AwaitedAt returns where the function that runs the go statement at g
// receives what the goroutine's literal sends or closes on a channel
// variable of that function (<-ch, a select case, a range), the first such
// place after g outside other literals; token.NoPos when there is none, or
// when g is no go statement of a literal, or is in a loop of its function.
func AwaitedAt(info *types.Info, g inspector.Cursor) token.Pos {
	gs, ok := g.Node().(*ast.GoStmt)
	if !ok {
		return token.NoPos
	}
	lit, ok := ast.Unparen(gs.Call.Fun).(*ast.FuncLit)
	if !ok {
		return token.NoPos
	}
	fn := EnclosingFunc(g)
	if !fn.Valid() {
		return token.NoPos
	}
	for p := g.Parent(); p != fn; p = p.Parent() {
		switch p.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return token.NoPos
		}
	}
	// The channels the literal sends on or closes as its last step (a send
	// followed by nothing but a return, a deferred close): variables of
	// fn's own, declared outside the literal. A signal sent before more
	// work (close(started); serve()) tells the function the goroutine
	// began, not that it is done.
	chans := make(map[*types.Var]bool)
	outer := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.Pos() < fn.Node().Pos() || v.Pos() >= fn.Node().End() || (v.Pos() >= lit.Pos() && v.Pos() < lit.End()) {
			return nil
		}
		return v
	}
	litCur, _ := g.FindNode(lit)
	for cur := range litCur.Preorder((*ast.SendStmt)(nil), (*ast.CallExpr)(nil)) {
		var ch ast.Expr
		switch n := cur.Node().(type) {
		case *ast.SendStmt:
			if lastStep(cur) {
				ch = n.Chan
			}
		case *ast.CallExpr:
			id, ok := ast.Unparen(n.Fun).(*ast.Ident)
			if !ok || len(n.Args) != 1 {
				continue
			}
			if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "close" {
				if _, deferred := cur.Parent().Node().(*ast.DeferStmt); deferred || lastStep(cur.Parent()) {
					ch = n.Args[0]
				}
			}
		}
		if v := outer(ch); ch != nil && v != nil {
			chans[v] = true
		}
	}
	if len(chans) == 0 {
		return token.NoPos
	}
	at := token.NoPos
	for cur := range fn.Preorder((*ast.UnaryExpr)(nil), (*ast.RangeStmt)(nil)) {
		if at.IsValid() {
			break
		}
		n := cur.Node()
		if n.Pos() < gs.End() {
			continue
		}
		var x ast.Expr
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				x = n.X
			}
		case *ast.RangeStmt:
			x = n.X
		}
		if x == nil {
			continue
		}
		if id, ok := ast.Unparen(x).(*ast.Ident); ok {
			// What a literal receives, it receives when it runs.
			if v, ok := info.Uses[id].(*types.Var); ok && chans[v] && EnclosingFunc(cur) == fn {
				at = n.Pos()
			}
		}
	}
	return at
}

// lastStep reports whether the statement at cur is the last of its block,
// or followed only by a return.
func lastStep(cur inspector.Cursor) bool {
	next, ok := cur.NextSibling()
	if !ok {
		return true
	}
	_, isReturn := next.Node().(*ast.ReturnStmt)
	_, more := next.NextSibling()
	return isReturn && !more
}
