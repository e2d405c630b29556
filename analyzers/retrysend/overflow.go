package retrysend

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// A store is a statement of a default case that keeps the item the send
// could not deliver somewhere that grows.
type store struct {
	stmt   ast.Stmt
	what   string   // "appends the item to s.backlog"
	target ast.Expr // the growing container; nil for a goroutine
	obj    types.Object
}

// overflow reports a non-blocking send whose default stores the item in a
// container without a cap, or parks it in a goroutine that blocks on the
// same send.
func (c *overflowChecker) overflow(s send) *finding {
	item := types.ExprString(s.nb.Send.Value)
	quiet := ruleDefaultSheds // why no statement of the default is a store
	for _, st := range s.nb.Default.Body {
		found, exempt := c.storeOf(s, st, item)
		if exempt != nil {
			if quiet == ruleDefaultSheds {
				quiet = exempt
			}
			continue
		}
		if found.stmt == nil {
			continue
		}
		if found.target != nil && c.capped(s.cur, found) {
			c.rep.Silence(st, ruleCappedStore)
			return nil
		}
		fix := c.shedFix(s, found)
		ch := edits.Source(c.pass, s.nb.Send.Chan)
		rel := []analysis.RelatedInformation{related(s.nb.Send, "the bounded send it bypasses")}
		var msg string
		if found.target == nil {
			msg = fmt.Sprintf("default of a non-blocking send on %s starts a goroutine that blocks on the same send: every parked goroutine holds one item, so the channel's bound is bypassed and memory grows with overload; shed the item explicitly instead", ch)
		} else {
			msg = fmt.Sprintf("default of a non-blocking send on %s %s, which has no cap: the channel's bound is bypassed and memory grows with overload; shed the item explicitly instead", ch, found.what)
			if found.obj != nil && found.obj.Pkg() == c.pass.Pkg && found.obj.Pos().IsValid() {
				rel = append(rel, analysis.RelatedInformation{
					Pos: found.obj.Pos(), End: found.obj.Pos() + token.Pos(len(found.obj.Name())),
					Message: "grows without a cap",
				})
			}
		}
		return &finding{
			file:    s.file,
			kind:    "overflow",
			pos:     st.Pos(),
			end:     st.End(),
			message: msg,
			related: rel,
			fix:     fix,
		}
	}
	c.rep.Silence(s.nb.Send, quiet)
	return nil
}

// storeOf returns the store when st stores item where it grows: an append
// to a slice, a list push or a map insert keyed per item, each on a field
// or a package variable, or a goroutine that blocks on the same send. When
// st stores the item where it does not grow (a local batch, the latest
// value per key) it returns the rule that says so; otherwise neither.
func (c *overflowChecker) storeOf(s send, st ast.Stmt, item string) (store, *report.Rule) {
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok != token.ASSIGN || len(st.Lhs) != 1 || len(st.Rhs) != 1 {
			return store{}, nil
		}
		lhs := ast.Unparen(st.Lhs[0])
		if idx, ok := lhs.(*ast.IndexExpr); ok {
			return c.mapInsert(st, idx, item)
		}
		args, ok := c.appendTo(lhs, st.Rhs[0])
		if !ok || !mentions(args, item) {
			return store{}, nil
		}
		obj, ok := c.shared(lhs)
		if !ok {
			return store{}, ruleLocalBatch
		}
		return store{st, "appends the item to " + types.ExprString(lhs), lhs, obj}, nil
	case *ast.ExprStmt:
		call, ok := ast.Unparen(st.X).(*ast.CallExpr)
		if !ok {
			return store{}, nil
		}
		switch sendselect.CallName(c.info, call) {
		case "(*container/list.List).PushBack", "(*container/list.List).PushFront":
		default:
			return store{}, nil
		}
		list := ast.Unparen(call.Fun).(*ast.SelectorExpr).X
		if !mentions(call.Args, item) {
			return store{}, nil
		}
		obj, ok := c.shared(list)
		if !ok {
			return store{}, ruleLocalBatch
		}
		return store{st, "pushes the item onto list " + types.ExprString(list), list, obj}, nil
	case *ast.GoStmt:
		if c.parksSend(st.Call, s.nb.Send, item) {
			return store{stmt: st}, nil
		}
	}
	return store{}, nil
}

