package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// A queue is a slice or container/list field or package variable that one
// function fills and another drains from the other end.
type queue struct {
	v     *types.Var
	list  bool
	deque bool // a list that is a deque: PopFront and PopBack take the item
	// back is the end a list is filled at: "Back" for PushBack, drained at
	// the front; "Front" for PushFront, drained at the back.
	back     string
	dequeues []inspector.Cursor // where items leave: q = q[1:], Remove(Front())
	enqueues []inspector.Cursor // the statements that add one item
	putBacks []inspector.Cursor // q = append(batch, q...) after a failure
	// jumps is set when items are also pushed at the end they leave from
	// (urgent items: PushFront beside PushBack): dropping the oldest would
	// drop those.
	jumps bool
	// cursor is set when a push keeps its element as the list's read cursor
	// (q.next = e): dropping the oldest could leave the cursor on a removed
	// element.
	cursor bool

	shared *bool // computed on first use

	// The fix's declarations, shared by every site of the queue.
	anchor   ast.Decl
	file     *ast.File
	expr     string // the queue as its first reported site writes it
	maxName  string
	errName  string
	declared bool
}

// sliceFIFOs reports slice fields and package variables appended to in one
// function and dequeued from the front in another.
func (c *checker) sliceFIFOs() {
	info := c.pass.TypesInfo
	var queues []*queue
	byVar := make(map[*types.Var]*queue)
	dequeue := func(v *types.Var, site inspector.Cursor) {
		q := byVar[v]
		if q == nil {
			q = &queue{v: v}
			byVar[v] = q
			queues = append(queues, q)
		}
		q.dequeues = append(q.dequeues, site)
	}
	trimmed := make(map[*types.Var]bool) // slices re-sliced to keep the last N
	for _, cur := range c.reslice {
		s := cur.Node().(*ast.SliceExpr)
		v := code.Var(info, s.X)
		if !c.isSliceQueue(v) || c.lens.mentionsLength(s.Low, v) || isConst(info, s.Low, "0") {
			trimmed[v] = trimmed[v] || c.isSliceQueue(v) && c.lens.mentionsLength(s.Low, v)
			continue // "keep the last N" trims by len(q): that is a bound
		}
		if isFrontDequeue(info, cur, v) && !evictsByValue(info, cur, v) && !inLocalValue(info, s.X) {
			dequeue(v, cur)
		}
	}
	for _, cur := range c.calls {
		call := cur.Node().(*ast.CallExpr)
		if fn := c.sh.Callee(call); fn == nil || fn.Pkg().Path() != "slices" || len(call.Args) != 3 || !isConst(info, call.Args[1], "0") {
			continue
		}
		v := code.Var(info, call.Args[0])
		if c.isSliceQueue(v) && assignsBack(info, cur, v) {
			dequeue(v, cur)
		}
	}
	var appends, grown []inspector.Cursor
	var putBacks []putBack
	producers := make(map[*types.Var][]inspector.Cursor) // appends of one item or several
	for _, cur := range c.assigns {
		if es, ok := cur.Node().(*ast.ExprStmt); ok {
			if call, ok := ast.Unparen(es.X).(*ast.CallExpr); ok && code.BuiltinName(info, call) == "delete" && len(call.Args) == 2 {
				if v := code.Var(info, call.Args[0]); c.sh.IsSharedVar(v) {
					c.deletes[v] = append(c.deletes[v], cur)
				}
			}
			continue
		}
		a := cur.Node().(*ast.AssignStmt)
		if st, ok := c.indexStoreAt(cur); ok {
			c.stores = append(c.stores, st)
		}
		if v := c.enqueuedVar(cur); v != nil && !inLocalValue(info, a.Lhs[0]) {
			appends = append(appends, cur)
		}
		if v := grownVar(info, a); v != nil {
			producers[v] = append(producers[v], cur)
			grown = append(grown, cur)
		}
		for _, v := range c.takesAll(cur) {
			dequeue(v, cur)
		}
		if pb, ok := c.putBackAt(cur); ok {
			putBacks = append(putBacks, pb)
		}
	}
	for _, cur := range appends {
		if q := byVar[c.enqueuedVar(cur)]; q != nil {
			q.enqueues = append(q.enqueues, cur)
		}
	}
	for _, cur := range grown {
		a := cur.Node().(*ast.AssignStmt)
		v := grownVar(info, a)
		if !c.sh.IsSharedVar(v) {
			continue // a local slice: no candidate
		}
		site := appendSite{
			localValue: inLocalValue(info, a.Lhs[0]),
			bytes:      !c.isSliceQueue(v),
			batch:      c.enqueuedVar(cur) == nil,
			dequeued:   byVar[v] != nil,
			trimmed:    trimmed[v],
		}
		if r := site.notEnqueue(); r != nil {
			c.rep.Silence(a, r)
		}
	}
	// A queue's limit is named once for all its sites, put-backs included.
	queueOf := func(v *types.Var) *queue {
		if byVar[v] == nil {
			byVar[v] = &queue{v: v}
		}
		return byVar[v]
	}
	for _, pb := range putBacks {
		q := queueOf(pb.v)
		q.putBacks = append(q.putBacks, pb.site)
	}
	for _, q := range queues {
		c.reportQueue(q)
	}
	c.reportPutBacks(putBacks, producers, queueOf)
}

