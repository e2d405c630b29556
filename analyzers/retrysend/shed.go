package retrysend

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// A shed is the statement an overflow fix writes where the store was, when
// the function cannot return an error: it counts the drop or logs it with
// what the function or its receiver already uses, so the loss shows.
type shed struct {
	text    string
	message string         // the fix's message
	uses    []types.Object // what the text refers to beyond the receiver
}

// observableShed returns how the default of s can shed its item where the
// function already counts drops or logs: a drop counter the function
// increments, or a counter field of its receiver; a logger the function
// calls, or a logger field of its receiver.
func (c *overflowChecker) observableShed(s send) (shed, bool) {
	fn := code.EnclosingFunc(s.cur)
	if !fn.Valid() {
		return shed{}, false
	}
	for decl := range s.cur.Enclosing((*ast.FuncDecl)(nil)) {
		fn = decl // the method, with the closures in it
	}
	recv := c.receiverOf(fn)
	if recv != nil && c.lookupAt(s.nb.Select.Pos(), recv.Name()) != recv {
		recv = nil // shadowed in a closure
	}
	if sh, ok := c.dropCounterIn(fn, s); ok {
		return sh, true
	}
	if sh, ok := c.counterField(recv); ok {
		return sh, true
	}
	what := dropNote(c, s)
	if sh, ok := c.loggerIn(fn, s, what); ok {
		return sh, true
	}
	return c.loggerField(recv, what)
}

// logArg returns the message argument of a log call by the method name:
// a printf-style method (Printf, Warnf) reads it as a format, in which a %
// of the dropped item's source must be escaped.
func logArg(name, note string) string {
	if strings.HasSuffix(name, "f") {
		note = strings.ReplaceAll(note, "%", "%%")
	}
	return strconv.Quote(note)
}

// dropNote says what a logged drop lost: "b.out is full: dropped m".
func dropNote(c *overflowChecker, s send) string {
	ch, item := edits.Source(c.pass, s.nb.Send.Chan), edits.Source(c.pass, s.nb.Send.Value)
	if strings.Contains(ch, "\n") || len(ch) > 40 {
		ch = "the channel"
	}
	if strings.Contains(item, "\n") || len(item) > 40 {
		item = "the item"
	}
	return ch + " is full: dropped " + item
}

// lookupAt returns the object name denotes at pos, or nil.
func (c *overflowChecker) lookupAt(pos token.Pos, name string) types.Object {
	inner := c.pass.Pkg.Scope().Innermost(pos)
	if inner == nil {
		return nil
	}
	_, obj := inner.LookupParent(name, pos)
	return obj
}

// receiverOf returns the receiver of the method whose body is at fn, when
// it is named and fn is a method declaration.
func (c *overflowChecker) receiverOf(fn inspector.Cursor) *types.Var {
	fd, ok := fn.Node().(*ast.FuncDecl)
	if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return nil
	}
	v, _ := c.info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	if v == nil || v.Name() == "_" {
		return nil
	}
	return v
}

// namesDrop reports whether a counter's name says it counts lost items.
func namesDrop(name string) bool { return knowledge.DropWords.Match(strings.ToLower(name)) }

// dropCounterIn returns the first statement of fn, outside the select of s,
// that only increments a counter named for drops (s.dropped.Add(1),
// atomic.AddInt64(&s.drops, 1), droppedTotal.Inc(), s.overflows++): the
// function's own way of counting a loss, repeated where the store was.
func (c *overflowChecker) dropCounterIn(fn inspector.Cursor, s send) (shed, bool) {
	for cur := range fn.Preorder((*ast.ExprStmt)(nil), (*ast.IncDecStmt)(nil), (*ast.AssignStmt)(nil)) {
		st := cur.Node().(ast.Stmt)
		if code.Inside(st.Pos(), s.nb.Select) || code.IsDeferredLit(cur) || !sendselect.IsCount(c.info, st) {
			continue
		}
		target, ok := c.countTarget(st)
		if !ok || !namesDrop(lastName(target)) || !edits.VisibleAt(c.pass, st, s.nb.Select.Pos()) {
			continue
		}
		text := edits.Source(c.pass, st)
		if strings.Contains(text, "\n") {
			continue
		}
		return shed{text: text, message: "Count the dropped item instead of queueing it beyond the channel's bound", uses: c.objectsIn(st)}, true
	}
	return shed{}, false
}

