package unboundedqueue

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// A putBack is q.pending = append(batch, q.pending...): a batch taken from
// the queue goes back in front of it, typically when its delivery failed.
type putBack struct {
	v    *types.Var
	site inspector.Cursor // the assignment
	take ast.Node         // where the batch was taken from the queue
}

// putBackAt returns the put-back at cur: an assignment of append(batch,
// q...) (or append(batch[k:], q...)) to the shared slice q, where batch is a
// local variable the same function took from q before (batch := q,
// batch, q = q, nil).
func (c *checker) putBackAt(cur inspector.Cursor) (putBack, bool) {
	info := c.pass.TypesInfo
	a := cur.Node().(*ast.AssignStmt)
	if a.Tok != token.ASSIGN || len(a.Lhs) != 1 || len(a.Rhs) != 1 {
		return putBack{}, false
	}
	call, ok := ast.Unparen(a.Rhs[0]).(*ast.CallExpr)
	if !ok || !call.Ellipsis.IsValid() || len(call.Args) != 2 || code.BuiltinName(info, call) != "append" || !shared.SameExpr(call.Args[1], a.Lhs[0]) {
		return putBack{}, false
	}
	v := code.Var(info, a.Lhs[0])
	if !c.sh.IsSharedVar(v) {
		return putBack{}, false // a local slice: no candidate
	}
	if !c.isSliceQueue(v) {
		c.sh.Rep.Silence(a, ruleByteBuffer)
		return putBack{}, false
	}
	take := batchTakenFrom(info, cur, call.Args[0], a.Lhs[0])
	if take == nil {
		c.sh.Rep.Silence(a, ruleNotPutBack)
		return putBack{}, false
	}
	return putBack{v: v, site: cur, take: take}, true
}

// batchTakenFrom returns where the function of the put-back at cur took head,
// the slice it puts back in front of q, from q: head (or head[k:]) must be
// a local variable assigned from q before. Otherwise, nil.
func batchTakenFrom(info *types.Info, cur inspector.Cursor, head, q ast.Expr) ast.Node {
	head = ast.Unparen(head)
	if s, ok := head.(*ast.SliceExpr); ok && s.High == nil && !s.Slice3 {
		head = ast.Unparen(s.X)
	}
	batch := code.Var(info, head)
	if batch == nil || !code.IsLocal(batch) {
		return nil
	}
	fn := code.EnclosingFunc(cur)
	if !fn.Valid() {
		return nil
	}
	return takenFrom(info, fn, cur.Node().Pos(), batch, q)
}

// takenFrom returns the assignment of fn, before pos, that copies the queue
// q (as written at the put-back) into batch: batch := q, batch = q, or
// batch, q = q, nil.
func takenFrom(info *types.Info, fn inspector.Cursor, pos token.Pos, batch *types.Var, q ast.Expr) ast.Node {
	for cur := range fn.Preorder((*ast.AssignStmt)(nil)) {
		a := cur.Node().(*ast.AssignStmt)
		if a.Pos() >= pos || len(a.Lhs) != len(a.Rhs) {
			continue
		}
		for i, lhs := range a.Lhs {
			if code.Var(info, lhs) == batch && shared.SameExpr(a.Rhs[i], q) {
				return a
			}
		}
	}
	return nil
}

