package retrysend

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// A helper is a function of the package that tries one non-blocking send and
// reports whether it succeeded:
//
//	func (q *Queue) TryPut(v T) bool {
//		select {
//		case q.ch <- v:
//			return true
//		default:
//			return false
//		}
//	}
type helper struct {
	fn   *types.Func
	decl *ast.FuncDecl
	nb   sendselect.NonBlocking
}

// trySendHelpers finds the try-send helpers among the package's sends.
func (c *checker) trySendHelpers(sends []send) map[*types.Func]*helper {
	helpers := make(map[*types.Func]*helper)
	for _, s := range sends {
		if s.cur.ParentEdgeKind() != edge.BlockStmt_List || s.cur.Parent().ParentEdgeKind() != edge.FuncDecl_Body {
			continue
		}
		decl := s.cur.Parent().Parent().Node().(*ast.FuncDecl)
		fn, ok := c.info.Defs[decl.Name].(*types.Func)
		if !ok || !c.isTrySend(decl, fn, s.nb) {
			continue
		}
		helpers[fn] = &helper{fn, decl, s.nb}
	}
	return helpers
}

// isTrySend reports whether decl, holding nb, only tries nb's send and
// returns whether it succeeded, with a send the caller could write itself.
func (c *checker) isTrySend(decl *ast.FuncDecl, fn *types.Func, nb sendselect.NonBlocking) bool {
	res := fn.Signature().Results()
	if res.Len() != 1 || !types.Identical(res.At(0).Type(), types.Typ[types.Bool]) {
		return false
	}
	if len(nb.Case.Body) != 1 || !c.returnsBool(nb.Case.Body[0], "true") {
		return false
	}
	dflt := sendselect.Case(c.info, nb.Default.Body, nil, c.isWait)
	switch body := decl.Body.List; {
	case len(body) == 1:
		if !dflt.Idle || len(dflt.Waits) > 0 || dflt.Last == nil || !c.returnsBool(dflt.Last, "false") {
			return false
		}
	case len(body) == 2:
		if !dflt.Idle || len(dflt.Waits) > 0 || dflt.Last != nil || !c.returnsBool(body[1], "false") {
			return false
		}
	default:
		return false
	}
	return sendselect.CallFree(c.info, nb.Send.Chan, nb.Send.Value) && c.spellableAtCall(fn, nb.Send)
}

