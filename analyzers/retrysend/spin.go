package retrysend

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// spinLoops reports loops that try non-blocking sends and never block: a
// for loop whose body, when no channel is ready, takes every select's
// default and goes round at once. A token generator written so (select {
// case <-ticker.C: …; case <-exit: return; default: if sent < rate { try
// the send } }) spins a core for its whole life, full buffer or not.
// sends are every non-blocking send of the package, data or not: a spin
// burns the CPU whatever it sends. Loops already reported (a retry loop)
// are skipped.
func (c *spinChecker) spinLoops(sends []send, reported map[token.Pos]bool) {
	seen := make(map[ast.Node]bool)
	for _, s := range sends {
		loop, ok := idleLoopAround(s.cur)
		if !ok || seen[loop.Node()] || reported[loop.Node().Pos()] {
			continue
		}
		seen[loop.Node()] = true
		fs := loop.Node().(*ast.ForStmt)
		var label *types.Label
		if ls, ok := loop.Parent().Node().(*ast.LabeledStmt); ok {
			label, _ = c.info.Defs[ls.Label].(*types.Label)
		}
		switch {
		case fs.Init != nil || fs.Post != nil || (fs.Cond != nil && !code.CallFree(c.info, nil, fs.Cond)):
			c.rep.Silence(fs, ruleLoopClauses)
			continue
		case !c.idles(fs.Body.List, label, false):
			c.rep.Silence(fs, ruleBlocksWhenIdle)
			continue
		}
		c.add(&finding{
			file: s.file,
			kind: "spin",
			pos:  fs.Pos(),
			end:  fs.Body.Lbrace,
			message: "loop tries a non-blocking send on " + edits.Source(c.pass, s.nb.Send.Chan) +
				" and goes round at once when no case is ready: nothing in it blocks, so it spins a core for as long as it runs; make the send a case of a select that blocks (a nil channel disables the case while it must not send)",
			related: []analysis.RelatedInformation{
				related(s.nb.Send, "the non-blocking send"),
				related(s.nb.Default, "gives up at once and goes round again"),
			},
		})
	}
}

// idleLoopAround returns the for loop around the select at cur when the
// select sits on the path a loop iteration takes when nothing is ready:
// reached only through if statements and the default cases of selects.
func idleLoopAround(cur inspector.Cursor) (inspector.Cursor, bool) {
	for p := cur; ; p = p.Parent() {
		switch p.ParentEdgeKind() {
		case edge.ForStmt_Body:
			return p.Parent(), true
		case edge.BlockStmt_List, edge.IfStmt_Body, edge.IfStmt_Else, edge.SelectStmt_Body:
		case edge.CommClause_Body:
			if p.Parent().Node().(*ast.CommClause).Comm != nil {
				return inspector.Cursor{}, false // runs only when its channel is ready
			}
		default:
			return inspector.Cursor{}, false
		}
	}
}

// idles reports whether stmts, run on an iteration where no channel is
// ready, neither block nor leave the loop labeled label: every select has a
// default that idles (and a non-blocking send among them stays in the loop
// when it succeeds: a generator, not a retry), every if has a call-free condition and branches that
// idle, and everything else keeps the books (counts, call-free updates of
// locals) or yields (runtime.Gosched). A continue of the loop, or in a
// select an unlabeled break, ends the list and stays.
func (c *spinChecker) idles(stmts []ast.Stmt, label *types.Label, inSelect bool) bool {
	for i, st := range stmts {
		switch st := st.(type) {
		case *ast.SelectStmt:
			dflt := defaultOf(st)
			if dflt == nil || !c.idles(dflt.Body, label, true) {
				return false
			}
			if nb, ok := sendselect.Match(st); ok && sendselect.Case(c.info, nb.Case.Body, label, nil).End.Leaves() {
				return false // a retry until the send succeeds: the retry loop's shape
			}
		case *ast.IfStmt:
			if st.Init != nil || !code.CallFree(c.info, nil, st.Cond) || !c.idles(st.Body.List, label, inSelect) {
				return false
			}
			switch e := st.Else.(type) {
			case *ast.BlockStmt:
				if !c.idles(e.List, label, inSelect) {
					return false
				}
			case *ast.IfStmt:
				if !c.idles([]ast.Stmt{e}, label, inSelect) {
					return false
				}
			}
		case *ast.BlockStmt:
			if !c.idles(st.List, label, inSelect) {
				return false
			}
		case *ast.BranchStmt:
			return i == len(stmts)-1 && c.staysIn(st, label, inSelect)
		default:
			p := sendselect.Case(c.info, []ast.Stmt{st}, label, nil)
			if !p.Idle || p.Last != nil {
				return false
			}
			for _, w := range p.Waits {
				if !sendselect.IsSpin(c.info, w) {
					return false // it sleeps or waits for a timer: a poll, not a spin
				}
			}
		}
	}
	return true
}

// staysIn reports whether a branch statement goes round the loop labeled
// label again: a continue of it, or an unlabeled break that leaves a select
// only.
func (c *spinChecker) staysIn(br *ast.BranchStmt, label *types.Label, inSelect bool) bool {
	switch br.Tok {
	case token.CONTINUE:
		return br.Label == nil || (label != nil && c.info.Uses[br.Label] == label)
	case token.BREAK:
		return br.Label == nil && inSelect
	}
	return false
}

// defaultOf returns the default case of sel, or nil.
func defaultOf(sel *ast.SelectStmt) *ast.CommClause {
	for _, s := range sel.Body.List {
		if cc := s.(*ast.CommClause); cc.Comm == nil {
			return cc
		}
	}
	return nil
}