// appendTo returns the appended values when rhs is append(lhs, ...).
func (c *overflowChecker) appendTo(lhs, rhs ast.Expr) ([]ast.Expr, bool) {
	call, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok || len(call.Args) < 2 || !isBuiltin(c.info, call.Fun, "append") {
		return nil, false
	}
	if types.ExprString(ast.Unparen(call.Args[0])) != types.ExprString(lhs) {
		return nil, false
	}
	return call.Args[1:], true
}

// mapInsert matches m[k] = item and m[k] = append(m[k], item) on a shared map,
// with a key that is not a constant: one entry per item, not a latest value.
func (c *overflowChecker) mapInsert(st *ast.AssignStmt, idx *ast.IndexExpr, item string) (store, *report.Rule) {
	t := c.info.TypeOf(idx.X)
	if t == nil {
		return store{}, nil
	}
	if _, ok := t.Underlying().(*types.Map); !ok {
		return store{}, nil
	}
	appended, isAppend := c.appendTo(idx, st.Rhs[0])
	isAppend = isAppend && mentions(appended, item)
	if !isAppend && !mentions([]ast.Expr{st.Rhs[0]}, item) {
		return store{}, nil // not the item
	}
	if tv, ok := c.info.Types[idx.Index]; !ok || tv.Value != nil {
		return store{}, ruleLatestPerKey // one constant key
	}
	obj, ok := c.shared(idx.X)
	if !ok {
		return store{}, ruleLocalBatch
	}
	m := types.ExprString(idx.X)
	if isAppend {
		return store{st, "appends the item to map " + m, idx.X, obj}, nil
	}
	if !isPerItemKey(idx.Index, item) {
		return store{}, ruleLatestPerKey // a latest value per key: bounded by the keys
	}
	return store{st, "stores the item in map " + m, idx.X, obj}, nil
}

// isPerItemKey reports whether key identifies the item itself: the item, or
// an identity of it (v.ID, v.Seq, v.UUID). Any other key, even one taken from
// the item (v.Topic, v.Key), keeps the latest item per key, which the number
// of keys bounds.
func isPerItemKey(key ast.Expr, item string) bool {
	key = ast.Unparen(key)
	if types.ExprString(key) == item {
		return true
	}
	sel, ok := key.(*ast.SelectorExpr)
	if !ok || !mentions([]ast.Expr{sel.X}, item) {
		return false
	}
	return knowledge.IDSuffixes.Match(strings.ToLower(sel.Sel.Name))
}

// shared returns the variable behind e when e is a struct field or a package
// variable: state that outlives the call, unlike a local batch.
func (c *overflowChecker) shared(e ast.Expr) (types.Object, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := c.info.Uses[e].(*types.Var)
		return v, ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	case *ast.SelectorExpr:
		v, ok := c.info.Uses[e.Sel].(*types.Var)
		if !ok {
			return nil, false
		}
		if sel, ok := c.info.Selections[e]; ok {
			return v, sel.Kind() == types.FieldVal
		}
		return v, v.Pkg() != nil && v.Parent() == v.Pkg().Scope() // pkg.Var
	}
	return nil, false
}

// parksSend reports whether call starts func() { ch <- item }() or
// func(x T) { ch <- x }(item): a goroutine that only blocks on the send.
func (c *overflowChecker) parksSend(call *ast.CallExpr, send *ast.SendStmt, item string) bool {
	lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit)
	if !ok || len(lit.Body.List) != 1 {
		return false
	}
	inner, ok := lit.Body.List[0].(*ast.SendStmt)
	if !ok || types.ExprString(inner.Chan) != types.ExprString(send.Chan) {
		return false
	}
	if types.ExprString(inner.Value) == item && len(call.Args) == 0 {
		return true
	}
	id, ok := ast.Unparen(inner.Value).(*ast.Ident)
	if !ok || len(call.Args) != 1 || types.ExprString(call.Args[0]) != item {
		return false
	}
	params := lit.Type.Params.List
	return len(params) == 1 && len(params[0].Names) == 1 && c.info.Uses[id] == c.info.Defs[params[0].Names[0]]
}

