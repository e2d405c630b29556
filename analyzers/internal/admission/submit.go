package admission

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// Submit and wait. A function that hands jobs to the workers of a shared
// pool — sends them on a channel that goroutines of its package drain in a
// loop, buffered (a job queue) or not (a pool) — and then waits for those
// jobs to finish (wg.Wait() on a WaitGroup each job carries, a receive from
// the channel each job replies on) returns after its jobs queued behind
// everybody else's and ran. To its callers it is a call that waits for
// admission and then works: an InnerWait of kind JobQueue (tempodb's
// RunJobs, which Find calls to scan the blocks of one query on the
// process-wide pool).
//
// Followed: the waiter travels in the job as a field of a composite
// literal (&job{wg: wg, results: ch}), in a variable that holds one, or in
// a function literal sent as the job; the send may sit in a loop over the
// jobs and in a select (a non-blocking send that fails the call instead of
// queueing is a send too: the jobs that got in still queue). Not followed:
// a reply channel the function looks up elsewhere (a map of channels per
// key) and jobs handed over through a helper of another package.

// submitWait returns the hand-off of jobs to a pool or job queue on the
// main path of a body, followed on that path by the wait for them, or nil.
func (r *Result) submitWait(strict *Finder, body inspector.Cursor, list []ast.Stmt) *InnerWait {
	for i, st := range list {
		if _, ok := st.(*ast.ReturnStmt); ok {
			return nil
		}
		send, q := r.jobSend(strict, st)
		if send == nil {
			continue
		}
		waiters := r.jobWaiters(body, send.Value)
		if len(waiters) == 0 {
			return nil
		}
		for _, after := range list[i+1:] {
			if waitsFor(r.info, after, waiters) {
				return &InnerWait{
					Kind: JobQueue,
					Name: "the jobs sent on " + q + " and the wait for their results",
					At:   r.posString(send.Pos()),
				}
			}
			if _, ok := after.(*ast.ReturnStmt); ok {
				return nil
			}
		}
		return nil
	}
	return nil
}

// jobSend returns the send, in the statement st or a loop or select it
// holds (not in function literals or goroutines), of a job on a channel
// the package's goroutines drain as a pool or a job queue, and the
// channel's name as the function writes it.
func (r *Result) jobSend(strict *Finder, st ast.Stmt) (*ast.SendStmt, string) {
	var found *ast.SendStmt
	ast.Inspect(st, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.SendStmt:
			if v := code.Var(r.info, n.Chan); v != nil && !code.IsLocal(v) && (strict.IsJobQueue(v) || strict.IsPoolChan(v)) {
				found = n
			}
		}
		return true
	})
	if found == nil {
		return nil, ""
	}
	return found, types.ExprString(found.Chan)
}

// jobWaiters returns the local WaitGroups and channels a sent job carries
// for its sender to wait on (Carried).
func (r *Result) jobWaiters(body inspector.Cursor, v ast.Expr) map[*types.Var]bool {
	return Carried(r.info, body, v, isWaiter)
}

// Carried returns the local variables, of a type keep accepts, that the
// value v sent on a channel in the function body carries for its sender
// to wait on: the fields of a composite literal sent (&job{wg: wg, done:
// ch}), or held by the local variable sent, and the locals a function
// literal refers to, sent as the job or as one of its fields (func() {
// work(); close(done) }).
func Carried(info *types.Info, body inspector.Cursor, v ast.Expr, keep func(types.Type) bool) map[*types.Var]bool {
	carried := make(map[*types.Var]bool)
	add := func(e ast.Expr) {
		if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X
		}
		if lit, ok := ast.Unparen(e).(*ast.FuncLit); ok {
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if w, ok := info.Uses[id].(*types.Var); ok && code.IsLocal(w) && keep(w.Type()) && !code.Inside(w.Pos(), lit) {
						carried[w] = true
					}
				}
				return true
			})
			return
		}
		if w := code.Var(info, e); w != nil && code.IsLocal(w) && keep(w.Type()) {
			carried[w] = true
		}
	}
	fromLit := func(e ast.Expr) {
		if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X
		}
		cl, ok := ast.Unparen(e).(*ast.CompositeLit)
		if !ok {
			return
		}
		for _, elt := range cl.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			add(elt)
		}
	}
	switch x := ast.Unparen(v).(type) {
	case *ast.FuncLit:
		add(x)
	case *ast.Ident:
		job := code.Var(info, x)
		if job == nil || !code.IsLocal(job) {
			return nil
		}
		for cur := range body.Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)) {
			switch n := cur.Node().(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) != len(n.Rhs) {
					continue
				}
				for i, lhs := range n.Lhs {
					if code.Var(info, lhs) == job {
						fromLit(n.Rhs[i])
					}
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if info.Defs[name] == job && i < len(n.Values) {
						fromLit(n.Values[i])
					}
				}
			}
		}
	default:
		fromLit(x)
	}
	return carried
}

// isWaiter reports whether t is a channel or a sync.WaitGroup (or a pointer
// to one): what a job's sender can wait on.
func isWaiter(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return code.IsChan(t) || code.IsExactly(t, "sync", "WaitGroup")
}

// waitsFor reports whether the statement st, outside function literals,
// waits on one of the waiters: w.Wait() on a WaitGroup, a receive from a
// channel, a range over one.
func waitsFor(info *types.Info, st ast.Stmt, waiters map[*types.Var]bool) bool {
	return code.AnyNode(st, code.IsFuncLit, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			return ok && sel.Sel.Name == "Wait" && len(n.Args) == 0 && waiters[code.Var(info, sel.X)]
		case *ast.UnaryExpr:
			return n.Op == token.ARROW && waiters[code.Var(info, n.X)]
		case *ast.RangeStmt:
			return waiters[code.Var(info, n.X)]
		}
		return false
	})
}