// enqueuedVar returns the queue the assignment at cur adds items to: a
// single-item append (appendedVar), or a spread of the function's own
// variadic parameter (q = append(q, changes...) in func add(changes
// ...Change)): an enqueue helper that callers hand one event's items, not a
// batch the function was configured with.
func (c *checker) enqueuedVar(cur inspector.Cursor) *types.Var {
	info := c.pass.TypesInfo
	a := cur.Node().(*ast.AssignStmt)
	if v := appendedVar(info, a); v != nil {
		return v
	}
	v := grownVar(info, a)
	call, _ := ast.Unparen(a.Rhs[0]).(*ast.CallExpr)
	if v == nil || call == nil || len(call.Args) != 2 || !call.Ellipsis.IsValid() {
		return nil
	}
	fn := code.EnclosingFunc(cur)
	if !fn.Valid() {
		return nil
	}
	sig := code.FuncSignature(info, fn.Node())
	if sig == nil || !sig.Variadic() || code.Var(info, call.Args[1]) != sig.Params().At(sig.Params().Len()-1) {
		return nil
	}
	// The package itself must feed it: a generic queue type's Put(items
	// ...T) that only other packages call may be bounded there (mihomo's
	// history: Put, then Pop while Len() > N).
	decl, ok := fn.Node().(*ast.FuncDecl)
	if !ok {
		return nil
	}
	obj, ok := info.Defs[decl.Name].(*types.Func)
	if !ok || len(c.sh.CallersOf(obj)) == 0 {
		return nil
	}
	return v
}

// isSpread reports whether the enqueue at site appends a spread slice.
func isSpread(site inspector.Cursor) bool {
	a, ok := site.Node().(*ast.AssignStmt)
	if !ok || len(a.Rhs) != 1 {
		return false
	}
	call, ok := ast.Unparen(a.Rhs[0]).(*ast.CallExpr)
	return ok && call.Ellipsis.IsValid()
}

// grownVar returns the variable of q = append(q, …), whatever is appended,
// or nil.
func grownVar(info *types.Info, a *ast.AssignStmt) *types.Var {
	if a.Tok != token.ASSIGN || len(a.Lhs) != 1 || len(a.Rhs) != 1 {
		return nil
	}
	call, ok := ast.Unparen(a.Rhs[0]).(*ast.CallExpr)
	if !ok || code.BuiltinName(info, call) != "append" || len(call.Args) < 2 || !shared.SameExpr(a.Lhs[0], call.Args[0]) {
		return nil
	}
	return code.Var(info, a.Lhs[0])
}

// takesAll returns the queues the assignment at cur empties after taking
// their items: in a loop of its function, a consumer that drains in batches
// (x := q.items … q.items = nil, or x, q.items = q.items, nil); anywhere, a
// function that swaps the queue out and returns what it took (swapped =
// p.frame; p.frame = message.NewFrame(n); return). The empty value may be
// a call of a function that only returns a new empty slice (a fact). A
// reset outside a loop that keeps nothing (Close, Reset) is not a consumer.
func (c *checker) takesAll(cur inspector.Cursor) []*types.Var {
	info := c.pass.TypesInfo
	a := cur.Node().(*ast.AssignStmt)
	if a.Tok != token.ASSIGN || len(a.Lhs) != len(a.Rhs) || !slices.ContainsFunc(a.Rhs, c.isEmptySlice) {
		return nil
	}
	inLoop := shared.NearestLoop(cur) != nil
	var out []*types.Var
	for i, lhs := range a.Lhs {
		v := code.Var(info, lhs)
		if !c.isSliceQueue(v) || !c.isEmptySlice(a.Rhs[i]) {
			continue
		}
		var into *types.Var // x in x, q = q, nil
		for j, rhs := range a.Rhs {
			if j != i && shared.SameExpr(rhs, lhs) {
				into = code.Var(info, a.Lhs[j])
				if into == nil {
					into = v // a field of another value: still taken
				}
			}
		}
		switch {
		case inLoop && (into != nil || takenInto(info, shared.NearestLoop(cur), cur, lhs) != nil):
			out = append(out, v)
		case !inLoop && c.returnsTaken(cur, lhs, into):
			out = append(out, v)
		}
	}
	return out
}

