package waittiming

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// A timestamp taken before a wait and read as "now" after it is stale by
// the time of the wait: an age computed from it (now.Sub(msg.At)), an
// expiry compared with it (expired(now, e)) or a deadline based on it
// (now.Add(ttl)) is off by however long the caller queued. The waits that
// hide this best are the ones no span shows: a condition loop that waits
// for a store to fill (for q.l.Len() == 0 { q.cond.Wait() }), and a call
// of a function that waits so inside before its work (queueStore.Read,
// whose every implementation the program links waits on its cond var).
//
// A candidate is a clock read assigned to a local variable, followed in
// the same statement list by a statement that waits (admission's
// StmtWait), with the variable read after the wait as the current time:
// a method of it (Sub, Add, After, Before, Compare, Unix…) or an argument
// of a call (not of one whose admission fact says it never reads it). A read that ends a measurement from it (time.Since(now)) is a
// span, the other categories' business.

// A staleStamp is a timestamp taken before a wait and read as the current
// time after it.
type staleStamp struct {
	v     *types.Var
	stmt  inspector.Cursor // the assignment of the clock read
	clock ast.Expr         // the clock read
	wait  inspector.Cursor // the statement that waits
	w     admission.Wait
	inner *admission.InnerWait // the callee's wait, when the wait is a call
	use   *ast.Ident           // the first read after the wait
}

var (
	ruleStampUsedBeforeWait = report.NewRule("waittiming", "stamp-used-before-wait", "the timestamp is read between where it is taken and the wait: it is the time of the work before the wait too, not only of the work after it")
	ruleStampForWait        = report.NewRule("waittiming", "stamp-for-wait", "the statement that waits takes the timestamp itself (a deadline for the wait, a time handed to the waiting callee): it is the wait's, not the work's")
	ruleStampRetaken        = report.NewRule("waittiming", "stamp-retaken", "the timestamp variable is assigned again after the wait: the reads after it see a fresh time")
)

// staleStamps returns the timestamps of the package taken before a wait
// and read as the current time after it.
func (c *checker) staleStamps() []staleStamp {
	var out []staleStamp
	for v, starts := range c.starts {
		for _, start := range starts {
			if s, ok := c.staleStamp(v, start); ok {
				out = append(out, s)
			}
		}
	}
	slices.SortFunc(out, func(a, b staleStamp) int { return cmp.Compare(a.stmt.Node().Pos(), b.stmt.Node().Pos()) })
	return out
}

// staleStamp decides one assignment of a clock read to v.
func (c *checker) staleStamp(v *types.Var, start inspector.Cursor) (staleStamp, bool) {
	info := c.pass.TypesInfo
	call, ok := start.Node().(*ast.CallExpr)
	if !ok || !timing.IsTimestamp(info, call) || !code.IsTime(v.Type()) {
		return staleStamp{}, false // a timer, not a timestamp
	}
	stmt := code.StmtOf(start)
	as, ok := stmt.Node().(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isListStmt(stmt) {
		return staleStamp{}, false
	}
	s := staleStamp{v: v, stmt: stmt, clock: as.Rhs[0]}
	for st, ok := stmt.NextSibling(); ok; st, ok = st.NextSibling() {
		if w, inner, isWait := c.adm.StmtWait(st); isWait {
			if w.Kind == admission.PoolCheckout {
				c.silenceWait(st, rulePoolKeepsStats)
				return staleStamp{}, false
			}
			s.wait, s.w, s.inner = st, w, inner
			break
		}
		if code.Assigns(info, st.Node(), v) {
			return staleStamp{}, false
		}
	}
	if !s.wait.Valid() {
		return staleStamp{}, false
	}
	fn := code.EnclosingFunc(stmt)
	body := code.FuncBody(fn.Node())
	if body == nil {
		return staleStamp{}, false
	}
	var before, inWait, retaken bool
	ast.Inspect(body, func(n ast.Node) bool {
		if s.use != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Pos() > s.wait.Node().End() && n != as && code.Assigns(info, n, v) {
				retaken = true
			}
		case *ast.Ident:
			if info.Uses[n] != v {
				return true
			}
			switch {
			case n.Pos() < as.End():
			case n.Pos() < s.wait.Node().Pos():
				before = true
			case n.Pos() < s.wait.Node().End():
				inWait = true
			case !retaken && c.readsAsNow(fn, n):
				s.use = n
			}
		}
		return true
	})
	switch {
	case s.use == nil:
		if retaken {
			c.rep.SilenceAt(as.Pos(), as.End(), ruleStampRetaken)
		}
		return staleStamp{}, false
	case before:
		c.rep.SilenceAt(as.Pos(), as.End(), ruleStampUsedBeforeWait)
		return staleStamp{}, false
	case inWait:
		c.rep.SilenceAt(as.Pos(), as.End(), ruleStampForWait)
		return staleStamp{}, false
	}
	return s, true
}

