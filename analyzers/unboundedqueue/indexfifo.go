package unboundedqueue

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// Queues that advance indexes instead of re-slicing: a map used as a FIFO
// (items[tail] = x; tail++ in one function, delete(items, head); head++ in
// another), and a ring buffer that grows when full instead of overwriting
// or rejecting.

// An indexStore is items[idx] = x where items is a shared map or slice.
type indexStore struct {
	cur   inspector.Cursor // the assignment
	items *types.Var
	index ast.Expr
}

// indexStoreAt returns the store at cur when it is items[idx] = x on a
// shared map or slice.
func (c *checker) indexStoreAt(cur inspector.Cursor) (indexStore, bool) {
	a := cur.Node().(*ast.AssignStmt)
	if a.Tok != token.ASSIGN || len(a.Lhs) != 1 || len(a.Rhs) != 1 {
		return indexStore{}, false
	}
	ix, ok := ast.Unparen(a.Lhs[0]).(*ast.IndexExpr)
	if !ok {
		return indexStore{}, false
	}
	v := code.Var(c.pass.TypesInfo, ix.X)
	if !c.sh.IsSharedVar(v) {
		return indexStore{}, false
	}
	return indexStore{cur, v, ix.Index}, true
}

// indexFIFOs reports map FIFOs and growing rings among the stores the
// slice walk gathered.
func (c *checker) indexFIFOs() {
	for _, st := range c.stores {
		switch st.items.Type().Underlying().(type) {
		case *types.Map:
			c.mapFIFO(st, c.deletes[st.items])
		case *types.Slice:
			switch {
			case isItemSlice(st.items.Type()):
				c.growingRing(st)
			case c.indexedByCounter(st.index):
				c.sh.Rep.Silence(st.cur.Node(), ruleByteBuffer) // a ring of bytes
			}
		}
	}
}

// mapFIFO reports st when it is the enqueue of a map FIFO: the key is an
// integer counter the same function advances, and another function deletes
// the entry at a counter it advances, with nothing bounding the map.
func (c *checker) mapFIFO(st indexStore, dels []inspector.Cursor) {
	info := c.pass.TypesInfo
	tail := code.Var(info, st.index)
	fn := code.EnclosingFunc(st.cur)
	if !c.lens.isCounter(st.index) || !fn.Valid() || !advances(info, fn, tail) {
		return
	}
	var del inspector.Cursor
	var head *types.Var
	for _, d := range dels {
		dfn := code.EnclosingFunc(d)
		call := ast.Unparen(d.Node().(*ast.ExprStmt).X).(*ast.CallExpr)
		h := code.Var(info, call.Args[1])
		if dfn.Valid() && dfn.Node() != fn.Node() && h != nil && h != tail && c.lens.isCounter(call.Args[1]) && advances(info, dfn, h) {
			del, head = d, h
			break
		}
	}
	if head == nil {
		c.sh.Rep.Silence(st.cur.Node(), ruleNotFIFO) // keyed by a counter, never deleted from at another
		return
	}
	q := &queue{v: st.items, enqueues: []inspector.Cursor{st.cur}, dequeues: []inspector.Cursor{del}}
	switch {
	case !c.isShared(q):
		c.sh.Rep.Silence(st.cur.Node(), ruleNotShared)
		return
	case c.indexBounded(fn, q, tail, head):
		c.sh.Rep.Silence(st.cur.Node(), ruleLengthCheck)
		return
	case c.drainedByCallers(q, fn):
		c.sh.Rep.Silence(st.cur.Node(), ruleDrainedByCallers)
		return
	}
	stmt := st.cur.Node().(*ast.AssignStmt)
	items := edits.Source(c.pass, ast.Unparen(stmt.Lhs[0]).(*ast.IndexExpr).X)
	f := shared.NewFinding(stmt, "mapfifo",
		fmt.Sprintf("map queue %s grows without bound: this store has no length check while %s deletes from its head, so overload piles up in memory; reject or drop items beyond a limit",
			items, c.sh.FuncName(funcOf(del))),
		del.Node(), "items leave the queue here")
	// Dropping the oldest deletes the head as the consumer does, through
	// the same value that holds the map.
	drop := ""
	if sel, ok := ast.Unparen(ast.Unparen(stmt.Lhs[0]).(*ast.IndexExpr).X).(*ast.SelectorExpr); ok && head.IsField() && sameOwner(info, sel, head) {
		h := edits.Source(c.pass, sel.X) + "." + head.Name()
		drop = "delete(" + items + ", " + h + ")\n" + h + "++"
	} else if !head.IsField() {
		drop = "delete(" + items + ", " + head.Name() + ")\n" + head.Name() + "++"
	}
	c.fix.lengthGuardFix(f, q, st.cur, fn, "len("+items+")", drop, true)
	c.findings = append(c.findings, f)
}