// isEmptySlice reports whether e is a new empty slice, written out or made
// by a function that only returns one.
func (c *checker) isEmptySlice(e ast.Expr) bool {
	if admission.IsEmptySlice(c.pass.TypesInfo, e) {
		return true
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	h, _ := c.sh.Res.HelperCall(call)
	return h != nil && h.NewEmpty
}

// returnsTaken reports whether the function around the reset at cur took
// the queue q (as written there) into a local variable — into, or one
// assigned q earlier in the function — and returns that variable from
// every return: the items go to the caller, who consumes them.
func (c *checker) returnsTaken(cur inspector.Cursor, q ast.Expr, into *types.Var) bool {
	info := c.pass.TypesInfo
	fn := code.EnclosingFunc(cur)
	if !fn.Valid() {
		return false
	}
	body := code.FuncBody(fn.Node())
	if into == nil {
		into = takenInto(info, body, cur, q)
	}
	if into == nil || !code.IsLocal(into) {
		return false
	}
	sig := code.FuncSignature(info, fn.Node())
	named := sig != nil && sig.Results().Len() == 1 && sig.Results().At(0) == into
	// if len(q) == 0 { return nil }: the queue, empty, is what it returns.
	whenEmpty := make(map[*ast.ReturnStmt]bool)
	ast.Inspect(body, func(n ast.Node) bool {
		if ifs, ok := n.(*ast.IfStmt); ok && ifs.Init == nil && ifs.Else == nil && len(ifs.Body.List) == 1 && c.testsEmpty(ifs.Cond, q) {
			if ret, ok := ifs.Body.List[0].(*ast.ReturnStmt); ok && len(ret.Results) == 1 && (code.IsNil(info, ret.Results[0]) || c.isEmptySlice(ret.Results[0])) {
				whenEmpty[ret] = true
			}
		}
		_, lit := n.(*ast.FuncLit)
		return !lit
	})
	returns := 0
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			returns++
			switch {
			case whenEmpty[n]:
			case len(n.Results) == 0:
				ok = ok && named
			case len(n.Results) == 1:
				ok = ok && code.Var(info, n.Results[0]) == into
			default:
				ok = false
			}
		}
		return ok
	})
	return ok && returns > 0
}

// testsEmpty reports whether cond tests that the queue q, as written
// there, is empty: len(q) == 0, len(q) < 1, 0 == len(q).
func (c *checker) testsEmpty(cond ast.Expr, q ast.Expr) bool {
	info := c.pass.TypesInfo
	x, op, k, ok := shared.ComparedWithConst(info, cond)
	if !ok {
		return false
	}
	call, isCall := ast.Unparen(x).(*ast.CallExpr)
	if !isCall || code.BuiltinName(info, call) != "len" || len(call.Args) != 1 || !shared.SameExpr(call.Args[0], q) {
		return false
	}
	return (op == token.EQL && k == 0) || (op == token.LSS && k == 1) || (op == token.LEQ && k == 0)
}

// takenInto returns the local variable a statement of root, before the
// reset at cur, copies the queue q (as written there) into (x := q, x = q),
// or nil.
func takenInto(info *types.Info, root ast.Node, cur inspector.Cursor, q ast.Expr) *types.Var {
	var into *types.Var
	ast.Inspect(root, func(n ast.Node) bool {
		if into != nil || n == nil || n.Pos() >= cur.Node().Pos() {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if a, ok := n.(*ast.AssignStmt); ok && len(a.Lhs) == len(a.Rhs) {
			for i, rhs := range a.Rhs {
				if v := code.Var(info, a.Lhs[i]); v != nil && code.IsLocal(v) && shared.SameExpr(rhs, q) {
					into = v
				}
			}
		}
		return into == nil
	})
	return into
}

// isSliceQueue reports whether v is shared state of slice type that could be
// an item queue. Byte slices are buffers that parsers consume with
// buf = buf[n:], not queues of items.
func (c *checker) isSliceQueue(v *types.Var) bool {
	if !c.sh.IsSharedVar(v) {
		return false
	}
	s, ok := v.Type().Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return !ok || b.Kind() != types.Uint8
}

// isFrontDequeue reports whether the re-slice q[k:] at cur removes items from
// the front of q: q = q[k:], x, q = q[0], q[1:], copy(q, q[k:]) or
// q = append(q[:0], q[k:]...).
func isFrontDequeue(info *types.Info, cur inspector.Cursor, v *types.Var) bool {
	s := cur.Node().(*ast.SliceExpr)
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if p.Tok != token.ASSIGN || len(p.Lhs) != len(p.Rhs) {
			return false
		}
		for i, rhs := range p.Rhs {
			if rhs == s {
				return code.Var(info, p.Lhs[i]) == v && shared.SameExpr(p.Lhs[i], s.X)
			}
		}
	case *ast.CallExpr:
		switch code.BuiltinName(info, p) {
		case "copy":
			return len(p.Args) == 2 && p.Args[1] == s && code.Var(info, p.Args[0]) == v
		case "append":
			if len(p.Args) != 2 || p.Args[1] != s || !p.Ellipsis.IsValid() {
				return false
			}
			head, ok := ast.Unparen(p.Args[0]).(*ast.SliceExpr)
			return ok && head.Low == nil && head.High != nil && isConst(info, head.High, "0") &&
				code.Var(info, head.X) == v && assignsBack(info, cur.Parent(), v)
		}
	}
	return false
}