// readsAsNow reports whether the read id of a timestamp takes it as the
// current time: a method of it other than one that ends a measurement, or
// an argument of a call that does not measure from it.
func (c *checker) readsAsNow(fn inspector.Cursor, id *ast.Ident) bool {
	info := c.pass.TypesInfo
	cur, ok := fn.FindNode(id)
	if !ok {
		return false
	}
	for _, e := range c.ends {
		if code.Inside(id.Pos(), e.cur.Node()) {
			return false // time.Since(now), a recorder of the time since it
		}
	}
	switch p := cur.Parent().Node().(type) {
	case *ast.SelectorExpr:
		if p.X != id {
			return false
		}
		switch p.Sel.Name {
		case "Unix", "UnixNano", "UnixMilli", "UnixMicro":
			return !subtractedFromClock(info, cur.Parent())
		case "Sub", "Add", "After", "Before", "Compare", "Equal", "AddDate", "Truncate", "Round":
			return true
		}
	case *ast.CallExpr:
		for i, arg := range p.Args {
			if arg != id {
				continue
			}
			if ff, _ := c.res.HelperCall(p); ff != nil && slices.Contains(ff.UnreadTimes, i) {
				return false // handed to a callee that never reads it
			}
			callee := code.CalleeFunc(info, p)
			if callee == nil || callee.Pkg() == nil {
				return false
			}
			if path := callee.Pkg().Path(); path == "time" || path == "fmt" || path == "log" || path == "log/slog" {
				return false // time.Since, time.Until, printing it
			}
			// t.Sub(now) with t read from the clock ends a measurement.
			if sel, ok := ast.Unparen(p.Fun).(*ast.SelectorExpr); ok && callee.Name() == "Sub" {
				if c2, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok && timing.IsTimestamp(info, c2) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// subtractedFromClock reports whether the selector at sel, now.UnixNano
// of a timestamp, is called and subtracted from a clock read in the same
// unit: time.Now().UnixNano() - now.UnixNano() is the time since the
// stamp, a measurement like time.Since(now), not a read of it as the
// current time.
func subtractedFromClock(info *types.Info, sel inspector.Cursor) bool {
	call, ok := sel.Parent().Node().(*ast.CallExpr)
	if !ok || call.Fun != sel.Node() {
		return false
	}
	bin, ok := sel.Parent().Parent().Node().(*ast.BinaryExpr)
	if !ok || bin.Op != token.SUB || ast.Unparen(bin.Y) != ast.Expr(call) {
		return false
	}
	left, ok := ast.Unparen(bin.X).(*ast.CallExpr)
	if !ok {
		return false
	}
	lsel, ok := ast.Unparen(left.Fun).(*ast.SelectorExpr)
	if !ok || lsel.Sel.Name != sel.Node().(*ast.SelectorExpr).Sel.Name {
		return false
	}
	clock, ok := ast.Unparen(lsel.X).(*ast.CallExpr)
	return ok && timing.IsTimestamp(info, clock)
}

// reportStaleStamp reports a timestamp taken before a wait and read as
// the current time after it. The fix moves the assignment below the wait
// when it declares the variable with := and nothing between reads it.
func (c *checker) reportStaleStamp(s staleStamp) {
	as := s.stmt.Node().(*ast.AssignStmt)
	what := waitPhrase(s.w, s.inner)
	d := analysis.Diagnostic{
		Pos:      as.Pos(),
		End:      as.End(),
		Category: "staletime",
		Message:  s.v.Name() + " is taken before " + what + " and read as the current time after it, so the time spent waiting ages every age, expiry or deadline computed from it; take the timestamp after the wait",
		Related: []analysis.RelatedInformation{
			{Pos: s.w.Node.Pos(), End: waitEnd(s.w), Message: "the wait: " + what},
			{Pos: s.use.Pos(), End: s.use.End(), Message: s.v.Name() + " is read as the current time here"},
		},
	}
	if fix, ok := c.moveStampFix(s); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	} else {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: as.Pos(), End: as.End(), Message: "no automatic fix: " + s.v.Name() + " is not declared here with := or a goto crosses the wait; read the clock again after the wait by hand"})
	}
	c.rep.Report(d)
}

// waitPhrase names a wait for messages: the condition loop, or the callee
// and where its own wait is.
func waitPhrase(w admission.Wait, inner *admission.InnerWait) string {
	if inner != nil {
		return w.Name + ", which " + kindPhrase(inner.Kind, "waits for admission") + " (" + inner.Name + ", " + inner.At + implPhrase(inner) + ") before its work"
	}
	if w.Via != nil {
		return w.Name + ", which waits for admission"
	}
	if _, loop := w.Node.(*ast.ForStmt); loop {
		return "a loop that " + kindPhrase(w.Kind, "waits for admission") + " (" + w.Name + ")"
	}
	return w.Name + ", which " + kindPhrase(w.Kind, "waits for admission") + ","
}

// implPhrase names, for a wait inside reached through an interface some
// of whose implementations were left out of its fact (InnerWait.Impl),
// the one that waits.
func implPhrase(iw *admission.InnerWait) string {
	if iw.Impl == "" {
		return ""
	}
	return ", in the implementation " + iw.Impl
}

// kindPhrase says what a wait of kind k waits for.
func kindPhrase(k admission.Kind, other string) string {
	switch k {
	case admission.CondQueue:
		return "waits for a queue to fill"
	case admission.CondBudget:
		return "waits for a budget"
	}
	return other
}

// waitEnd returns the end of what a related position shows of the wait: a
// condition loop's header, or the whole wait.
func waitEnd(w admission.Wait) token.Pos {
	if fs, ok := w.Node.(*ast.ForStmt); ok {
		return fs.Cond.End()
	}
	return w.Node.End()
}

// moveStampFix moves v := <clock read> to right after the statement that
// waits.
func (c *checker) moveStampFix(s staleStamp) (analysis.SuggestedFix, bool) {
	as := s.stmt.Node().(*ast.AssignStmt)
	if as.Tok != token.DEFINE {
		return analysis.SuggestedFix{}, false
	}
	fn := code.EnclosingFunc(s.stmt)
	body := code.FuncBody(fn.Node())
	if code.JumpedOver(c.pass.TypesInfo, body, s.wait.Node().End()) {
		return analysis.SuggestedFix{}, false
	}
	file := edits.EnclosingFile(c.pass.Files, as.Pos())
	if file == nil {
		return analysis.SuggestedFix{}, false
	}
	text := edits.Source(c.pass, as)
	del := edits.DeleteStmt(c.pass, file, as).Delete()
	ins := edits.InsertAfter(c.pass, s.wait.Node(), text)
	return edits.Fix("Take "+s.v.Name()+" after the wait", del, ins), true
}