// countTarget returns what a counting statement increments, when that is
// a variable or field reached without calls: x++, x += 1, x.Add(1),
// x.Inc(), atomic.AddInt64(&x, 1).
func (c *overflowChecker) countTarget(st ast.Stmt) (ast.Expr, bool) {
	var x ast.Expr
	switch st := st.(type) {
	case *ast.IncDecStmt:
		if st.Tok != token.INC {
			return nil, false
		}
		x = st.X
	case *ast.AssignStmt:
		if st.Tok != token.ADD_ASSIGN || len(st.Lhs) != 1 {
			return nil, false
		}
		x = st.Lhs[0]
	case *ast.ExprStmt:
		call := ast.Unparen(st.X).(*ast.CallExpr)
		fn := code.CalleeFunc(c.info, call)
		if fn == nil {
			return nil, false
		}
		if fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && fn.Signature().Recv() == nil {
			if len(call.Args) == 0 {
				return nil, false
			}
			addr, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr)
			if !ok || addr.Op != token.AND {
				return nil, false
			}
			x = addr.X
		} else {
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return nil, false
			}
			x = sel.X
		}
	}
	if x == nil || !code.CallFree(c.info, nil, x) {
		return nil, false
	}
	switch ast.Unparen(x).(type) {
	case *ast.Ident, *ast.SelectorExpr:
		return x, true
	}
	return nil, false
}

// objectsIn returns the variables and package names st refers to.
func (c *pkg) objectsIn(n ast.Node) []types.Object {
	var out []types.Object
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			switch obj := c.info.Uses[id].(type) {
			case *types.Var, *types.PkgName:
				out = append(out, obj)
			}
		}
		return true
	})
	return out
}

// counterField returns the increment of a field of recv's struct that is a
// concurrency-safe counter named for drops: an atomic integer, or a metric
// counter with Inc.
func (c *overflowChecker) counterField(recv *types.Var) (shed, bool) {
	st := structOf(recv)
	if st == nil {
		return shed{}, false
	}
	for f := range st.Fields() {
		if !namesDrop(f.Name()) || !fieldVisible(c.pass.Pkg, f) {
			continue
		}
		var call string
		switch t := derefNamed(f.Type()); {
		case t == nil:
			continue
		case t.Obj().Pkg() != nil && t.Obj().Pkg().Path() == "sync/atomic" && strings.Contains(t.Obj().Name(), "Int"):
			call = "Add(1)"
		case hasNullary(f.Type(), c.pass.Pkg, "Inc"):
			call = "Inc()"
		default:
			continue
		}
		return shed{
			text:    recv.Name() + "." + f.Name() + "." + call,
			message: "Count the dropped item instead of queueing it beyond the channel's bound",
		}, true
	}
	return shed{}, false
}

// loggerIn returns a log call of what fn already logs with, saying what was
// dropped (what, unquoted): the same logger value (s.logger, lg) or package
// (log, slog).
func (c *overflowChecker) loggerIn(fn inspector.Cursor, s send, what string) (shed, bool) {
	for cur := range fn.Preorder((*ast.ExprStmt)(nil)) {
		st := cur.Node().(*ast.ExprStmt)
		if !sendselect.IsLog(c.info, st) || code.IsDeferredLit(cur) {
			continue
		}
		call := ast.Unparen(st.X).(*ast.CallExpr)
		callee := code.CalleeFunc(c.info, call)
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if callee == nil || !ok {
			continue
		}
		if callee.Signature().Recv() == nil {
			// log.Printf, slog.Info: the package's own warning, or Printf.
			pkg, ok := c.info.Uses[ast.Unparen(sel.X).(*ast.Ident)].(*types.PkgName)
			if !ok {
				continue
			}
			var name string
			switch pkg.Imported().Path() {
			case "log":
				name = "Printf"
			case "log/slog":
				name = "Warn"
			default:
				continue // fmt printing is output, not a log
			}
			return shed{text: pkg.Name() + "." + name + "(" + logArg(name, what) + ")", message: logMessage, uses: []types.Object{pkg}}, true
		}
		if !code.CallFree(c.info, nil, sel.X) || !edits.VisibleAt(c.pass, sel.X, s.nb.Select.Pos()) {
			continue
		}
		m := c.logMethod(c.info.TypeOf(sel.X), callee.Name())
		if m == "" {
			continue
		}
		x := edits.Source(c.pass, sel.X)
		if strings.Contains(x, "\n") {
			continue
		}
		return shed{text: x + "." + m + "(" + logArg(m, what) + ")", message: logMessage, uses: c.objectsIn(sel.X)}, true
	}
	return shed{}, false
}