// sameOwner reports whether field is a field of the struct that sel's
// operand is (or points to).
func sameOwner(info *types.Info, sel *ast.SelectorExpr, field *types.Var) bool {
	t := info.TypeOf(sel.X)
	if t == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, field.Pkg(), field.Name())
	return obj == field
}

// advances reports whether the function at fn moves the counter v on:
// v++, v += k, v = v + k, or v = (v + 1) % n.
func advances(info *types.Info, fn inspector.Cursor, v *types.Var) bool {
	if v == nil {
		return false
	}
	for cur := range fn.Preorder((*ast.IncDecStmt)(nil), (*ast.AssignStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.IncDecStmt:
			if n.Tok == token.INC && code.Var(info, n.X) == v {
				return true
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != 1 || len(n.Rhs) != 1 || code.Var(info, n.Lhs[0]) != v {
				continue
			}
			if n.Tok == token.ADD_ASSIGN {
				return true
			}
			if n.Tok == token.ASSIGN && refersToVar(info, n.Rhs[0], v) {
				return true
			}
		}
	}
	return false
}

// refersToVar reports whether expr uses v.
func refersToVar(info *types.Info, expr ast.Expr, v *types.Var) bool {
	found := false
	ast.Inspect(expr, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && !found && code.Var(info, e) == v {
			found = true
		}
		return !found
	})
	return found
}

// indexBounded reports whether the enqueueing function fn, or a caller of
// it, bounds the queue q whose positions are the counters tail and head: it
// compares the length of q with anything, or one of the counters relationally
// (tail-head >= max), or acquires a limiter.
func (c *checker) indexBounded(fn inspector.Cursor, q *queue, tail, head *types.Var) bool {
	info := c.pass.TypesInfo
	for cur := range fn.Preorder((*ast.BinaryExpr)(nil)) {
		b := cur.Node().(*ast.BinaryExpr)
		if shared.IsRelational(b.Op) && (refersToVar(info, b.X, tail) || refersToVar(info, b.Y, tail) || refersToVar(info, b.X, head) || refersToVar(info, b.Y, head)) {
			return true
		}
	}
	return c.boundedIn(fn, q, 0, q.enqueues[0])
}

