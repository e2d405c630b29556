package waittiming

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// A start handed in: a function of the service's own takes the time its
// caller read (func (s *Server) process(ctx, req, start time.Time)) and
// records the time since it once its work is done. The caller read the
// clock before the function ran, so the figure holds everything the
// function does, its waits included: the measurement starts before the
// first statement of the body. What the caller did before the call is its
// own (a wait there is a finding of the caller's: startparam.go), and the
// fix cannot move a start the caller takes, so these findings have none.

// paramMeasurement returns the measurement an end makes from a time.Time
// parameter, named like a start, of the function that declares it, when the end runs in that
// function's body (or in a deferred literal of it).
func (c *checker) paramMeasurement(e varEnd) (*measurement, bool) {
	// Named like a start, not like the time of an event whose age the
	// function reads (time.Since(lastSeen) after a wait is no figure of it).
	if !timing.IsStartName(e.v.Name()) || !c.clockSince(e.cur.Node().(*ast.CallExpr)) {
		return nil, false
	}
	fn, ftype, ok := declaringFunc(e.cur, e.v)
	if !ok {
		return nil, false
	}
	tcur, ok := fn.FindNode(ftype)
	if !ok {
		return nil, false
	}
	m := &measurement{form: formParam, startStmt: tcur, startVar: e.v, end: e.cur}
	if !c.locateEnd(m) || m.fn != fn {
		return nil, false
	}
	return m, true
}

// clockSince reports whether the end call reads the clock and takes the
// time since its start itself (time.Since(start), time.Now().Sub(start))
// or hands it to a function whose body does (a timer helper's fact). A
// time.Time parameter handed to a recorder known only by the name of its
// parameter (start, from, since) may be the bound of a time range, a
// query's start, not a time the caller read from the clock.
func (c *checker) clockSince(call *ast.CallExpr) bool {
	if _, _, ok := timing.Elapsed(c.pass.TypesInfo, call); ok {
		return true
	}
	h := c.timerHelper(call)
	return h != nil && h.Since
}

// declaringFunc returns the function declaration or literal enclosing cur
// whose parameters declare v.
func declaringFunc(cur inspector.Cursor, v *types.Var) (inspector.Cursor, *ast.FuncType, bool) {
	for enc := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		var ftype *ast.FuncType
		switch n := enc.Node().(type) {
		case *ast.FuncDecl:
			ftype = n.Type
		case *ast.FuncLit:
			ftype = n.Type
		}
		if ftype.Params != nil && ftype.Params.Pos() <= v.Pos() && v.Pos() < ftype.Params.End() {
			return enc, ftype, true
		}
	}
	return inspector.Cursor{}, nil, false
}

// startRelated returns the related position that shows where a finding's
// measurement starts, when that is not inside pos..end.
func startRelated(m *measurement, pos, end token.Pos) []analysis.RelatedInformation {
	if m.form == formParam {
		return []analysis.RelatedInformation{{Pos: m.startVar.Pos(), End: m.startVar.Pos() + token.Pos(len(m.startVar.Name())), Message: "the measurement starts before this function runs: " + m.startVar.Name() + " is a parameter"}}
	}
	if m.start.Pos() < pos || m.start.Pos() >= end {
		return []analysis.RelatedInformation{{Pos: m.start.Pos(), End: m.start.End(), Message: "the measurement starts here"}}
	}
	return nil
}
