package admission

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// Waits on some path, at any depth. Inner (cond.go) holds a wait on a
// function's main path; a caller's time also goes to a wait in a branch
// (a limiter taken for one kind of request), in the first of a loop of
// attempts, in a goroutine the function waits for, or several calls
// down. FuncFact.Deep records such a wait when it is of a kind that
// queues behind other callers (deepKinds) and
// the path through it goes on to blocking work: then a figure that spans
// a call of the function times the queueing as work.
//
// Not followed: deferred calls, goroutines the function does not wait
// for, function literals (they run when something else calls them),
// branches taken only when an error is set (if err != nil { … }: a
// reconnect's backoff runs only on failure), interface methods and func
// values (their implementations' Deep facts are not joined). Not a wait
// here: one on a limiter the function makes itself (it bounds the call's
// own fan-out), one per item of a batch (in a range loop, or a loop that
// may not run), and one on a path that leaves before any work.

// deepKinds are the waits a Deep fact records: slots and rates shared
// with other callers. A pool hand-off, a mutex, a consumer's wait for
// data and a connection pool's checkout (which keeps its own wait
// statistics) are not; nor a backoff, which the retry rules own
// (waittiming's retriesFact and its figures of retrying calls).
var deepKinds = map[Kind]bool{
	SemaphoreChan: true, TokenChan: true, Semaphore: true, RateLimiter: true,
	Gate: true, LimitedGroup: true, Listed: true, CondBudget: true,
}

// classifyDeep sets FuncFact.Deep on the package's declared functions, to
// a fixpoint (callees first, so a chain takes one round), once the Work
// facts are known: work after the wait is what makes it a caller's
// queueing.
func (r *Result) classifyDeep(decls []decl) {
	strict := r.Finder(Options{Strict: true})
	for range 8 {
		changed := false
		for _, d := range decls {
			ff := r.helpers[d.fn]
			if ff != nil && (ff.Wait != nil || ff.Inner != nil) {
				continue
			}
			body, ok := d.cur.FindNode(d.cur.Node().(*ast.FuncDecl).Body)
			if !ok {
				continue
			}
			dw := r.deepWait(strict, d.fn, body)
			if ff == nil && dw == nil {
				continue
			}
			if ff != nil && sameInner(ff.Deep, dw) {
				continue
			}
			if ff == nil {
				ff = &FuncFact{}
				r.helpers[d.fn] = ff
			}
			ff.Deep = dw
			changed = true
		}
		if !changed {
			break
		}
	}
}

func sameInner(a, b *InnerWait) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// deepWait returns the first wait of deepKinds that fn's body runs on some
// path, itself or in a callee whose fact says it does, when blocking work
// follows it on that path; nil otherwise.
func (r *Result) deepWait(strict *Finder, fn *types.Func, body inspector.Cursor) *InnerWait {
	d := &deepWalk{r: r, strict: strict, fn: fn, body: body.Node()}
	d.visit(body)
	return d.found
}

type deepWalk struct {
	r      *Result
	strict *Finder
	fn     *types.Func
	body   ast.Node
	loops  []inspector.Cursor // the loops around the node visited
	found  *InnerWait
}

func (d *deepWalk) visit(cur inspector.Cursor) {
	if d.found != nil {
		return
	}
	switch n := cur.Node().(type) {
	case *ast.FuncLit, *ast.DeferStmt:
		return
	case *ast.GoStmt:
		if !code.AwaitedAt(d.r.info, cur).IsValid() {
			return
		}
	case *ast.IfStmt:
		for c := range cur.Children() {
			if (c.Node() == n.Body && d.r.errorOnly(n, false)) || (c.Node() == n.Else && d.r.errorOnly(n, true)) {
				continue
			}
			d.visit(c)
		}
		return
	case *ast.ForStmt, *ast.RangeStmt:
		d.loops = append(d.loops, cur)
		for c := range cur.Children() {
			d.visit(c)
		}
		d.loops = d.loops[:len(d.loops)-1]
		return
	case *ast.CallExpr, *ast.SendStmt, *ast.UnaryExpr, *ast.SelectStmt:
		// What a call is handed runs before it.
		for c := range cur.Children() {
			d.visit(c)
		}
		if d.found == nil {
			d.found = d.waitAt(cur)
		}
		return
	}
	for c := range cur.Children() {
		d.visit(c)
	}
}

