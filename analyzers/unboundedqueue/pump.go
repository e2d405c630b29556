package unboundedqueue

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// A pump is the "infinite channel": a loop whose select receives from in and
// appends to buf in one case, and sends buf's head on out and re-slices buf
// in another. The pump always accepts, so the bound of in never pushes back.
type pump struct {
	buf    *types.Var
	sel    inspector.Cursor // the select
	recvs  []*ast.UnaryExpr // <-in, in the comm of each case that appends what it receives
	add    inspector.Cursor // buf = append(buf, v), in the first receiving case
	send   *ast.SendStmt    // out <- head, the sending case's comm; nil for a pull
	pull   *ast.UnaryExpr   // <-req, the comm of a case that hands the head out on request
	reduce inspector.Cursor // the front re-slice in the sending case
}

// pumps reports pumps whose buffer nothing bounds.
func (c *checker) pumps() {
	info := c.pass.TypesInfo
	seen := make(map[ast.Node]bool)
	for _, cur := range c.reslice {
		s := cur.Node().(*ast.SliceExpr)
		v := code.Var(info, s.X)
		if v == nil || isConst(info, s.Low, "0") || !isFrontDequeue(info, cur, v) {
			continue
		}
		if !isItemSlice(v.Type()) {
			c.sh.Rep.Silence(cur.Node(), ruleByteBuffer) // buf = buf[n:]: a parser's input
			continue
		}
		p, ok := c.pumpAt(cur, v)
		if !ok || seen[p.add.Node()] {
			continue
		}
		if c.pumpBounded(p) {
			c.sh.Rep.Silence(p.add.Node(), rulePumpLimit)
			continue
		}
		seen[p.add.Node()] = true
		c.pumped[p.add.Node()] = true
		c.findings = append(c.findings, c.fix.pumpFinding(p))
	}
}

// isItemSlice reports whether t is a slice of items: byte slices are buffers.
func isItemSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return !ok || b.Kind() != types.Uint8
}

// pumpAt returns the pump whose sending case holds the front re-slice of buf
// at cur: the case sends buf's head (buf[0], or a variable the loop sets to
// it), and another case of the same select, in a loop, receives an item and
// appends it to buf.
func (c *checker) pumpAt(cur inspector.Cursor, buf *types.Var) (pump, bool) {
	info := c.pass.TypesInfo
	var clause inspector.Cursor
	for e := range cur.Enclosing((*ast.CommClause)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		if _, ok := e.Node().(*ast.CommClause); ok {
			clause = e
		}
		break
	}
	if !clause.Valid() {
		return pump{}, false
	}
	sel := clause.Parent().Parent()
	if _, ok := sel.Node().(*ast.SelectStmt); !ok || shared.NearestLoop(sel) == nil {
		return pump{}, false
	}
	p := pump{buf: buf, sel: sel, reduce: cur}
	switch comm := clause.Node().(*ast.CommClause).Comm.(type) {
	case *ast.SendStmt:
		if !c.sendsHead(sel, comm.Value, buf) {
			return pump{}, false
		}
		p.send = comm
	default:
		// The pull form: a case receives a request (a reader's buffer, a
		// reply channel) and hands it the head: msg := buf[0]; buf =
		// buf[1:]; copy(req, msg). Traefik's UDP session turns a stream
		// of datagrams into a Read this way.
		p.pull = shared.CommRecv(comm)
		if p.pull == nil || !readsHead(info, clause.Node(), buf) || sendselect.IsTimerChan(info, p.pull.X) || !shared.CarriesItems(info.TypeOf(p.pull.X)) {
			return pump{}, false
		}
		// The head goes to the request: the case's body uses what it
		// received (copy(req, msg), req.reply <- msg). A tick that only
		// evicts expired items receives nothing to hand the head to.
		req := definedBy(info, comm)
		if len(req) == 0 || !slices.ContainsFunc(clause.Node().(*ast.CommClause).Body, func(st ast.Stmt) bool { return mentions(info, st, req) }) {
			return pump{}, false
		}
	}
	for other := range sel.Preorder((*ast.CommClause)(nil)) {
		cc := other.Node().(*ast.CommClause)
		if cc == clause.Node() || other.Parent().Parent() != sel {
			continue
		}
		recv := shared.CommRecv(cc.Comm)
		if recv == nil || !shared.CarriesItems(info.TypeOf(recv.X)) {
			continue
		}
		received := definedBy(info, cc.Comm)
		for a := range other.Preorder((*ast.FuncLit)(nil), (*ast.AssignStmt)(nil)) {
			as, ok := a.Node().(*ast.AssignStmt)
			if !ok {
				if _, lit := a.Node().(*ast.FuncLit); lit {
					break // runs elsewhere
				}
				continue
			}
			if appendedVar(info, as) != buf {
				continue
			}
			item := as.Rhs[0].(*ast.CallExpr).Args[1]
			if shared.RefersTo(info, item, received) {
				if len(p.recvs) == 0 {
					p.add = a
				}
				p.recvs = append(p.recvs, recv)
				break
			}
		}
	}
	// Every case that feeds the buffer keeps it growing: a fan-in pump has
	// several.
	return p, len(p.recvs) > 0
}