// mentions reports whether some expression of exprs is or contains item.
func mentions(exprs []ast.Expr, item string) bool {
	found := false
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			if x, ok := n.(ast.Expr); ok && types.ExprString(x) == item {
				found = true
			}
			return !found
		})
	}
	return found
}

func isBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// capped reports whether the function around the select bounds the store's
// container itself: it measures it (len, cap, Len) or shrinks, resets or
// deletes from it besides the store.
func (c *overflowChecker) capped(sel inspector.Cursor, st store) bool {
	fn := code.EnclosingFunc(sel)
	if !fn.Valid() {
		return true
	}
	target := types.ExprString(st.target)
	isTarget := func(e ast.Expr) bool { return types.ExprString(ast.Unparen(e)) == target }
	for cur := range fn.Preorder((*ast.CallExpr)(nil), (*ast.AssignStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			if (isBuiltin(c.info, n.Fun, "len") || isBuiltin(c.info, n.Fun, "cap") || isBuiltin(c.info, n.Fun, "delete")) &&
				len(n.Args) > 0 && isTarget(n.Args[0]) {
				return true
			}
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && isTarget(sel.X) {
				switch sel.Sel.Name {
				case "Len", "Remove", "Init":
					return true
				}
			}
		case *ast.AssignStmt:
			if n == st.stmt {
				continue
			}
			for _, lhs := range n.Lhs {
				if isTarget(lhs) {
					return true
				}
			}
		}
	}
	return false
}

// A sentinel is an error variable a fix declares.
type sentinel struct {
	name string
	decl string
}

type sentinelKey struct {
	file *ast.File
	base string
}

// shedFix plans the overflow fix: the store (with a lock taken only around
// it) gives way to an explicit shed. A function that returns an error and
// sends outside any loop returns a sentinel error the fix declares; any
// other drops the item and says so in a comment.
func (c *overflowChecker) shedFix(s send, st store) *fixPlan {
	file := s.file.Node().(*ast.File)
	body := s.nb.Default.Body
	first, last := stmtIndex(body, st.stmt), stmtIndex(body, st.stmt)
	if first > 0 && last+1 < len(body) && c.locksAround(body[first-1], body[last+1]) {
		first, last = first-1, last+1
	}
	region := span{body[first].Pos(), body[last].End()}
	plan := &fixPlan{file: s.file, removed: []span{region}}

	if ret, ok := c.returnShed(s, file, plan); ok {
		if es, dead, ok := c.returnEdits(s, region, last, ret); ok {
			plan.message = "Return an error instead of queueing the item beyond the channel's bound"
			plan.edits = append(plan.edits, es...)
			plan.removed = append(plan.removed, dead...)
			return plan
		}
		plan.edits, plan.uses, plan.sentinel = nil, nil, nil
	}
	text, message := dropComment(c, s), "Drop the item instead of queueing it beyond the channel's bound"
	if sh, ok := c.observableShed(s); ok {
		text, message = sh.text, sh.message
		plan.uses = append(plan.uses, sh.uses...)
	}
	if strings.HasPrefix(text, "//") && !c.endsLine(region.end) {
		// select { case ch <- v: default: q = append(q, v) }: what follows
		// on the line goes on the next, out of the comment's way.
		text += "\n"
	}
	plan.message = message
	plan.edits = append(plan.edits, analysis.TextEdit{Pos: region.pos, End: region.end, NewText: []byte(text)})
	return plan
}

// endsLine reports whether only blanks or a line comment follow pos on its
// line.
func (c *overflowChecker) endsLine(pos token.Pos) bool {
	tf := c.pass.Fset.File(pos)
	content, err := edits.FileContent(c.pass, tf)
	if err != nil {
		return false
	}
	rest := strings.TrimLeft(string(content[tf.Offset(pos):]), " \t")
	return rest == "" || rest[0] == '\n' || rest[0] == '\r' || strings.HasPrefix(rest, "//")
}