// growingRing reports st when it is the store of a ring buffer that grows
// when full: the slice is indexed by a counter, the storing function (or a
// function it calls) assigns the slice a larger one, and another function
// reads the slice at a counter it advances; nothing compares the ring's
// size with a limit of its own.
func (c *checker) growingRing(st indexStore) {
	fn := code.EnclosingFunc(st.cur)
	if !fn.Valid() || !c.indexedByCounter(st.index) {
		return
	}
	if code.IsZeroValue(c.pass.TypesInfo, st.cur.Node().(*ast.AssignStmt).Rhs[0]) {
		c.sh.Rep.Silence(st.cur.Node(), ruleClearsSlot) // r.buf[r.head] = T{}
		return
	}
	grow, growsIn := c.growsIn(fn, st.items)
	if !grow.Valid() {
		c.sh.Rep.Silence(st.cur.Node(), ruleFixedRing)
		return
	}
	pop, ok := c.ringPop(st.items, fn)
	if !ok {
		c.sh.Rep.Silence(st.cur.Node(), ruleNoRingReader)
		return
	}
	q := &queue{v: st.items, enqueues: []inspector.Cursor{st.cur}, dequeues: []inspector.Cursor{pop}}
	switch {
	case !c.isShared(q):
		c.sh.Rep.Silence(st.cur.Node(), ruleNotShared)
		return
	case c.ringBounded([]inspector.Cursor{fn, growsIn, code.EnclosingFunc(pop)}, st.items):
		c.sh.Rep.Silence(st.cur.Node(), ruleRingLimit)
		return
	case c.drainedByCallers(q, fn):
		c.sh.Rep.Silence(st.cur.Node(), ruleDrainedByCallers)
		return
	case c.boundedByCallers(fn, q):
		c.sh.Rep.Silence(st.cur.Node(), ruleCallersCheck)
		return
	}
	stmt := st.cur.Node().(*ast.AssignStmt)
	ring := edits.Source(c.pass, ast.Unparen(stmt.Lhs[0]).(*ast.IndexExpr).X)
	f := shared.NewFinding(stmt, "ringfifo",
		fmt.Sprintf("ring buffer %s grows without bound: when it is full this function makes it larger instead of overwriting or rejecting, while %s takes items from its head, so overload piles up in memory; reject new items or overwrite the oldest beyond a limit",
			ring, c.sh.FuncName(funcOf(pop))),
		grow.Node(), "the ring grows here")
	// The fix rejects before the ring grows, at the top of the branch that
	// grows it; dropping the oldest would need the ring's own bookkeeping.
	if branch := growBranch(grow, fn); branch != nil && len(branch.List) > 0 {
		first, _ := fn.FindNode(branch.List[0])
		q.enqueues = []inspector.Cursor{first}
		c.fix.lengthGuardFix(f, q, first, fn, "len("+ring+")", "", true)
	}
	c.findings = append(c.findings, f)
}

// indexedByCounter reports whether idx is, or computes from, an integer
// counter field or package variable: r.tail, (r.head+r.n)%len(r.buf).
func (c *checker) indexedByCounter(idx ast.Expr) bool {
	found := false
	ast.Inspect(idx, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && !found && c.lens.isCounter(e) {
			found = true
		}
		return !found
	})
	return found
}

// growsIn returns where the function at fn, or a function of the package it
// calls, assigns v a new slice (v = make(…), v = append(…), v = grown), and
// the function that does it.
func (c *checker) growsIn(fn inspector.Cursor, v *types.Var) (inspector.Cursor, inspector.Cursor) {
	if a, ok := c.assignsNewSlice(fn, v); ok {
		return a, fn
	}
	for cur := range fn.Preorder((*ast.CallExpr)(nil)) {
		d, ok := c.sh.Res.FuncDecl(c.sh.Callee(cur.Node().(*ast.CallExpr)))
		if !ok || d.Node() == fn.Node() {
			continue
		}
		if _, ok := c.assignsNewSlice(d, v); ok {
			return code.StmtOf(cur), d
		}
	}
	return inspector.Cursor{}, inspector.Cursor{}
}

// assignsNewSlice returns an assignment in fn that gives v a slice other
// than a re-slice of itself.
func (c *checker) assignsNewSlice(fn inspector.Cursor, v *types.Var) (inspector.Cursor, bool) {
	info := c.pass.TypesInfo
	for cur := range fn.Preorder((*ast.AssignStmt)(nil)) {
		a := cur.Node().(*ast.AssignStmt)
		if len(a.Lhs) != len(a.Rhs) {
			continue
		}
		for i, lhs := range a.Lhs {
			if code.Var(info, lhs) != v {
				continue
			}
			switch r := ast.Unparen(a.Rhs[i]).(type) {
			case *ast.SliceExpr:
				continue // a re-slice: no larger
			case *ast.CallExpr:
				if name := code.BuiltinName(info, r); name == "make" || name == "append" {
					return cur, true
				}
			case *ast.Ident:
				if w, ok := info.Uses[r].(*types.Var); ok && code.IsLocal(w) {
					return cur, true // buf = grown, a larger copy made before
				}
			}
		}
	}
	return inspector.Cursor{}, false
}