// putBackBounded reports whether the function of the put-back bounds what
// it puts back: it compares the length of the queue or of the batch with
// anything but emptiness, counts attempts against a limit (a retry that
// drops after N), compares times (an age check), or trims the queue.
func (c *checker) putBackBounded(pb putBack) bool {
	info := c.pass.TypesInfo
	fn := code.EnclosingFunc(pb.site)
	a := pb.site.Node().(*ast.AssignStmt)
	batch := code.Var(info, takenBatch(a))
	for cur := range fn.Preorder((*ast.BinaryExpr)(nil), (*ast.SliceExpr)(nil), (*ast.CallExpr)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.BinaryExpr:
			if !shared.IsComparison(n.Op) {
				continue
			}
			for _, pair := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
				if (c.lens.mentionsLength(pair[0], pb.v) || (batch != nil && c.lens.mentionsLength(pair[0], batch))) && !isEmptinessBound(info, pair[1]) {
					return true
				}
			}
			if shared.IsRelational(n.Op) && (c.sh.IsCount(n.X) || c.sh.IsCount(n.Y) || code.IsTime(info.TypeOf(n.X)) || isDuration(info.TypeOf(n.X))) {
				return true // attempts < maxAttempts, age > maxAge
			}
		case *ast.SliceExpr:
			if n.Low != nil && code.Var(info, n.X) == pb.v && cur.Node().Pos() > a.Pos() {
				return true // trims the queue after putting back
			}
		case *ast.CallExpr:
			if fn := c.sh.Callee(n); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "time" {
				switch fn.Name() {
				case "Before", "After", "Since", "Until":
					return true
				}
			}
		}
	}
	return false
}

// takenBatch returns the batch of the put-back a: the first argument of its
// append, without a re-slice.
func takenBatch(a *ast.AssignStmt) ast.Expr {
	head := ast.Unparen(ast.Unparen(a.Rhs[0]).(*ast.CallExpr).Args[0])
	if s, ok := head.(*ast.SliceExpr); ok {
		return s.X
	}
	return head
}

// isDuration reports whether t is time.Duration.
func isDuration(t types.Type) bool { return code.IsExactly(t, "time", "Duration") }

// reportPutBacks reports the put-backs of queues that producers fill
// elsewhere, with nothing bounding what goes back.
func (c *checker) reportPutBacks(pbs []putBack, producers map[*types.Var][]inspector.Cursor, queueOf func(*types.Var) *queue) {
	for _, pb := range pbs {
		fn := code.EnclosingFunc(pb.site)
		produced := false
		shared := c.sh.HoldsLock(fn) || c.sh.RunsConcurrently(fn)
		for _, p := range producers[pb.v] {
			if pfn := code.EnclosingFunc(p); pfn.Valid() && pfn.Node() != fn.Node() {
				produced = true
				shared = shared || c.sh.HoldsLock(pfn) || c.sh.RunsConcurrently(pfn)
			}
		}
		q := queueOf(pb.v)
		switch {
		case !produced:
			c.sh.Rep.Silence(pb.site.Node(), rulePutBackOnly)
			continue
		case !shared:
			c.sh.Rep.Silence(pb.site.Node(), ruleNotShared)
			continue
		case c.putBackBounded(pb):
			c.sh.Rep.Silence(pb.site.Node(), rulePutBackLimit)
			continue
		}
		c.findings = append(c.findings, c.fix.putBackFinding(q, pb))
	}
}

// putBackFinding builds the diagnostic for pb, with the fix that keeps the
// newest items up to a named limit after the put-back.
func (c *fixer) putBackFinding(q *queue, pb putBack) *shared.Finding {
	a := pb.site.Node().(*ast.AssignStmt)
	qexpr := edits.Source(c.pass, a.Lhs[0])
	f := shared.NewFinding(a, "putback",
		fmt.Sprintf("put-back grows %s without bound: the batch goes back in front of the queue each time delivery fails while producers keep appending, so it grows for as long as the downstream is down; drop the oldest items beyond a limit",
			qexpr),
		pb.take, "the batch is taken from the queue here")
	if !edits.StartsLine(c.pass, a.Pos()) || !shared.InStatementList(pb.site) || edits.EndsLineWithCode(c.pass, a) || !c.declareQueue(q, a) {
		return f
	}
	trim := fmt.Sprintf("if len(%s) > %s {\n\t%s = %s[len(%s)-%s:]\n}", qexpr, q.maxName, qexpr, qexpr, qexpr, q.maxName)
	f.Msg = "Drop the oldest items beyond a limit after putting the batch back"
	f.Edits = []analysis.TextEdit{edits.InsertLinesAfter(c.pass, a, trim)}
	f.File, f.Anchor = q.file, q.anchor
	return f
}