const logMessage = "Log the dropped item instead of queueing it beyond the channel's bound"

// loggerField returns a log call on a field of recv's struct that holds a
// logger: *log.Logger, *slog.Logger, or a type whose name says Log with a
// warning or print method that takes a message.
func (c *overflowChecker) loggerField(recv *types.Var, what string) (shed, bool) {
	st := structOf(recv)
	if st == nil {
		return shed{}, false
	}
	for f := range st.Fields() {
		t := derefNamed(f.Type())
		if t == nil || !fieldVisible(c.pass.Pkg, f) || !knowledge.LoggerTypeWords.Match(t.Obj().Name()) {
			continue
		}
		if m := c.logMethod(f.Type(), ""); m != "" {
			return shed{text: recv.Name() + "." + f.Name() + "." + m + "(" + logArg(m, what) + ")", message: logMessage}, true
		}
	}
	return shed{}, false
}

// logMethod returns the method of a logger of type t to log a drop with,
// one that takes a single message: a warning if it has one, else the
// method the code already logs with (used, may be ""), else a print.
func (c *overflowChecker) logMethod(t types.Type, used string) string {
	if t == nil {
		return ""
	}
	takes := func(name string) bool {
		obj, _, _ := types.LookupFieldOrMethod(t, true, c.pass.Pkg, name)
		fn, ok := obj.(*types.Func)
		return ok && takesMessage(fn.Signature())
	}
	for _, name := range knowledge.WarnMethods.Entries() {
		if takes(name) {
			return name
		}
	}
	if knowledge.LevelMethods.Has(strings.TrimRight(used, "f")) && takes(used) {
		return used
	}
	for _, name := range knowledge.PrintMethods.Entries() {
		if takes(name) {
			return name
		}
	}
	return ""
}

// takesMessage reports whether a call with one string argument fits sig:
// (string), (string, ...T), or (...any).
func takesMessage(sig *types.Signature) bool {
	params := sig.Params()
	str := types.Typ[types.UntypedString]
	switch params.Len() {
	case 1:
		p := params.At(0).Type()
		if sig.Variadic() {
			p = p.(*types.Slice).Elem()
		}
		return types.AssignableTo(str, p)
	case 2:
		return sig.Variadic() && types.AssignableTo(str, params.At(0).Type())
	}
	return false
}

// structOf returns the struct that recv's type, or what it points to, is.
func structOf(recv *types.Var) *types.Struct {
	if recv == nil {
		return nil
	}
	t := recv.Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, _ := t.Underlying().(*types.Struct)
	return st
}

// derefNamed returns the named type of t or of what t points to.
func derefNamed(t types.Type) *types.Named {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

func fieldVisible(pkg *types.Package, f *types.Var) bool {
	return !f.Embedded() && (f.Exported() || f.Pkg() == pkg)
}

// hasNullary reports whether values of t have a method name with no
// parameters.
func hasNullary(t types.Type, pkg *types.Package, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name)
	fn, ok := obj.(*types.Func)
	return ok && fn.Signature().Params().Len() == 0
}

// dropComment is the shed of last resort: a comment that names what is
// lost, where nothing counts or logs.
func dropComment(c *overflowChecker, s send) string {
	itemText := edits.Source(c.pass, s.nb.Send.Value)
	if strings.Contains(itemText, "\n") || len(itemText) > 40 {
		itemText = "the item"
	}
	comment := fmt.Sprintf("// %s is full: drop %s rather than hold it beyond the channel's bound.", edits.Source(c.pass, s.nb.Send.Chan), itemText)
	if strings.Contains(comment, "\n") {
		comment = "// The channel is full: drop the item rather than hold it beyond the channel's bound."
	}
	return comment
}