// evictsByValue reports whether the re-slice at cur runs under a condition
// that reads the queue's items (for len(q) > 0 && q[0].at < cutoff): a
// sliding window or an expiry, bounded by age, not a consumer taking work.
func evictsByValue(info *types.Info, cur inspector.Cursor, v *types.Var) bool {
	for e := range cur.Enclosing((*ast.IfStmt)(nil), (*ast.ForStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		var cond ast.Expr
		switch n := e.Node().(type) {
		case *ast.IfStmt:
			cond = n.Cond
		case *ast.ForStmt:
			cond = n.Cond
		default:
			return false
		}
		if cond == nil {
			continue
		}
		indexes := false
		ast.Inspect(cond, func(n ast.Node) bool {
			if ix, ok := n.(*ast.IndexExpr); ok && code.Var(info, ix.X) == v {
				indexes = true
			}
			return !indexes
		})
		return indexes
	}
	return false
}

// assignsBack reports whether the value at cur is assigned to v alone:
// q = slices.Delete(q, 0, k).
func assignsBack(info *types.Info, cur inspector.Cursor, v *types.Var) bool {
	a, ok := cur.Parent().Node().(*ast.AssignStmt)
	return ok && a.Tok == token.ASSIGN && len(a.Lhs) == 1 && len(a.Rhs) == 1 && a.Rhs[0] == cur.Node() &&
		code.Var(info, a.Lhs[0]) == v
}

// inLocalValue reports whether e, a field selection, reaches its field
// through struct values only, from a local variable: r.Topics of var r
// Fetch. The slice belongs to a value the function made, not to shared
// state, whatever the field (franz-go builds a result Fetch this way
// while another Fetch, shared, is the queue).
func inLocalValue(info *types.Info, e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	for {
		t := info.TypeOf(sel.X)
		if t == nil {
			return false
		}
		if _, ok := t.Underlying().(*types.Struct); !ok {
			return false // a pointer (or an interface) may reach shared state
		}
		switch x := ast.Unparen(sel.X).(type) {
		case *ast.Ident:
			v, ok := info.Uses[x].(*types.Var)
			return ok && code.IsLocal(v)
		case *ast.SelectorExpr:
			sel = x
		default:
			return false
		}
	}
}

// appendedVar returns the variable of a single-item append q = append(q, x),
// or nil. Appends of several items or of a spread slice add batches, which a
// length guard for one item would not bound.
func appendedVar(info *types.Info, a *ast.AssignStmt) *types.Var {
	if a.Tok != token.ASSIGN || len(a.Lhs) != 1 || len(a.Rhs) != 1 {
		return nil
	}
	call, ok := ast.Unparen(a.Rhs[0]).(*ast.CallExpr)
	if !ok || code.BuiltinName(info, call) != "append" || len(call.Args) != 2 || call.Ellipsis.IsValid() {
		return nil
	}
	v := code.Var(info, a.Lhs[0])
	if v == nil || code.Var(info, call.Args[0]) != v || !shared.SameExpr(a.Lhs[0], call.Args[0]) {
		return nil
	}
	return v
}

// reportQueue reports each enqueue site of q that has no bound, in a function
// other than one that dequeues, when q is shared between goroutines.
func (c *checker) reportQueue(q *queue) {
	if c.prefilledPool(q) {
		for _, site := range q.enqueues {
			c.sh.Rep.Silence(site.Node(), rulePrefilledPool)
		}
		return
	}
	for _, site := range q.enqueues {
		fn := code.EnclosingFunc(site)
		if !fn.Valid() {
			continue
		}
		if r := c.queueSiteBounded(q, site, fn); r != nil {
			c.sh.Rep.Silence(site.Node(), r)
			continue
		}
		consumer, _ := c.consumerElsewhere(q, fn)
		c.findings = append(c.findings, c.fix.fifoFinding(q, site, fn, consumer))
	}
}

// isHeapPush reports whether fn is the Push method of a type that
// implements heap.Interface: the slice it appends to is a priority heap
// (container/heap or a fork drives it), ordered by Less, not a FIFO.
func isHeapPush(info *types.Info, fn inspector.Cursor) bool {
	fd, ok := fn.Node().(*ast.FuncDecl)
	if !ok || fd.Recv == nil || fd.Name.Name != "Push" {
		return false
	}
	m, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	recv := m.Signature().Recv().Type()
	for _, name := range knowledge.HeapMethods.Entries() {
		if obj, _, _ := types.LookupFieldOrMethod(recv, true, m.Pkg(), name); obj == nil {
			return false
		}
	}
	return true
}

// queueSiteBounded returns the rule that keeps the enqueue at site, in fn,
// of the slice or list queue q from being a finding, or nil. The rules are
// asked in the order of the chain of predicates they were before they had
// names, cheapest first: sharing and the function's own bound look at a
// few functions; sorting and re-queueing index the package's calls.
func (c *checker) queueSiteBounded(q *queue, site, fn inspector.Cursor) *report.Rule {
	info := c.pass.TypesInfo
	switch {
	case c.pumped[site.Node()]:
		return rulePumped
	case inBoundedLoop(info, site):
		return ruleBatchFill
	case shared.InOverflowDefault(info, site, nil):
		return ruleQueueOverflowDefault
	}
	if _, ok := c.consumerElsewhere(q, fn); !ok {
		return ruleSameFunction
	}
	switch {
	case !c.isShared(q):
		return ruleNotShared
	case c.boundedIn(fn, q, 0, site):
		return ruleLengthCheck
	case c.emptiedAfter(q, site, fn):
		return ruleEmptiedAfter
	case c.mirrorsJobQueue(q, site):
		return ruleMirrorsChannel
	case c.blocksAfter(fn, site):
		return ruleCallerWaits
	case c.sh.IsSorted(q.v) || isHeapPush(info, fn):
		return ruleSorted
	case c.drainedByCallers(q, fn):
		return ruleDrainedByCallers
	case c.drainsUnderLock(q, site, fn):
		return ruleDrainsUnderLock
	}
	return nil
}

// emptiedAfter reports whether the function at fn empties the queue after
// the enqueue at site (q = q[:0], q = nil), outside function literals: it
// adds an item and then takes all it holds, so what it adds does not
// outlive the call (a flush that appends the current buffer to those
// pending and writes them all).
func (c *checker) emptiedAfter(q *queue, site, fn inspector.Cursor) bool {
	info := c.pass.TypesInfo
	found := false
	fn.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.AssignStmt)(nil)}, func(cur inspector.Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.FuncLit:
			return n == fn.Node()
		case *ast.AssignStmt:
			if n.Pos() < site.Node().End() || n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, lhs := range n.Lhs {
				if v := code.Var(info, lhs); v != nil && v.Origin() == q.v && c.isEmptySlice(n.Rhs[i]) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// mirrorsJobQueue reports whether the enqueue at site runs only once a send
// on a job channel of the package has gone through (in the send's select
// case, or after the send in the same block), and a function that dequeues
// from q receives from that channel. The slice then holds what the channel
// holds and what its worker has in hand (a flusher that takes a memtable
// from the channel, writes it, then drops it from the front of the slice
// readers search), so the channel's buffer bounds it.
func (c *checker) mirrorsJobQueue(q *queue, site inspector.Cursor) bool {
	ch := sentBefore(c.pass.TypesInfo, site)
	if ch == nil || c.adm == nil || !c.adm.IsJobQueue(ch) {
		return false
	}
	for _, d := range q.dequeues {
		if dfn := code.EnclosingFunc(d); dfn.Valid() && receivesFrom(c.pass.TypesInfo, dfn, ch) {
			return true
		}
	}
	return false
}

// sentBefore returns the channel a send that must go through before the
// statement at site runs sends on: the send of the select case site is in,
// or a blocking send earlier in site's own block.
func sentBefore(info *types.Info, site inspector.Cursor) *types.Var {
	if block, ok := site.Parent().Node().(*ast.BlockStmt); ok {
		for _, st := range block.List {
			if st.Pos() >= site.Node().Pos() {
				break
			}
			if send, ok := st.(*ast.SendStmt); ok {
				if v := code.Var(info, send.Chan); v != nil {
					return v.Origin()
				}
			}
		}
	}
	for e := range site.Enclosing((*ast.CommClause)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		cc, ok := e.Node().(*ast.CommClause)
		if !ok {
			return nil
		}
		if send, ok := cc.Comm.(*ast.SendStmt); ok {
			if v := code.Var(info, send.Chan); v != nil {
				return v.Origin()
			}
		}
		return nil
	}
	return nil
}

// receivesFrom reports whether the function at fn receives from the channel
// ch (a receive or a range over it), outside function literals.
func receivesFrom(info *types.Info, fn inspector.Cursor, ch *types.Var) bool {
	found := false
	fn.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.UnaryExpr)(nil), (*ast.RangeStmt)(nil)}, func(cur inspector.Cursor) bool {
		if _, lit := cur.Node().(*ast.FuncLit); lit {
			return cur.Node() == fn.Node()
		}
		if x := shared.ReceivedFrom(cur.Node()); x != nil {
			if v := code.Var(info, x); v != nil && v.Origin() == ch {
				found = true
			}
		}
		return !found
	})
	return found
}