// ringPop returns where a function other than fn reads the ring v at a
// counter that function advances: x := r.buf[r.head]; r.head++.
func (c *checker) ringPop(v *types.Var, fn inspector.Cursor) (inspector.Cursor, bool) {
	info := c.pass.TypesInfo
	for file := range c.insp.Root().Children() {
		if c.rep.Skip(file.Node().(*ast.File)) {
			continue
		}
		for cur := range file.Preorder((*ast.IndexExpr)(nil)) {
			ix := cur.Node().(*ast.IndexExpr)
			if code.Var(info, ix.X) != v {
				continue
			}
			if a, ok := cur.Parent().Node().(*ast.AssignStmt); ok && len(a.Lhs) == 1 && a.Lhs[0] == ix {
				continue // a store
			}
			h := code.Var(info, ix.Index)
			pfn := code.EnclosingFunc(cur)
			if h != nil && c.lens.isCounter(ix.Index) && pfn.Valid() && pfn.Node() != fn.Node() && advances(info, pfn, h) {
				return cur, true
			}
		}
	}
	return inspector.Cursor{}, false
}

// ringBounded reports whether the storing function, or the function that
// grows the ring, compares the ring's size with a limit of its own: a
// constant other than 0 or 1, or a value that is neither the ring's length
// nor one of the counters the ring's functions move (head, tail, count):
// if len(r.buf) >= r.maxSize { return errFull }.
func (c *checker) ringBounded(fns []inspector.Cursor, v *types.Var) bool {
	info := c.pass.TypesInfo
	moved := make(map[*types.Var]bool)
	for _, f := range fns {
		for w := range code.ReassignedIn(info, f.Node()) {
			moved[w] = true
		}
	}
	movedIn := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if x, ok := n.(ast.Expr); ok && !found && moved[code.Var(info, x)] {
				found = true
			}
			return !found
		})
		return found
	}
	for _, f := range fns[:2] {
		for cur := range f.Preorder((*ast.BinaryExpr)(nil)) {
			b := cur.Node().(*ast.BinaryExpr)
			if !shared.IsComparison(b.Op) {
				continue
			}
			for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				if !c.lens.mentionsLength(pair[0], v) {
					continue
				}
				other := pair[1]
				if tv, ok := info.Types[other]; ok && tv.Value != nil {
					if !isEmptinessBound(info, other) {
						return true
					}
					continue
				}
				if !c.lens.mentionsLength(other, v) && !movedIn(other) {
					return true
				}
			}
		}
	}
	return false
}

// boundedByCallers reports whether a caller of fn bounds q.
func (c *checker) boundedByCallers(fn inspector.Cursor, q *queue) bool {
	decl, ok := fn.Node().(*ast.FuncDecl)
	if !ok {
		return false
	}
	obj, ok := c.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok {
		return false
	}
	for _, site := range c.sh.CallersOf(obj) {
		if caller := code.EnclosingFunc(site); caller.Valid() && caller.Node() != decl && c.boundedIn(caller, q, 1, inspector.Cursor{}) {
			return true
		}
	}
	return false
}

// growBranch returns the body of the if statement in fn whose body holds the
// growth at grow: the "full" branch.
func growBranch(grow, fn inspector.Cursor) *ast.BlockStmt {
	for e := range grow.Enclosing((*ast.IfStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		if ifs, ok := e.Node().(*ast.IfStmt); ok && fn.Contains(e) && code.Inside(grow.Node().Pos(), ifs.Body) {
			return ifs.Body
		}
		return nil
	}
	return nil
}
