package pools

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// A release is one operation that gives a slot back, with the identifier
// naming the pool in it.
type release struct {
	node ast.Node
	ref  *ast.Ident
}

func releasesOf(cs []inspector.Cursor, ref func(inspector.Cursor) *ast.Ident) []release {
	var out []release
	for _, c := range cs {
		if id := ref(c); id != nil {
			out = append(out, release{c.Node(), id})
		}
	}
	return out
}

// releasesIn returns the releases inside n.
func releasesIn(rel []release, n ast.Node) []release {
	var out []release
	for _, r := range rel {
		if n.Pos() <= r.node.Pos() && r.node.End() <= n.End() {
			out = append(out, r)
		}
	}
	return out
}

// isReleaseStmt reports whether st is itself a release: sem.Release(1),
// <-sem, or sem <- tok.
func isReleaseStmt(rel []release, st ast.Stmt) bool {
	var n ast.Node = st
	if es, ok := st.(*ast.ExprStmt); ok {
		n = ast.Unparen(es.X)
	}
	for _, r := range rel {
		if r.node == n {
			return true
		}
	}
	return false
}

// region returns the task that runs while the slot taken at acq is held: the
// statements after the acquire up to its release, the body of a goroutine
// that the release is handed to, or nil when acq does not take a slot in a
// shape this package follows. needRelease demands that a release be found (a
// channel whose send is never undone in the task is a queue, not a semaphore).
func (f *finder) region(acq inspector.Cursor, ref *ast.Ident, rel []release, needRelease bool) *Task {
	if ref == nil {
		return nil
	}
	list := acquiredList(acq)
	if list == nil {
		return nil
	}
	t := &Task{Submit: acq.Node(), Refs: []*ast.Ident{ref}, Routable: true}
	found := false
	addRefs := func(rs []release) {
		for _, r := range rs {
			if r.ref != nil {
				t.Refs = append(t.Refs, r.ref) // a returned release func names no pool
			}
			found = true
		}
	}
scan:
	for _, st := range list {
		if isReleaseStmt(rel, st) {
			addRefs(releasesIn(rel, st))
			break
		}
		switch st := st.(type) {
		case *ast.GoStmt:
			if rs := releasesIn(rel, st); len(rs) > 0 {
				addRefs(rs)
				if lit, ok := ast.Unparen(st.Call.Fun).(*ast.FuncLit); ok {
					t.Body = append(t.Body, lit.Body)
				}
				break scan
			}
			// The release is handed to a declared function that the
			// goroutine runs: that function is the task, but its release
			// cannot be moved with the submission.
			if fn := code.Callee(f.info, st.Call); fn != nil && fn.Pkg() == f.pass.Pkg && f.releasesInside(fn, rel) {
				t.Funcs = append(t.Funcs, fn)
				t.Routable = false
				found = true
				break scan
			}
			// Any other goroutine does not hold the slot.
		default:
			addRefs(releasesIn(rel, st))
			if !needRelease && f.callsReleaser(st, rel) {
				// A function of the package gives the slot back
				// (s.release()): the task ends there, but its release
				// cannot be moved with the submission. Not for a channel,
				// whose send and receive prove it a semaphore only where
				// they pair up in the task: a queue's pop that signals
				// again is no release.
				found = true
				t.Routable = false
				if _, ok := st.(*ast.ExprStmt); ok {
					break scan
				}
			}
			t.Body = append(t.Body, st)
		}
	}
	if !found {
		if needRelease {
			return nil
		}
		t.Routable = false
	}
	return t
}

// callsReleaser reports whether n calls, outside function literals, a
// function of the package whose declaration holds a release.
func (f *finder) callsReleaser(n ast.Node, rel []release) bool {
	return code.AnyCall(n, code.IsFuncLit, func(call *ast.CallExpr) bool {
		fn := code.Callee(f.info, call)
		return fn != nil && fn.Pkg() == f.pass.Pkg && f.releasesInside(fn, rel)
	})
}

// releasesInside reports whether the declaration of fn holds a release.
func (f *finder) releasesInside(fn *types.Func, rel []release) bool {
	for _, r := range rel {
		if fn.Scope() != nil && fn.Scope().Pos() <= r.node.Pos() && r.node.End() <= fn.Scope().End() {
			return true
		}
	}
	return false
}

// acquiredList returns the statements that run after the acquire at acq has
// succeeded, in the order they run, or nil when the acquire does not start a
// region a task could be read from.
func acquiredList(acq inspector.Cursor) []ast.Stmt {
	// Climb from the acquiring expression to its statement.
	s := acq
	for {
		if _, ok := s.Node().(ast.Stmt); ok {
			break
		}
		s = s.Parent()
		if _, ok := s.Node().(*ast.FuncLit); ok {
			return nil
		}
	}
	switch st := s.Node().(type) {
	case *ast.IfStmt:
		// if sem.TryAcquire(1) { … }: the body holds the slot.
		if ast.Unparen(st.Cond) == acq.Node() {
			return st.Body.List
		}
		// if !sem.TryAcquire(1) { return }, if sem.Acquire(ctx, 1) != nil { … }
		return afterFailedAcquire(s)
	case *ast.ExprStmt, *ast.AssignStmt, *ast.SendStmt:
		switch parent := s.Parent().Node().(type) {
		case *ast.IfStmt:
			if parent.Init == st {
				return afterFailedAcquire(s.Parent())
			}
			return nil
		case *ast.CommClause:
			if parent.Comm == st {
				return afterSelectCase(s.Parent())
			}
		}
		return rest(s)
	}
	return nil
}

// afterFailedAcquire returns the statements after an if statement whose body
// leaves the block when the acquire failed.
func afterFailedAcquire(ifCur inspector.Cursor) []ast.Stmt {
	st := ifCur.Node().(*ast.IfStmt)
	if st.Else != nil || !code.Terminates(st.Body.List, true) {
		return nil
	}
	return rest(ifCur)
}

// afterSelectCase returns the body of a select case that acquires, followed by
// the statements after the select when every other case leaves the block.
func afterSelectCase(clause inspector.Cursor) []ast.Stmt {
	cc := clause.Node().(*ast.CommClause)
	list := slices.Clip(cc.Body)
	sel := clause.Parent().Parent() // CommClause → BlockStmt → SelectStmt
	for _, other := range sel.Node().(*ast.SelectStmt).Body.List {
		if other != cc && !code.Terminates(other.(*ast.CommClause).Body, true) {
			return list
		}
	}
	if code.Terminates(cc.Body, true) {
		return list
	}
	return append(list, rest(sel)...)
}

// rest returns the statements after the statement at s in its list.
func rest(s inspector.Cursor) []ast.Stmt {
	k, i := s.ParentEdge()
	var list []ast.Stmt
	switch n := s.Parent().Node().(type) {
	case *ast.BlockStmt:
		if k == edge.BlockStmt_List {
			list = n.List
		}
	case *ast.CaseClause:
		if k == edge.CaseClause_Body {
			list = n.Body
		}
	case *ast.CommClause:
		if k == edge.CommClause_Body {
			list = n.Body
		}
	}
	if list == nil || i < 0 || i >= len(list) {
		return nil
	}
	return list[i+1:]
}