// prefilledPool reports whether the queue is a pool of resources made up
// front: one of its enqueues appends the counter of a counting loop (for i
// := base; i < base+size; i++ { pool = append(pool, i) }), as a free list of
// ports or ids is filled. Its other enqueues put back what a get took, so
// it never holds more than it was filled with (tailscale's stunstamp ports).
func (c *checker) prefilledPool(q *queue) bool {
	info := c.pass.TypesInfo
	for _, site := range q.enqueues {
		a, ok := site.Node().(*ast.AssignStmt)
		if !ok || len(a.Rhs) != 1 {
			continue
		}
		call, ok := ast.Unparen(a.Rhs[0]).(*ast.CallExpr)
		if !ok || len(call.Args) != 2 || call.Ellipsis.IsValid() {
			continue
		}
		for e := range site.Enclosing((*ast.ForStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
			loop, ok := e.Node().(*ast.ForStmt)
			if !ok || loop.Init == nil || loop.Cond == nil || loop.Post == nil {
				break
			}
			if inc, ok := loop.Post.(*ast.IncDecStmt); ok {
				if counter := code.Var(info, inc.X); counter != nil && refersToVar(info, call.Args[1], counter) {
					return true
				}
			}
			break
		}
	}
	return false
}

// blocksAfter reports whether the function at fn blocks after the enqueue at
// site: it waits on a channel (a receive, a send, a select without default)
// or a sync.Cond. Then each queued item has a caller parked with it, as in a
// lock's queue of waiters, and the callers bound the queue.
//
// When the enqueue sits in a loop that runs until something happens (a for
// with a condition or none, a range over a channel), only a wait in that
// loop counts: a wait the function reaches after finishing it (a dispatcher
// that fills per-client buffers while work is stacked, then waits for more)
// paces the dispatcher, and nothing waits with the item. A range over a
// slice or map ends by itself: a waiter queued on several keys in one
// waits after it.
func (c *checker) blocksAfter(fn, site inspector.Cursor) bool {
	after := site.Node().End()
	blocks := false
	scope := fn
	for loop := range site.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		if !fn.Contains(loop) || loop.Node() == fn.Node() {
			break
		}
		if r, ok := loop.Node().(*ast.RangeStmt); ok && !code.IsChan(c.pass.TypesInfo.TypeOf(r.X)) {
			continue
		}
		if _, ok := loop.Node().(*ast.FuncLit); ok {
			break
		}
		scope = loop
		break
	}
	scope.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.UnaryExpr)(nil), (*ast.SendStmt)(nil), (*ast.SelectStmt)(nil), (*ast.CallExpr)(nil)}, func(cur inspector.Cursor) bool {
		n := cur.Node()
		if _, ok := n.(*ast.FuncLit); ok && n != fn.Node() {
			return false // runs elsewhere
		}
		if blocks || n.End() <= after {
			return !blocks
		}
		switch n := n.(type) {
		case *ast.UnaryExpr:
			blocks = n.Op == token.ARROW && !code.InSelectWithDefault(cur)
		case *ast.SendStmt:
			blocks = !code.InSelectWithDefault(cur)
		case *ast.SelectStmt:
			blocks = !code.HasDefault(n)
		case *ast.CallExpr:
			blocks = shared.IsSyncCall(c.sh.Callee(n), "Wait")
		}
		return !blocks
	})
	return blocks
}