// mentions reports whether n uses one of the objects.
func mentions(info *types.Info, n ast.Node, objs map[types.Object]ast.Expr) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok {
			if _, ok := objs[info.Uses[id]]; ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// readsHead reports whether n reads buf[0].
func readsHead(info *types.Info, n ast.Node, buf *types.Var) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if ix, ok := m.(*ast.IndexExpr); ok && code.Var(info, ix.X) == buf && isConst(info, ix.Index, "0") {
			found = true
		}
		return !found
	})
	return found
}

// definedBy returns the variables a select case's comm declares: v and ok
// of v, ok := <-in.
func definedBy(info *types.Info, comm ast.Stmt) map[types.Object]ast.Expr {
	out := make(map[types.Object]ast.Expr)
	if a, ok := comm.(*ast.AssignStmt); ok {
		for _, lhs := range a.Lhs {
			if id, ok := lhs.(*ast.Ident); ok {
				if obj := info.ObjectOf(id); obj != nil {
					out[obj] = lhs
				}
			}
		}
	}
	return out
}

// sendsHead reports whether value, sent in a case of sel, is the head of
// buf: buf[0], *buf[0], or a variable the loop around sel sets to one of
// these (cur = buf[0] before the select, with the sending case disabled by
// a nil channel while buf is empty).
func (c *checker) sendsHead(sel inspector.Cursor, value ast.Expr, buf *types.Var) bool {
	info := c.pass.TypesInfo
	isHead := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if star, ok := e.(*ast.StarExpr); ok {
			e = ast.Unparen(star.X)
		}
		ix, ok := e.(*ast.IndexExpr)
		return ok && code.Var(info, ix.X) == buf && isConst(info, ix.Index, "0")
	}
	if isHead(value) {
		return true
	}
	if star, ok := ast.Unparen(value).(*ast.StarExpr); ok {
		value = star.X
	}
	v := code.Var(info, value)
	if v == nil || !code.IsLocal(v) {
		return false
	}
	loop, ok := c.insp.Root().FindNode(shared.NearestLoop(sel))
	if !ok {
		return false
	}
	for a := range loop.Preorder((*ast.AssignStmt)(nil)) {
		as := a.Node().(*ast.AssignStmt)
		if len(as.Lhs) != len(as.Rhs) {
			continue
		}
		for i, lhs := range as.Lhs {
			if code.Var(info, lhs) == v && isHead(as.Rhs[i]) {
				return true
			}
		}
	}
	return false
}

// pumpBounded reports whether the loop around the pump bounds its buffer: it
// compares len(buf) with anything but emptiness (a receive case disabled
// when the buffer is full, a batch flushed on size, a trim of the oldest),
// or compares a counter of the package with a limit.
func (c *checker) pumpBounded(p pump) bool {
	info := c.pass.TypesInfo
	loop, ok := c.insp.Root().FindNode(shared.NearestLoop(p.sel))
	if !ok {
		return false
	}
	fn := code.EnclosingFunc(loop)
	bounded := false
	for cur := range fn.Preorder((*ast.BinaryExpr)(nil)) {
		b := cur.Node().(*ast.BinaryExpr)
		if !shared.IsComparison(b.Op) {
			continue
		}
		for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if c.lens.mentionsLength(pair[0], p.buf) && !isEmptinessBound(info, pair[1]) {
				bounded = true
			}
		}
		if shared.IsRelational(b.Op) && (c.lens.isCounter(b.X) || c.lens.isCounter(b.Y)) {
			bounded = true
		}
	}
	return bounded
}

// isEmptinessBound reports whether e is the other side of an emptiness test
// of a length: 0 or 1 (len(buf) > 0, len(buf) == 0, len(buf) < 1).
func isEmptinessBound(info *types.Info, e ast.Expr) bool {
	return isConst(info, e, "0") || isConst(info, e, "1")
}

