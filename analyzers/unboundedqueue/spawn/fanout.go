package spawn

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

// Fan-out without a limit where the code limits its siblings: a goroutine
// per element of a slice or map that a call returned with an error (a
// listing, an API page, a query result), doing work that takes a context,
// in a package that elsewhere bounds the same kind of fan-out. A range over
// a slice is bounded by its input, which is why goroutineperitem leaves it
// alone; but the size of a listing is decided by the data, not the code, and
// the sibling's bound says the authors know the backend cannot take one
// call per element at once.

// A siblingBound is a fan-out of the package bounded by a limit.
type siblingBound struct {
	fn    inspector.Cursor // the function holding it
	limit ast.Expr         // N, as the sibling writes it
	how   string           // g.SetLimit(N), a semaphore of N
}

// fanOuts reports unbounded fan-outs over listings.
func (c *checker) fanOuts() {
	info := c.pass.TypesInfo
	for _, loop := range c.loops {
		r, ok := loop.Node().(*ast.RangeStmt)
		if !ok {
			continue
		}
		t := info.TypeOf(r.X)
		if t == nil {
			continue
		}
		switch t.Underlying().(type) {
		case *types.Slice, *types.Map:
		default:
			continue
		}
		fn := code.EnclosingFunc(loop)
		if !fn.Valid() {
			continue
		}
		var items []perItem
		body, _ := loop.FindNode(r.Body)
		for cur := range body.Preorder((*ast.GoStmt)(nil), (*ast.CallExpr)(nil)) {
			sp, ok := c.spawnAt(cur)
			if !ok || shared.NearestLoop(cur) != loop.Node() {
				continue
			}
			if _, ok := c.bounded(kindFanOut, candidate{sp: sp, cur: cur, loop: loop, stream: r.X}); ok {
				continue
			}
			items = append(items, perItem{sp: sp, cur: cur, stream: r.X})
		}
		if len(items) == 0 {
			continue
		}
		call := c.listedBy(fn, r.X)
		var sib siblingBound
		hasSibling := false
		if call != nil {
			sib, hasSibling = c.siblingOf(fn)
		}
		if call == nil || !hasSibling {
			if (dataSizes{c}).dataFanOut(fn, loop, r.X, items) {
				continue // data-sized: decided in datasize.go
			}
			if call == nil {
				c.silencedAll(ruleNotListing, items)
			} else {
				c.silencedAll(ruleNoBoundedSibling, items)
			}
			continue
		}
		if items = (dataSizes{c}).withContext(items); len(items) == 0 {
			continue
		}
		size, _ := newFixer(c.sh).limitIn(sib, fn, items[0].sp.stmt.Pos())
		lim := newLoopLimit(loop, items, size)
		for _, it := range items {
			c.findings = append(c.findings, newFixer(c.sh).fanOutFinding(it, lim, call, sib))
		}
	}
}