// inBoundedLoop reports whether the enqueue at site sits in a range over a
// slice, array, map, string or integer in its function that is a batch
// copied from its input into one queue, like q = append(q, items...), such
// as a constructor filling the queue from its configuration. A range over
// recipients is not: when the queue appended to depends on the iteration
// (lb.details for each lb of s.lives), every recipient's queue gets one item.
func inBoundedLoop(info *types.Info, site inspector.Cursor) bool {
	target := enqueuedTo(site.Node())
	for e := range site.Enclosing((*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		r, ok := e.Node().(*ast.RangeStmt)
		if !ok {
			return false
		}
		if t := info.TypeOf(r.X); t != nil {
			switch t.Underlying().(type) {
			case *types.Chan, *types.Signature:
				continue // a stream, an iterator: no bound from the input
			}
			if target != nil && dependsOnIteration(info, target, r) {
				continue // one item for each recipient
			}
			return true
		}
	}
	return false
}

// enqueuedTo returns the queue an enqueue statement adds to, as written: the
// left side of q = append(q, x), the receiver of l.PushBack(x).
func enqueuedTo(stmt ast.Node) ast.Expr {
	switch s := stmt.(type) {
	case *ast.AssignStmt:
		if len(s.Lhs) == 1 {
			return s.Lhs[0]
		}
	case *ast.ExprStmt:
		if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				return sel.X
			}
		}
	}
	return nil
}

// dependsOnIteration reports whether expr uses a variable the range
// statement declares, in its header or its body.
func dependsOnIteration(info *types.Info, expr ast.Expr, r *ast.RangeStmt) bool {
	return code.AnyNode(expr, nil, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() && code.Inside(v.Pos(), r) {
				return true
			}
		}
		return false
	})
}