// pumpFinding builds the diagnostic for the pump p, with the fix that stops
// receiving while the buffer is full, where it can be written.
func (c *fixer) pumpFinding(p pump) *shared.Finding {
	add := p.add.Node().(*ast.AssignStmt)
	bufExpr := edits.Source(c.pass, add.Lhs[0])
	var ins []string
	for _, r := range p.recvs {
		ins = append(ins, edits.Source(c.pass, r.X))
	}
	in := strings.Join(ins, " and ")
	var leaves string
	var out ast.Node // where the head leaves
	var outCh ast.Expr
	if p.send != nil {
		leaves, out, outCh = "sends the buffer's head on", p.send, p.send.Chan
	} else {
		leaves, out, outCh = "hands the buffer's head to each request from", p.pull, p.pull.X
	}
	f := shared.NewFinding(add, "pump",
		fmt.Sprintf("pump buffer %s grows without bound: the select keeps receiving from %s while it %s %s, so the channel's bound never pushes back and a slow consumer piles items up in memory; stop receiving while the buffer is full",
			bufExpr, in, leaves, edits.Source(c.pass, outCh)),
		out, "the buffer's head leaves here")
	c.pumpFix(f, p, bufExpr, in)
	return f
}

// pumpFix completes f with the fix: before the select, a copy of the
// receive's channel that is nil while the buffer holds a named limit, and
// the receive reading the copy. A nil channel disables its case, so the
// pump stops taking items and the producer waits on the channel's bound.
func (c *fixer) pumpFix(f *shared.Finding, p pump, bufExpr, in string) {
	sel := p.sel
	if !edits.StartsLine(c.pass, sel.Node().Pos()) || !shared.InStatementList(sel) || !edits.VisibleAt(c.pass, p.add.Node().(*ast.AssignStmt).Lhs[0], sel.Node().Pos()) || c.sh.JumpedOver(sel, sel.Node().Pos()) {
		return
	}
	for _, r := range p.recvs {
		if _, ok := ast.Unparen(r.X).(*ast.CallExpr); ok || !c.sh.IsComputed(r.X) {
			return
		}
	}
	file := c.sh.FileOf(sel.Node().Pos())
	anchor := edits.EnclosingDecl(file, sel.Node().Pos())
	if typ := c.fieldOwnerDecl(p.buf); typ != nil {
		anchor = typ
	}
	if anchor == nil {
		return
	}
	limit := c.names.Package("max"+exportedName(p.buf.Name()), sel.Node().Pos())
	c.declared[anchor] = append(c.declared[anchor], declaration{text: fmt.Sprintf(
		"// %s bounds the buffer %s: the pump stops receiving from %s while it holds this many; set it to acceptable wait × consumer rate.\nconst %s = %d",
		limit, bufExpr, in, limit, queueBound)})
	var copies, nils []string
	for _, r := range p.recvs {
		recv := c.names.Local(sel.Node().Pos(), "recv", sel.Node().Pos(), r.Pos())
		copies = append(copies, recv+" := "+edits.Source(c.pass, r.X))
		nils = append(nils, "\t"+recv+" = nil")
		f.Edits = append(f.Edits, analysis.TextEdit{Pos: r.X.Pos(), End: r.X.End(), NewText: []byte(recv)})
	}
	guard := fmt.Sprintf("%s\nif len(%s) >= %s {\n%s\n}", strings.Join(copies, "\n"), bufExpr, limit, strings.Join(nils, "\n"))
	f.Msg = "Stop receiving while the buffer is full"
	f.Edits = append(f.Edits, edits.InsertBefore(c.pass, sel.Node(), guard))
	f.File, f.Anchor = c.sh.FileOf(anchor.Pos()), anchor
}

// fieldOwnerDecl returns the top-level type declaration of the struct that
// holds the field v, when v is a field declared in a production file of this
// package, or nil.
func (c *fixer) fieldOwnerDecl(v *types.Var) ast.Decl {
	if !v.IsField() || v.Pkg() != c.pass.Pkg || c.rep.SkipPos(v.Pos()) {
		return nil
	}
	file := c.sh.FileOf(v.Pos())
	if file == nil {
		return nil
	}
	d, ok := edits.EnclosingDecl(file, v.Pos()).(*ast.GenDecl)
	if !ok || d.Tok != token.TYPE {
		return nil
	}
	return d
}