func (c *checker) returnsBool(s ast.Stmt, value string) bool {
	ret, ok := s.(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	id, ok := ast.Unparen(ret.Results[0]).(*ast.Ident)
	return ok && c.info.Uses[id] == types.Universe.Lookup(value)
}

// spellableAtCall reports whether the helper's send refers only to its
// parameters, its receiver and package-level names, so that a caller can
// write the same send with its arguments in their place.
func (c *checker) spellableAtCall(fn *types.Func, send *ast.SendStmt) bool {
	ok := true
	ast.Inspect(send, func(n ast.Node) bool {
		id, isIdent := n.(*ast.Ident)
		if !isIdent {
			return ok
		}
		switch obj := c.info.Uses[id].(type) {
		case *types.Var:
			if !obj.IsField() && paramIndex(fn, obj) < -1 && obj.Parent() != c.pass.Pkg.Scope() {
				ok = false
			}
		case *types.PkgName, *types.Const, *types.TypeName, *types.Func, *types.Nil, *types.Builtin:
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// paramIndex returns the index of v among fn's parameters, -1 for its
// receiver, or -2.
func paramIndex(fn *types.Func, v *types.Var) int {
	sig := fn.Signature()
	if sig.Recv() == v {
		return -1
	}
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == v {
			return i
		}
	}
	return -2
}

// helperLoop reports for !h(args) { wait }: a retry loop around a try-send
// helper.
func (c *checker) helperLoop(file, cur inspector.Cursor, helpers map[*types.Func]*helper) *finding {
	fs := cur.Node().(*ast.ForStmt)
	if fs.Init != nil || (fs.Post != nil && !sendselect.IsCount(c.info, fs.Post)) {
		return nil
	}
	not, ok := ast.Unparen(fs.Cond).(*ast.UnaryExpr)
	if !ok || not.Op != token.NOT {
		return nil
	}
	call, ok := ast.Unparen(not.X).(*ast.CallExpr)
	if !ok {
		return nil
	}
	ff, fn := c.res.HelperCall(call)
	if ff == nil || ff.TrySend == nil || fn == nil {
		return nil
	}
	l := loop{cur: cur, stmt: fs, outer: fs, body: fs.Body, bound: unbounded}
	if ls, ok := cur.Parent().Node().(*ast.LabeledStmt); ok {
		l.outer = ls
		l.label, _ = c.info.Defs[ls.Label].(*types.Label)
	}
	wait := sendselect.LoopBody(c.info, fs.Body.List, l.label, c.isWait)
	if !wait.Idle || (wait.End != sendselect.Falls && wait.End != sendselect.Continues) {
		return nil
	}
	h := helpers[fn]
	if h == nil {
		return c.siblingLoop(file, l, call, fn, ff.TrySend, wait)
	}
	args, kept, ok := c.callArgs(h, call)
	if !ok || !c.invariant(l, nil, slices.Collect(maps.Values(args))...) {
		return nil
	}
	astFile := file.Node().(*ast.File)
	sendText, ok := c.substitute(h, astFile, args)
	if !ok {
		return nil
	}
	plan, honours := c.blockingPlan(file, l, sendText, nil, kept, "")
	if plan == nil {
		return nil
	}
	ch, _ := c.substituteExpr(h, astFile, h.nb.Send.Chan, args)
	msg := c.retryMessage(ch+" through "+fn.Name(), attempt{before: wait}, false, honours)
	return &finding{
		file:    file,
		kind:    "retryloop",
		pos:     fs.Pos(),
		end:     fs.Body.Lbrace,
		message: msg,
		related: []analysis.RelatedInformation{related(h.nb.Select, fn.Name()+" gives up at once when the channel is full")},
		fix:     plan,
	}
}

// callArgs maps the helper's receiver and parameters to the expressions the
// call passes, when each is plain enough to write twice.
func (c *checker) callArgs(h *helper, call *ast.CallExpr) (map[types.Object]ast.Expr, []span, bool) {
	sig := h.fn.Signature()
	if len(call.Args) != sig.Params().Len() || call.Ellipsis.IsValid() {
		return nil, nil, false
	}
	args := make(map[types.Object]ast.Expr)
	var kept []span
	for i, a := range call.Args {
		args[sig.Params().At(i)] = a
		kept = append(kept, spanOf(a))
	}
	if recv := sig.Recv(); recv != nil {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, nil, false
		}
		if s, ok := c.info.Selections[sel]; !ok || s.Kind() != types.MethodVal || len(s.Index()) != 1 {
			return nil, nil, false // promoted through an embedded field
		}
		args[recv] = sel.X
		kept = append(kept, spanOf(sel.X))
	}
	return args, kept, true
}

// substitute writes the helper's send as the caller would: ch <- v with the
// call's arguments in place of the parameters.
func (c *checker) substitute(h *helper, file *ast.File, args map[types.Object]ast.Expr) (string, bool) {
	ch, ok1 := c.substituteExpr(h, file, h.nb.Send.Chan, args)
	v, ok2 := c.substituteExpr(h, file, h.nb.Send.Value, args)
	return ch + " <- " + v, ok1 && ok2
}

func (c *checker) substituteExpr(h *helper, file *ast.File, e ast.Expr, args map[types.Object]ast.Expr) (string, bool) {
	src := edits.Source(c.pass, e)
	var b strings.Builder
	last := e.Pos()
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		id, isIdent := n.(*ast.Ident)
		if !isIdent || !ok {
			return ok
		}
		obj := c.info.Uses[id]
		if pkg, isPkg := obj.(*types.PkgName); isPkg {
			if name, imported := edits.ImportName(file, pkg.Imported().Path()); !imported || name != pkg.Name() {
				ok = false
			}
			return false
		}
		arg, isParam := args[obj]
		if !isParam {
			return true
		}
		b.WriteString(src[last-e.Pos() : id.Pos()-e.Pos()])
		text := edits.Source(c.pass, arg)
		switch ast.Unparen(arg).(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.BasicLit, *ast.CompositeLit, *ast.ParenExpr, *ast.CallExpr:
		default:
			if id != ast.Unparen(e) {
				text = "(" + text + ")" // an operand of the helper's expression
			}
		}
		b.WriteString(text)
		last = id.End()
		return true
	})
	b.WriteString(src[last-e.Pos():])
	return b.String(), ok
}

// siblingLoop reports for !q.TryPush(v) { wait } around a try-send helper
// whose send this package cannot spell (another package's, or one reaching
// unexported state), when the helper's type also has the blocking send
// (q.Push): the fix calls it in place of the loop. A loop whose wait also
// ends on ctx.Done() keeps cancellation that the blocking call would not,
// so it gets no fix.
func (c *checker) siblingLoop(file inspector.Cursor, l loop, call *ast.CallExpr, fn *types.Func, h *admission.TrySendHelper, wait sendselect.Path) *finding {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || h.Blocking == "" || wait.HonoursCtx || h.Param >= len(call.Args) || call.Ellipsis.IsValid() {
		return nil
	}
	if !c.invariant(l, nil, sel.X, call.Args[h.Param]) {
		return nil
	}
	ch := h.Chan
	if h.Field != "" {
		ch = edits.Source(c.pass, sel.X) + "." + h.Field // as the caller would name it
	}
	text := edits.Source(c.pass, sel.X) + "." + h.Blocking + "(" + edits.Source(c.pass, call.Args[h.Param]) + ")"
	plan := c.replaceLoop(file, l, []string{text}, []span{spanOf(sel.X), spanOf(call.Args[h.Param])})
	if plan == nil {
		return nil
	}
	plan.message = "Replace the retry loop with " + h.Blocking + ", which blocks until the channel has room"
	return &finding{
		file:    file,
		kind:    "retryloop",
		pos:     l.stmt.Pos(),
		end:     l.stmt.(*ast.ForStmt).Body.Lbrace,
		message: c.retryMessage(ch+" through "+code.DisplayName(fn), attempt{before: wait}, false, false),
		fix:     plan,
	}
}