// consumerElsewhere returns a dequeue site of q in a function other than fn.
// A function that both fills and drains its queue (or trims it) bounds it.
func (c *checker) consumerElsewhere(q *queue, fn inspector.Cursor) (inspector.Cursor, bool) {
	var other inspector.Cursor
	found := false
	for _, d := range q.dequeues {
		dfn := code.EnclosingFunc(d)
		if !dfn.Valid() {
			continue
		}
		if dfn.Node() == fn.Node() {
			return inspector.Cursor{}, false
		}
		if !found {
			other, found = d, true
		}
	}
	return other, found
}

// drainedByCallers reports whether every caller of fn, a declared function
// that code outside the package cannot call, also drains q, itself or through
// a function it calls: the consumer puts back what it took (a retry), or one
// pass fills a work list and then drains it. Neither grows the queue with
// the rate of a producer.
func (c *checker) drainedByCallers(q *queue, fn inspector.Cursor) bool {
	decl, ok := fn.Node().(*ast.FuncDecl)
	if !ok {
		return false
	}
	obj, ok := c.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok || reachableOutside(obj) {
		return false
	}
	callers := c.sh.CallersOf(obj)
	if len(callers) == 0 {
		return false
	}
	for _, site := range callers {
		caller := code.EnclosingFunc(site)
		if !caller.Valid() || !c.drainsIn(q, caller) {
			return false
		}
	}
	return true
}

// reachableOutside reports whether code outside fn's package can call fn: it
// is exported, and a method of an exported type if it is a method.
func reachableOutside(fn *types.Func) bool {
	if !fn.Exported() {
		return false
	}
	recv := code.Recv(fn)
	if recv == nil {
		return true
	}
	n := code.NamedOf(recv)
	return n == nil || n.Obj().Exported()
}

// drainsIn reports whether the function at fn dequeues from q, itself or in
// a function of the package it calls.
func (c *checker) drainsIn(q *queue, fn inspector.Cursor) bool {
	if c.dequeuesIn(q, fn) {
		return true
	}
	for cur := range fn.Preorder((*ast.CallExpr)(nil)) {
		if d, ok := c.sh.Res.FuncDecl(c.sh.Callee(cur.Node().(*ast.CallExpr))); ok && d.Node() != fn.Node() && c.dequeuesIn(q, d) {
			return true
		}
	}
	return false
}

// dequeuesIn reports whether one of q's dequeue sites is in the function at fn.
func (c *checker) dequeuesIn(q *queue, fn inspector.Cursor) bool {
	for _, d := range q.dequeues {
		if dfn := code.EnclosingFunc(d); dfn.Valid() && dfn.Node() == fn.Node() {
			return true
		}
	}
	return false
}

// isShared reports whether q is touched under a mutex or sync.Cond, or from a
// goroutine of its own, by any function that fills or drains it.
func (c *checker) isShared(q *queue) bool {
	if q.shared != nil {
		return *q.shared
	}
	shared := false
	for _, site := range append(append([]inspector.Cursor(nil), q.enqueues...), q.dequeues...) {
		if fn := code.EnclosingFunc(site); fn.Valid() && (c.sh.RunsConcurrently(fn) || c.sh.HoldsLock(fn)) {
			shared = true
			break
		}
	}
	q.shared = &shared
	return shared
}

// boundedIn reports whether the function at fn bounds q: it compares the
// queue's length (or a counter field) with something, trims or evicts from
// the queue itself, or acquires a limiter. depth 0 also looks one call deep
// into functions fn calls (a full() helper, a trim()), and callers are looked
// at up to two calls up (a Submit that checks the length before calling
// push, a worker that checks through a method before calling the method that
// pushes). A test for emptiness (len(q) == 0, len(q) > 0) bounds nothing.
// When site, the enqueue, is valid, a counter comparison that follows it
// (outside a loop holding both) does not count: it cannot guard the append
// (if q.workers < max { go q.run() } after it bounds workers, not items); a
// length comparison after it can (a flush or a trim when the queue is full).
func (c *checker) boundedIn(fn inspector.Cursor, q *queue, depth int, site inspector.Cursor) bool {
	info := c.pass.TypesInfo
	kinds := []ast.Node{(*ast.BinaryExpr)(nil), (*ast.SliceExpr)(nil), (*ast.CallExpr)(nil), (*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil)}
	for cur := range fn.Preorder(kinds...) {
		switch n := cur.Node().(type) {
		case *ast.BinaryExpr:
			if !shared.IsComparison(n.Op) {
				continue
			}
			if onlyNotes(info, cur) {
				continue // if len(q) > max { log.Print("queue is long") } bounds nothing
			}
			for _, pair := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
				if c.lens.mentionsLength(pair[0], q.v) && !isEmptinessBound(info, pair[1]) {
					return true
				}
			}
			if site.Valid() && follows(cur, site, fn) {
				continue
			}
			if shared.IsRelational(n.Op) && (c.lens.isCounter(n.X) || c.lens.isCounter(n.Y)) {
				return true // q.n >= q.max: a bound kept in a counter
			}
		case *ast.SliceExpr:
			if !q.list && n.Low != nil && code.Var(info, n.X) == q.v {
				return true // trims the front after appending: "keep the last N"
			}
		case *ast.SendStmt, *ast.UnaryExpr:
			if _, ok := c.adm.At(cur); ok {
				return true
			}
		case *ast.CallExpr:
			if _, ok := c.adm.At(cur); ok {
				return true
			}
			if q.list && isMethodOn(info, n, q.v, "Remove", "Init", "PopFront", "PopBack", "Clear") {
				return true // evicts or clears
			}
			if depth == 0 && !isSpawnOrDefer(cur) {
				if d, ok := c.sh.Res.FuncDecl(c.sh.Callee(n)); ok && d.Node() != fn.Node() && c.boundedIn(d, q, 2, inspector.Cursor{}) {
					return true
				}
			}
		}
	}
	if decl, ok := fn.Node().(*ast.FuncDecl); ok && depth < 2 {
		if obj, ok := info.Defs[decl.Name].(*types.Func); ok {
			for _, site := range c.sh.CallersOf(obj) {
				if caller := code.EnclosingFunc(site); caller.Valid() && caller.Node() != decl && c.boundedIn(caller, q, depth+1, inspector.Cursor{}) {
					return true
				}
			}
		}
	}
	return false
}