// returnEdits puts ret in place of the store region, at the end of the
// default case. When the send case returns too, what followed the select
// can no longer run, and goes.
func (c *overflowChecker) returnEdits(s send, region span, last int, ret string) ([]analysis.TextEdit, []span, bool) {
	body := s.nb.Default.Body
	var es []analysis.TextEdit
	if last == len(body)-1 {
		es = append(es, analysis.TextEdit{Pos: region.pos, End: region.end, NewText: []byte(ret)})
	} else {
		del, ok := edits.DeleteLines(c.pass, region.pos, region.end)
		if !ok {
			return nil, nil, false
		}
		es = append(es, del, edits.InsertAfter(c.pass, body[len(body)-1], ret))
	}
	sendCase := sendselect.Case(c.info, s.nb.Case.Body, nil, nil)
	if (sendCase.End != sendselect.Returns && sendCase.End != sendselect.Panics) || !onlyFinalBranch(s.nb.Case.Body, nil) {
		return es, nil, true
	}
	var rest []ast.Stmt
	for next, ok := s.cur.NextSibling(); ok; next, ok = next.NextSibling() {
		st, isStmt := next.Node().(ast.Stmt)
		if _, labeled := st.(*ast.LabeledStmt); !isStmt || labeled {
			return nil, nil, false // a goto may reach it
		}
		rest = append(rest, st)
	}
	if len(rest) == 0 {
		return es, nil, true
	}
	dead := span{s.nb.Select.End(), rest[len(rest)-1].End()}
	return append(es, analysis.TextEdit{Pos: dead.pos, End: dead.end}), []span{dead}, true
}

// returnShed returns the statement that rejects the item with a sentinel
// error, and plans the sentinel and its import, when the function around the
// send returns an error and the send is not in a loop of that function.
func (c *overflowChecker) returnShed(s send, file *ast.File, plan *fixPlan) (string, bool) {
	if inLoop(s.cur) {
		return "", false // one full channel should not end the whole loop
	}
	zeros, ok := c.fix.errorReturn(s.cur)
	if !ok {
		return "", false
	}
	// Only the sentinel's declaration, at the top level, names errors.
	errorsPkg, imp, ok := edits.AddImport(c.pass, file, "errors")
	if !ok {
		return "", false
	}
	plan.edits = append(plan.edits, imp...)
	if obj := pkgNameOf(c.info, file, "errors"); obj != nil {
		plan.uses = append(plan.uses, obj)
	}
	chName := lastName(s.nb.Send.Chan)
	key := sentinelKey{file, chName}
	sen := c.fix.sentinel[key]
	if sen == nil {
		name := c.fix.freshNames.Package("err"+exported(chName)+"Full", s.cur.Node().Pos())
		sen = &sentinel{
			name: name,
			decl: fmt.Sprintf("// %s reports that %s is full: the item is shed, not queued beyond the bound.\nvar %s = %s.New(%q)",
				name, chName, name, errorsPkg, chName+" is full"),
		}
		c.fix.sentinel[key] = sen
	}
	plan.sentinel = sen
	return "return " + zeros + sen.name, true
}

// locksAround reports whether before and after are X.Lock() and X.Unlock()
// (or RLock and RUnlock) of the same X.
func (c *overflowChecker) locksAround(before, after ast.Stmt) bool {
	lock, ok1 := methodCall(before)
	unlock, ok2 := methodCall(after)
	if !ok1 || !ok2 || types.ExprString(lock.X) != types.ExprString(unlock.X) {
		return false
	}
	return (lock.Sel.Name == "Lock" && unlock.Sel.Name == "Unlock") || (lock.Sel.Name == "RLock" && unlock.Sel.Name == "RUnlock")
}

func methodCall(s ast.Stmt) (*ast.SelectorExpr, bool) {
	call := code.StmtCall(s)
	if call == nil || len(call.Args) != 0 {
		return nil, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return sel, ok
}

// inLoop reports whether cur sits in a loop of its own function.
func inLoop(cur inspector.Cursor) bool {
	for enc := range cur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch enc.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		}
		return false
	}
	return false
}

func stmtIndex(list []ast.Stmt, s ast.Stmt) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// lastName returns the last identifier of a channel expression: jobs for
// s.jobs, or queue when there is none.
func lastName(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return "queue"
}

func exported(name string) string {
	r := []rune(name)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