// waitAt returns the wait at cur when it is one a Deep fact records.
func (d *deepWalk) waitAt(cur inspector.Cursor) *InnerWait {
	if w, ok := d.strict.At(cur); ok && deepKinds[w.Kind] {
		if d.madeHere(w.On) || d.madeHere(receiverVar(d.r.info, cur.Node())) || d.perItem() || d.leavesBeforeWork(cur) {
			return nil
		}
		return &InnerWait{Kind: w.Kind, Name: w.Name, At: d.r.posString(w.Node.Pos())}
	}
	call, ok := cur.Node().(*ast.CallExpr)
	if !ok {
		return nil
	}
	h, callee := d.r.HelperCall(call)
	if h == nil || callee == nil || callee == d.fn || d.madeHere(receiverVar(d.r.info, call)) {
		return nil
	}
	for _, iw := range []*InnerWait{h.Inner, h.Deep} {
		if iw == nil || !deepKinds[iw.Kind] || d.perItem() {
			continue
		}
		// The callee works after its wait, unless it only waits.
		if iw.WaitOnly && d.leavesBeforeWork(cur) {
			continue
		}
		found := *iw
		found.Ctx, found.Param, found.WaitOnly = false, 0, false
		return &found
	}
	return nil
}

// madeHere reports whether v is a variable the function declares in its
// body: a limiter made there (throttle := y.NewThrottle(8)) bounds the
// call's own fan-out, not a queue behind other callers.
func (d *deepWalk) madeHere(v *types.Var) bool {
	return v != nil && !v.IsField() && v.Pos() > d.body.Pos() && v.Pos() < d.body.End()
}

// perItem reports whether a wait at the node visited is one per
// item of a batch: in a range loop, or in a for loop that may run no
// iteration (a loop of attempts runs once at least).
func (d *deepWalk) perItem() bool {
	for _, l := range d.loops {
		switch n := l.Node().(type) {
		case *ast.RangeStmt:
			return true
		case *ast.ForStmt:
			if !runsOnce(d.r.info, n) {
				return true
			}
		}
	}
	return false
}

// leavesBeforeWork reports whether the path on from the wait at cur
// leaves the function (a return, the end of the body) before a call that
// works: a batch too large shed after taking a slot. In a loop, the work
// of the next iteration counts.
func (d *deepWalk) leavesBeforeWork(cur inspector.Cursor) bool {
	for p := cur; p.Valid() && p.Node() != d.body; p = p.Parent() {
		st, ok := p.Node().(ast.Stmt)
		if !ok {
			continue
		}
		parent := p.Parent()
		var list []ast.Stmt
		switch pn := parent.Node().(type) {
		case *ast.BlockStmt:
			list = pn.List
		case *ast.CaseClause:
			list = pn.Body
		case *ast.CommClause:
			list = pn.Body
		case *ast.ForStmt, *ast.RangeStmt:
			return !d.worksIn(parent)
		default:
			continue
		}
		after := false
		for _, s := range list {
			if s == st {
				after = true
				continue
			}
			if !after {
				continue
			}
			if d.worksIn(p.Parent().Child(s)) {
				return false
			}
			if _, ret := s.(*ast.ReturnStmt); ret {
				return true
			}
		}
	}
	return true
}

// worksIn reports whether a call under cur (function literals left out)
// does blocking work.
func (d *deepWalk) worksIn(cur inspector.Cursor) bool {
	works := false
	cur.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.CallExpr)(nil)}, func(c inspector.Cursor) bool {
		if works {
			return false
		}
		if _, lit := c.Node().(*ast.FuncLit); lit {
			return false
		}
		if d.r.IsWork(c.Node().(*ast.CallExpr)) {
			works = true
		}
		return !works
	})
	return works
}

// receiverVar returns the variable whose method the call at n calls
// (throttle in throttle.Do()), or nil.
func receiverVar(info *types.Info, n ast.Node) *types.Var {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	return code.Var(info, sel.X)
}