// onlyNotes reports whether the comparison at cur is the condition (or part
// of it) of an if statement without an else whose body only notes that the
// condition held: it logs or counts, perhaps under an inner if that does
// the same (a rate-limited warning). Such a comparison watches the queue
// grow; it does not stop it.
func onlyNotes(info *types.Info, cur inspector.Cursor) bool {
	for p := cur.Parent(); p.Valid(); p = p.Parent() {
		switch n := p.Node().(type) {
		case ast.Expr:
			continue
		case *ast.IfStmt:
			return n.Else == nil && p.ChildAt(edge.IfStmt_Cond, -1).Contains(cur) && notesOnly(info, n.Body.List)
		}
		return false
	}
	return false
}

// notesOnly reports whether stmts only log or count, perhaps under ifs with
// call-free conditions that do the same.
func notesOnly(info *types.Info, stmts []ast.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.IfStmt:
			if st.Init != nil || st.Else != nil || !code.CallFree(info, nil, st.Cond) || !notesOnly(info, st.Body.List) {
				return false
			}
		default:
			if !sendselect.IsLog(info, st) && !sendselect.IsCount(info, st) {
				return false
			}
		}
	}
	return true
}

// isSpawnOrDefer reports whether the call at cur is the call of a go or
// defer statement: it runs later, and cannot guard what comes before.
func isSpawnOrDefer(cur inspector.Cursor) bool {
	switch p := cur.Parent().Node().(type) {
	case *ast.GoStmt:
		return p.Call == cur.Node()
	case *ast.DeferStmt:
		return p.Call == cur.Node()
	}
	return false
}

// follows reports whether the node at cur comes after site in fn, with no
// loop of fn holding both: it runs after site, never before it.
func follows(cur, site, fn inspector.Cursor) bool {
	if cur.Node().Pos() < site.Node().End() {
		return false
	}
	for loop := range site.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
		if !fn.Contains(loop) {
			break
		}
		if loop.Contains(cur) {
			return false
		}
	}
	return true
}

// drainsUnderLock reports whether every consumer of q is a loop that drains
// it while holding the mutex the enqueue at site holds, and releases it only
// inside a sync.Cond's Wait in that loop (or when it returns): a producer can
// append only while the consumer waits, and blocks on the mutex while the
// consumer works, so the lock already keeps the producers at its pace. A
// consumer that takes one item and returns, or unlocks to work, does not.
func (c *checker) drainsUnderLock(q *queue, site, fn inspector.Cursor) bool {
	atEnqueue := make(map[string]bool)
	for _, h := range c.sh.HeldLocks(site, fn) {
		if h.Key != "" {
			atEnqueue[h.Key] = true
		}
	}
	if len(atEnqueue) == 0 {
		return false
	}
	for _, d := range q.dequeues {
		dfn := code.EnclosingFunc(d)
		if !dfn.Valid() {
			return false
		}
		if !c.sh.WaitsAround(d, dfn) {
			return false
		}
		held := false
		for _, h := range c.sh.HeldLocks(d, dfn) {
			if atEnqueue[h.Key] && h.Deferred && !c.sh.UnlocksIn(dfn, h.Key) {
				held = true
			}
		}
		if !held {
			return false
		}
	}
	return true
}

// enqueuesIn counts q's enqueue sites inside fn.
func enqueuesIn(q *queue, fn inspector.Cursor) int {
	n := 0
	for _, e := range q.enqueues {
		if fn.Contains(e) {
			n++
		}
	}
	return n
}