// takesContext reports whether the goroutine's work takes a context: the
// spawned function has a context parameter or passes a context to a call.
// Work that takes a context reaches something outside the process; a
// goroutine per element that only computes is cheap.
func (c *checker) takesContext(sp spawn) bool {
	info := c.pass.TypesInfo
	for _, a := range sp.args {
		if code.ImplementsContext(info.TypeOf(a)) {
			return true
		}
	}
	body := c.spawnedBody(sp)
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found {
			for _, a := range call.Args {
				if code.ImplementsContext(info.TypeOf(a)) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// listedBy returns the call that produced the ranged value x in fn: x, or
// the variable at the root of x.Items, is a local variable assigned from a
// call whose last result is an error (clusters, err := d.listClusters(ctx),
// also inside a function literal of fn), unless it returns a configuration
// (returnsConfiguration). Values from fields, parameters and literals are
// configured or static: nil.
func (c *checker) listedBy(fn inspector.Cursor, x ast.Expr) *ast.CallExpr {
	info := c.pass.TypesInfo
	root := ast.Unparen(x)
	for {
		sel, ok := root.(*ast.SelectorExpr)
		if !ok {
			break
		}
		root = ast.Unparen(sel.X)
	}
	id, ok := root.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || !code.IsLocal(v) || !code.Inside(v.Pos(), fn.Node()) || isParam(info, fn.Node(), v) {
		return nil
	}
	var found *ast.CallExpr
	for cur := range fn.Preorder((*ast.AssignStmt)(nil)) {
		a := cur.Node().(*ast.AssignStmt)
		if len(a.Rhs) != 1 || len(a.Lhs) < 2 {
			continue
		}
		call, ok := ast.Unparen(a.Rhs[0]).(*ast.CallExpr)
		if !ok {
			continue
		}
		tuple, ok := info.TypeOf(call).(*types.Tuple)
		if !ok || tuple.Len() != len(a.Lhs) || !code.IsError(tuple.At(tuple.Len()-1).Type()) || returnsConfiguration(call, tuple.At(0).Type()) {
			continue
		}
		for _, lhs := range a.Lhs[:len(a.Lhs)-1] {
			if code.Var(info, lhs) == v {
				found = call
			}
		}
	}
	return found
}

// isParam reports whether v is a parameter or result of the function fn.
func isParam(info *types.Info, fn ast.Node, v *types.Var) bool {
	sig := code.FuncSignature(info, fn)
	if sig == nil {
		return false
	}
	for _, tuple := range []*types.Tuple{sig.Params(), sig.Results()} {
		for i := range tuple.Len() {
			if tuple.At(i) == v {
				return true
			}
		}
	}
	return false
}

// siblingOf returns the bounded fan-out the package has beside fn: one in a
// method of fn's receiver type when there is one, else the first of the
// package.
func (c *checker) siblingOf(fn inspector.Cursor) (siblingBound, bool) {
	if c.siblings == nil {
		c.siblings = c.boundedFanOuts()
	}
	if len(c.siblings) == 0 {
		return siblingBound{}, false
	}
	recv := recvTypeOf(c.pass.TypesInfo, fn)
	for _, s := range c.siblings {
		if recv != nil && recvTypeOf(c.pass.TypesInfo, s.fn) == recv {
			return s, true
		}
	}
	return c.siblings[0], true
}

// recvTypeOf returns the named receiver type of the method around cur, or nil.
func recvTypeOf(info *types.Info, cur inspector.Cursor) *types.TypeName {
	for f := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		decl := f.Node().(*ast.FuncDecl)
		if decl.Recv == nil || len(decl.Recv.List) == 0 {
			return nil
		}
		t := info.TypeOf(decl.Recv.List[0].Type)
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			return n.Origin().Obj()
		}
	}
	return nil
}

// boundedFanOuts finds the package's bounded fan-outs: a range loop that
// spawns on an errgroup given SetLimit(N), or that acquires a semaphore
// channel made with capacity N before it spawns.
func (c *checker) boundedFanOuts() []siblingBound {
	out := []siblingBound{}
	for _, loop := range c.loops {
		if _, ok := loop.Node().(*ast.RangeStmt); !ok {
			continue
		}
		fn := code.EnclosingFunc(loop)
		if !fn.Valid() {
			continue
		}
		for cur := range loop.Preorder((*ast.GoStmt)(nil), (*ast.CallExpr)(nil)) {
			sp, ok := c.spawnAt(cur)
			if !ok || shared.NearestLoop(cur) != loop.Node() {
				continue
			}
			if sp.kind == "errgroup" && sp.group != nil {
				if arg := c.setLimitArg(fn, sp.group); arg != nil {
					out = append(out, siblingBound{fn: fn, limit: arg, how: edits.Source(c.pass, ast.Unparen(sp.call.Fun).(*ast.SelectorExpr).X) + ".SetLimit(" + edits.Source(c.pass, arg) + ")"})
					break
				}
			}
			if size := c.semaphoreBefore(loop, cur); size != nil {
				out = append(out, siblingBound{fn: fn, limit: size, how: "a semaphore of " + edits.Source(c.pass, size)})
				break
			}
		}
	}
	return out
}

// setLimitArg returns N of a g.SetLimit(N) in fn that limits the group g
// (not a negative constant), or nil.
func (c *checker) setLimitArg(fn inspector.Cursor, g *types.Var) ast.Expr {
	info := c.pass.TypesInfo
	for cur := range fn.Preorder((*ast.CallExpr)(nil)) {
		group, n, ok := code.SetLimit(info, cur.Node().(*ast.CallExpr))
		if !ok || group != g {
			continue
		}
		if !code.SetsLimit(info, n) {
			return nil
		}
		return n
	}
	return nil
}

// semaphoreBefore returns the capacity N of the semaphore channel (made in
// the function with make(chan T, N)) that the loop sends to before the spawn
// at cur, or nil.
func (c *checker) semaphoreBefore(loop, cur inspector.Cursor) ast.Expr {
	info := c.pass.TypesInfo
	body, _ := loop.FindNode(loopBody(loop.Node()))
	var size ast.Expr
	for s := range body.Preorder((*ast.SendStmt)(nil)) {
		if s.Node().Pos() >= cur.Node().Pos() || !c.holdsBoth(s, cur) {
			continue
		}
		v := code.Var(info, s.Node().(*ast.SendStmt).Chan)
		if v == nil || !c.adm.IsSemaphoreChan(v) {
			continue
		}
		fn := code.EnclosingFunc(loop)
		for a := range fn.Preorder((*ast.AssignStmt)(nil)) {
			as := a.Node().(*ast.AssignStmt)
			for i, lhs := range as.Lhs {
				if i >= len(as.Rhs) || code.Var(info, lhs) != v {
					continue
				}
				if mk, ok := ast.Unparen(as.Rhs[i]).(*ast.CallExpr); ok && code.BuiltinName(info, mk) == "make" && len(mk.Args) == 2 {
					size = mk.Args[1]
				}
			}
		}
	}
	return size
}

// limitIn returns the sibling's limit as fn can write it at pos: an
// expression whose names mean the same there (a constant, a package
// variable, runtime.GOMAXPROCS(0)), a field path on the sibling's receiver
// rewritten on fn's receiver of the same type (d.cfg.RequestConcurrency), or
// the value of a constant.
func (c fixer) limitIn(sib siblingBound, fn inspector.Cursor, pos token.Pos) (string, bool) {
	info := c.pass.TypesInfo
	src := edits.Source(c.pass, sib.limit)
	if c.namesSameAt(sib.limit, pos) {
		return src, true
	}
	if tv, ok := info.Types[sib.limit]; ok && tv.Value != nil {
		return tv.Value.ExactString(), true
	}
	root := sib.limit
	for {
		sel, ok := ast.Unparen(root).(*ast.SelectorExpr)
		if !ok {
			break
		}
		root = sel.X
	}
	id, ok := ast.Unparen(root).(*ast.Ident)
	if !ok || root == sib.limit {
		return "", false
	}
	sibRecv, fnRecv := receiverVar(info, sib.fn), receiverVar(info, fn)
	if sibRecv == nil || fnRecv == nil || info.Uses[id] != sibRecv || !types.Identical(sibRecv.Type(), fnRecv.Type()) {
		return "", false
	}
	if _, obj := c.pass.Pkg.Scope().Innermost(pos).LookupParent(fnRecv.Name(), pos); obj != fnRecv {
		return "", false
	}
	return fnRecv.Name() + src[int(id.End()-sib.limit.Pos()):], true
}

// namesSameAt reports whether every name expr uses (the operands of its
// selectors, not the selected names) means the same object at pos: a
// package name the same package.
func (c fixer) namesSameAt(expr ast.Expr, pos token.Pos) bool {
	info := c.pass.TypesInfo
	scope := c.pass.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return false
	}
	ok := true
	var visit func(e ast.Expr)
	visit = func(e ast.Expr) {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				visit(n.X)
				return false
			case *ast.Ident:
				obj := info.Uses[n]
				if obj == nil {
					return ok
				}
				_, found := scope.LookupParent(n.Name, pos)
				if pn, isPkg := obj.(*types.PkgName); isPkg {
					fpn, _ := found.(*types.PkgName)
					ok = ok && fpn != nil && fpn.Imported() == pn.Imported()
				} else {
					ok = ok && found == obj
				}
			}
			return ok
		})
	}
	visit(expr)
	return ok
}

// receiverVar returns the receiver of the method around cur, or nil.
func receiverVar(info *types.Info, cur inspector.Cursor) *types.Var {
	for f := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		decl := f.Node().(*ast.FuncDecl)
		if decl.Recv == nil || len(decl.Recv.List) == 0 || len(decl.Recv.List[0].Names) == 0 {
			return nil
		}
		v, _ := info.Defs[decl.Recv.List[0].Names[0]].(*types.Var)
		return v
	}
	return nil
}

// fanOutFinding builds the fanout diagnostic, with the sibling's bound as
// its fix where fn can write it.
func (c fixer) fanOutFinding(it perItem, lim *loopLimit, call *ast.CallExpr, sib siblingBound) *shared.Finding {
	sp := it.sp
	f := shared.NewFinding(sp.stmt, "fanout",
		fmt.Sprintf("%s per element of %s (from %s) with nothing bounding how many run at once, while %s limits the same fan-out with %s; bound this one the same way",
			c.spawnName(sp), edits.Source(c.pass, it.stream), edits.Source(c.pass, call.Fun), c.sh.FuncName(sib.fn), sib.how),
		sib.limit, "the sibling's bound")
	if lim.size == "" {
		return f
	}
	c.limitFix(f, it, lim)
	return f
}
