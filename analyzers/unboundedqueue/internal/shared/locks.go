package shared

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
)

// StmtList returns the statements of a block or a case clause, or nil.
func StmtList(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}

// InStatementList reports whether the statement at cur sits in a list of
// statements (a block or a case body), where another can be inserted before it.
func InStatementList(cur inspector.Cursor) bool {
	switch cur.Parent().Node().(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		return true
	}
	return false
}

// A HeldLock is a sync mutex locked before a statement and not unlocked
// since.
type HeldLock struct {
	Recv     string // the mutex as written: s.mu
	Key      string // the mutex whatever the variable reaching it: LockKey
	Unlock   string // "Unlock" or "RUnlock"
	Deferred bool   // a defer unlocks it when the function returns
}

// HeldLocks returns the sync mutexes locked before site in fn, by statements
// of the blocks enclosing site, and not unlocked since; innermost last.
func (c *Pkg) HeldLocks(site, fn inspector.Cursor) []HeldLock {
	// The statement lists enclosing site, outermost first, each cut at the
	// statement that leads to site.
	var lists [][]ast.Stmt
	for cur := site; cur.Node() != fn.Node() && cur.Parent().Valid(); cur = cur.Parent() {
		list := StmtList(cur.Parent().Node())
		for i, s := range list {
			if s == cur.Node() {
				lists = append([][]ast.Stmt{list[:i]}, lists...)
				break
			}
		}
	}
	var held []HeldLock
	deferred := make(map[string]bool)
	for _, list := range lists {
		for _, s := range list {
			var call *ast.CallExpr
			isDefer := false
			switch s := s.(type) {
			case *ast.ExprStmt:
				call, _ = s.X.(*ast.CallExpr)
			case *ast.DeferStmt:
				call, isDefer = s.Call, true
			}
			if call == nil {
				continue
			}
			fnObj := c.Callee(call)
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || !IsSyncCall(fnObj, "Lock", "RLock", "Unlock", "RUnlock") {
				continue
			}
			recv := edits.Source(c.Pass, sel.X)
			key := LockKey(c.Pass.TypesInfo, sel.X)
			switch name := fnObj.Name(); {
			case isDefer:
				deferred[recv] = true
			case name == "Lock":
				held = append(held, HeldLock{Recv: recv, Key: key, Unlock: "Unlock"})
			case name == "RLock":
				held = append(held, HeldLock{Recv: recv, Key: key, Unlock: "RUnlock"})
			default:
				for i := len(held) - 1; i >= 0; i-- {
					if held[i].Recv == recv {
						held = append(held[:i], held[i+1:]...)
						break
					}
				}
			}
		}
	}
	for i := range held {
		held[i].Deferred = deferred[held[i].Recv]
	}
	return held
}

// LockKey names the mutex expr denotes whatever variable reaches it: the
// type of the root variable and the path of fields (pkg.server.cond.L), or a
// package variable and its path, so that a producer's s.cond.L and a
// consumer's srv.cond.L compare equal. It returns "" for anything else.
func LockKey(info *types.Info, expr ast.Expr) string {
	var path []string
	for {
		switch e := ast.Unparen(expr).(type) {
		case *ast.SelectorExpr:
			path = append([]string{e.Sel.Name}, path...)
			expr = e.X
			continue
		case *ast.Ident:
			v, ok := info.Uses[e].(*types.Var)
			if !ok {
				return ""
			}
			root := v.Pkg().Path() + "." + v.Name()
			if code.IsLocal(v) {
				t := v.Type()
				if p, ok := t.Underlying().(*types.Pointer); ok {
					t = p.Elem()
				}
				root = types.TypeString(t, nil)
			}
			return strings.Join(append([]string{root}, path...), ".")
		}
		return ""
	}
}

// WaitsAround reports whether a loop of the function at fn holds both the
// dequeue at d and a sync.Cond Wait: the consumer loops, draining and
// waiting, rather than taking one item per call.
func (c *Pkg) WaitsAround(d, fn inspector.Cursor) bool {
	for loop := range d.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
		if !fn.Contains(loop) {
			break
		}
		if returnsAfter(d, loop) {
			return false // takes one item and returns with it
		}
		for cur := range loop.Preorder((*ast.CallExpr)(nil)) {
			if IsSyncCall(c.Callee(cur.Node().(*ast.CallExpr)), "Wait") {
				return true
			}
		}
	}
	return false
}

// returnsAfter reports whether a statement list inside loop that holds the
// dequeue at d returns with it or after it: for { if len(q) > 0 { x := q[0]; q = q[1:];
// return x }; cond.Wait() } hands out one item per call.
func returnsAfter(d, loop inspector.Cursor) bool {
	for cur := d; cur.Valid() && cur != loop; cur = cur.Parent() {
		var list []ast.Stmt
		switch p := cur.Parent().Node().(type) {
		case *ast.BlockStmt:
			list = p.List
		case *ast.CaseClause:
			list = p.Body
		case *ast.CommClause:
			list = p.Body
		default:
			continue
		}
		after := false
		for _, st := range list {
			if st == cur.Node() {
				after = true
			}
			if _, ok := st.(*ast.ReturnStmt); ok && after {
				return true // return q.Remove(q.Front()), or a return after it
			}
		}
	}
	return false
}

// UnlocksIn reports whether the function at fn unlocks the mutex named key
// other than in a defer statement.
func (c *Pkg) UnlocksIn(fn inspector.Cursor, key string) bool {
	for cur := range fn.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if _, deferred := cur.Parent().Node().(*ast.DeferStmt); deferred {
			continue
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if ok && IsSyncCall(c.Callee(call), "Unlock", "RUnlock") && LockKey(c.Pass.TypesInfo, sel.X) == key {
			return true
		}
	}
	return false
}

// UnlocksBeforeReturn returns the statements that release, innermost first,
// the mutexes held at site that no defer releases: a return there must run
// them.
func (c *Pkg) UnlocksBeforeReturn(site, fn inspector.Cursor) []string {
	held := c.HeldLocks(site, fn)
	var out []string
	for i := len(held) - 1; i >= 0; i-- {
		if !held[i].Deferred {
			out = append(out, held[i].Recv+"."+held[i].Unlock+"()")
		}
	}
	return out
}
