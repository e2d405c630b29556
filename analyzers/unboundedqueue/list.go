package unboundedqueue

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// listFIFOs reports container/list fields and package variables filled with
// PushBack in one function and drained with Remove(Front()) in another (or
// PushFront and Remove(Back())).
func (c *checker) listFIFOs() {
	info := c.pass.TypesInfo
	type ends struct{ push, pop map[string][]inspector.Cursor }
	var order []*types.Var
	byVar := make(map[*types.Var]*ends)
	var cursorPushes map[*types.Var]bool // lists whose push moves a read cursor
	for _, cur := range c.calls {
		call := cur.Node().(*ast.CallExpr)
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		v := code.Var(info, sel.X)
		if !c.sh.IsSharedVar(v) || (!isListType(v.Type()) && !isDequeType(v.Type())) {
			continue
		}
		e := byVar[v]
		if e == nil {
			e = &ends{push: make(map[string][]inspector.Cursor), pop: make(map[string][]inspector.Cursor)}
			byVar[v] = e
			order = append(order, v)
		}
		switch sel.Sel.Name {
		case "PushBack", "PushFront":
			// A used element (stored in an index) would go stale if the
			// fix dropped the oldest item, so only plain pushes count, and
			// pushes whose element only moves the list's own read cursor
			// (e := l.PushBack(x); if q.next == nil { q.next = e }): those
			// are a FIFO's, reported without the drop.
			end := strings.TrimPrefix(sel.Sel.Name, "Push")
			switch {
			case isExprStmt(cur.Parent()):
				e.push[end] = append(e.push[end], cur.Parent())
			case keptInCursor(info, cur, sel.X):
				e.push[end] = append(e.push[end], cur.Parent())
				if cursorPushes == nil {
					cursorPushes = make(map[*types.Var]bool)
				}
				cursorPushes[v] = true
			default:
				c.rep.Silence(call, ruleKeepsElement)
			}
		case "Remove":
			if len(call.Args) == 1 && isListType(v.Type()) {
				if end := removedEnd(info, cur, v); end != "" {
					e.pop[end] = append(e.pop[end], cur)
				}
			}
		case "PopFront", "PopBack":
			if len(call.Args) == 0 && isDequeType(v.Type()) {
				end := strings.TrimPrefix(sel.Sel.Name, "Pop")
				e.pop[end] = append(e.pop[end], cur)
			}
		}
	}
	for _, v := range order {
		e := byVar[v]
		fifo := false
		for _, back := range []string{"Back", "Front"} {
			front := map[string]string{"Back": "Front", "Front": "Back"}[back]
			if len(e.push[back]) > 0 && len(e.pop[front]) > 0 {
				fifo = true
				c.reportQueue(&queue{v: v, list: true, deque: !isListType(v.Type()), back: back, enqueues: e.push[back], dequeues: e.pop[front], jumps: len(e.push[front]) > 0, cursor: cursorPushes[v]})
			}
		}
		if !fifo {
			// Pushed, but never taken from the other end: a stack, or a
			// list that only grows (and may be walked).
			for _, p := range slices.Concat(e.push["Back"], e.push["Front"]) {
				c.rep.Silence(p.Node(), ruleNotFIFO)
			}
		}
	}
}

// removedEnd returns "Front" or "Back" when the Remove call at cur removes the
// element at that end of list v: l.Remove(l.Front()), or e := l.Front() …
// l.Remove(e) in the same function. It returns "" otherwise.
func removedEnd(info *types.Info, cur inspector.Cursor, v *types.Var) string {
	arg := ast.Unparen(cur.Node().(*ast.CallExpr).Args[0])
	if end := endCall(info, arg, v); end != "" {
		return end
	}
	id, ok := arg.(*ast.Ident)
	if !ok {
		return ""
	}
	elem := code.Var(info, id)
	fn := code.EnclosingFunc(cur)
	if elem == nil || !fn.Valid() {
		return ""
	}
	for a := range fn.Preorder((*ast.AssignStmt)(nil)) {
		as := a.Node().(*ast.AssignStmt)
		if len(as.Lhs) != len(as.Rhs) {
			continue
		}
		for i, lhs := range as.Lhs {
			if code.Var(info, lhs) == elem {
				if end := endCall(info, as.Rhs[i], v); end != "" {
					return end
				}
			}
		}
	}
	return ""
}

// endCall returns "Front" or "Back" when expr is l.Front() or l.Back() on v.
func endCall(info *types.Info, expr ast.Expr, v *types.Var) string {
	call, ok := ast.Unparen(expr).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return ""
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "Front" && sel.Sel.Name != "Back") || code.Var(info, sel.X) != v {
		return ""
	}
	return sel.Sel.Name
}

func isExprStmt(cur inspector.Cursor) bool {
	_, ok := cur.Node().(*ast.ExprStmt)
	return ok
}

// keptInCursor reports whether the element the push at cur returns, onto
// the list list (a field base.l), goes only to a *list.Element field of the
// same base: the queue's read cursor (base.next = l.PushBack(x), or a local
// e := l.PushBack(x) whose every use is base.next = e). An element kept
// anywhere else (a map, a slice, the item, a result) is an index's.
func keptInCursor(info *types.Info, cur inspector.Cursor, list ast.Expr) bool {
	ls, ok := ast.Unparen(list).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	base := code.Var(info, ls.X)
	as, ok := cur.Parent().Node().(*ast.AssignStmt)
	if base == nil || !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return false
	}
	isCursor := func(lhs ast.Expr) bool {
		sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
		return ok && code.Var(info, sel.X) == base && code.IsNamed(info.TypeOf(sel), "container/list", "Element")
	}
	if isCursor(as.Lhs[0]) {
		return true
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	elem := code.Var(info, id)
	fn := code.EnclosingFunc(cur)
	if !ok || elem == nil || !code.IsLocal(elem) || !fn.Valid() {
		return false
	}
	uses := 0
	for u := range fn.Preorder((*ast.Ident)(nil)) {
		if u.Node() == id || info.Uses[u.Node().(*ast.Ident)] != elem {
			continue
		}
		a, ok := u.Parent().Node().(*ast.AssignStmt)
		if !ok || len(a.Lhs) != 1 || len(a.Rhs) != 1 || a.Rhs[0] != u.Node() || !isCursor(a.Lhs[0]) {
			return false
		}
		uses++
	}
	return uses > 0
}
