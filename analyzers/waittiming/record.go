package waittiming

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"go/version"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// recordWait records wait where the code records the duration x: as another
// argument of the same logging call, another attribute beside it, or the
// same observer under a wait label. It follows x through one variable
// (elapsed := time.Since(start)).
func (fx *fixer) recordWait(x inspector.Cursor, wait string, depth int) bool {
	v, waitExpr := fx.wrapped(x, wait)
	if !fx.sees(v.Node().Pos()) || (fx.start != nil && !fx.start.Parent().Contains(v.Node().Pos())) {
		return false
	}
	p := v.Parent()
	switch pn := p.Node().(type) {
	case *ast.CallExpr:
		if code.ArgIndex(pn, v.Node()) < 0 {
			return false
		}
		return fx.recordInCall(p, v, wait, waitExpr)
	case *ast.AssignStmt:
		if depth > 0 || len(pn.Lhs) != 1 || len(pn.Rhs) != 1 {
			return false
		}
		return fx.recordAlias(localVar(fx.pass.TypesInfo, pn.Lhs[0]), p, waitExpr)
	case *ast.ValueSpec:
		if depth > 0 || len(pn.Names) != 1 || len(pn.Values) != 1 {
			return false
		}
		return fx.recordAlias(localVar(fx.pass.TypesInfo, pn.Names[0]), p, waitExpr)
	}
	return false
}

// recordAlias records wait at the first use of the variable a (which holds
// the duration) that records it.
func (fx *fixer) recordAlias(a *types.Var, assign inspector.Cursor, wait string) bool {
	if a == nil {
		return false
	}
	fn := code.EnclosingFunc(assign)
	info := fx.pass.TypesInfo
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if id.Pos() <= assign.Node().End() || info.Uses[id] != a {
			continue
		}
		if as, ok := cur.Parent().Node().(*ast.AssignStmt); ok && slices.Contains(as.Lhs, ast.Expr(id)) {
			return false // reassigned: later uses hold something else
		}
		if fx.recordWait(cur, wait, 1) {
			return true
		}
	}
	return false
}

// wrapped climbs from the duration x through the conversions the code
// applies to it (.Seconds(), float64(…), / time.Millisecond) and returns the
// converted value and the same conversions applied to wait.
func (fx *fixer) wrapped(x inspector.Cursor, wait string) (inspector.Cursor, string) {
	info := fx.pass.TypesInfo
	v := x
climb:
	for {
		p := v.Parent()
		switch pn := p.Node().(type) {
		case *ast.ParenExpr:
			v = p
			continue
		case *ast.SelectorExpr:
			if pn.X != v.Node() || !isDurationMethod(info, pn.Sel) {
				break climb
			}
			call, ok := p.Parent().Node().(*ast.CallExpr)
			if !ok || call.Fun != ast.Expr(pn) {
				break climb
			}
			v = p.Parent()
			continue
		case *ast.CallExpr:
			if tv, ok := info.Types[pn.Fun]; !ok || !tv.IsType() || len(pn.Args) != 1 {
				break climb
			}
			v = p
			continue
		case *ast.BinaryExpr:
			if (pn.Op != token.QUO && pn.Op != token.MUL) || pn.X != v.Node() {
				break climb
			}
			if tv, ok := info.Types[pn.Y]; !ok || tv.Value == nil {
				break climb
			}
			v = p
			continue
		}
		break
	}
	return v, fx.textWith(v.Node(), edits.Replace(x.Node(), wait))
}

func isDurationMethod(info *types.Info, sel *ast.Ident) bool {
	fn, ok := info.Uses[sel].(*types.Func)
	if !ok {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return false
	}
	n, ok := types.Unalias(sig.Recv().Type()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// recordInCall records the wait in the call that takes the duration v:
// printf-style (a verb and an argument), key-value or variadic (a "wait"
// pair), an attribute constructor (a sibling attribute), or an Observe of a
// *Vec with a stage label (a sibling observation).
func (fx *fixer) recordInCall(callCur, v inspector.Cursor, wait, waitExpr string) bool {
	info := fx.pass.TypesInfo
	call := callCur.Node().(*ast.CallExpr)
	sig := signatureOf(info, call)
	if sig == nil {
		return false
	}
	i := code.ArgIndex(call, v.Node())
	if isVariadicAny(sig) && !call.Ellipsis.IsValid() && i >= sig.Params().Len()-1 {
		if fmtIdx, ok := fx.formatIndex(call, sig); ok {
			return fx.addVerb(call, fmtIdx, wait)
		}
		if fx.isPrintfLike(call, sig) {
			// A format that is not a constant, or that indexes its
			// arguments, cannot take one more verb; a "wait" pair would
			// print as %!(EXTRA ...).
			return false
		}
		fx.edits = append(fx.edits, appendArgs(call, `"wait", `+waitExpr))
		return true
	}
	if len(call.Args) == 2 && i == 1 && isStringConst(info, call.Args[0]) {
		outer, ok := callCur.Parent().Node().(*ast.CallExpr)
		if !ok || code.ArgIndex(outer, call) < 0 || outer.Ellipsis.IsValid() {
			return false
		}
		osig := signatureOf(info, outer)
		if osig == nil || !osig.Variadic() || code.ArgIndex(outer, call) < osig.Params().Len()-1 {
			return false
		}
		fx.edits = append(fx.edits, appendArgs(outer, edits.Source(fx.pass, call.Fun)+`("wait", `+waitExpr+`)`))
		return true
	}
	if fn, ok := typeutil.Callee(info, call).(*types.Func); ok && fn.Name() == "Observe" && len(call.Args) == 1 {
		return fx.observeSibling(callCur, v, waitExpr)
	}
	return false
}

// formatIndex returns the index of a printf-style call's format argument, a
// string literal whose verbs match the arguments (so that one more verb and
// one more argument keep them matched).
func (fx *fixer) formatIndex(call *ast.CallExpr, sig *types.Signature) (int, bool) {
	if !fx.isPrintfLike(call, sig) {
		return 0, false
	}
	n := sig.Params().Len()
	lit, ok := ast.Unparen(call.Args[n-2]).(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return 0, false
	}
	tv := fx.pass.TypesInfo.Types[lit]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return 0, false
	}
	if verbs(constant.StringVal(tv.Value)) != len(call.Args)-(n-1) {
		return 0, false
	}
	return n - 2, true
}

// isPrintfLike reports whether call is to a function named ...f whose last
// parameters are a format string and ...any.
func (fx *fixer) isPrintfLike(call *ast.CallExpr, sig *types.Signature) bool {
	fn, ok := typeutil.Callee(fx.pass.TypesInfo, call).(*types.Func)
	n := sig.Params().Len()
	if !ok || !strings.HasSuffix(fn.Name(), "f") || n < 2 {
		return false
	}
	b, ok := sig.Params().At(n - 2).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}

// verbs counts the verbs of a printf format, or returns -1 for explicit
// argument indexes, which an appended verb could not follow.
func verbs(format string) int {
	n := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0123456789.*", format[i]) >= 0 {
			i++
		}
		if i < len(format) && format[i] == '[' {
			return -1
		}
		if i < len(format) && format[i] != '%' {
			n++
		}
	}
	return n
}

// addVerb adds " (wait %v)" to the format (before its final newlines) and
// the wait as the last argument.
func (fx *fixer) addVerb(call *ast.CallExpr, fmtIdx int, wait string) bool {
	lit := ast.Unparen(call.Args[fmtIdx]).(*ast.BasicLit)
	body := lit.Value[1 : len(lit.Value)-1] // between the quotes
	if lit.Value[0] == '"' {
		// A \n escape is a newline unless its backslash is itself escaped.
		for strings.HasSuffix(body, `\n`) && (len(body)-1-len(strings.TrimRight(body[:len(body)-1], `\`)))%2 == 1 {
			body = body[:len(body)-2]
		}
	} else {
		body = strings.TrimRight(body, "\n")
	}
	at := lit.Pos() + 1 + token.Pos(len(body))
	fx.edits = append(fx.edits,
		analysis.TextEdit{Pos: at, End: at, NewText: []byte(" (wait %v)")},
		appendArgs(call, wait))
	return true
}

// appendArgs adds text as further arguments after the last one.
func appendArgs(call *ast.CallExpr, text string) analysis.TextEdit {
	last := call.Args[len(call.Args)-1].End()
	return analysis.TextEdit{Pos: last, End: last, NewText: []byte(", " + text)}
}

// observeSibling records the wait with the same *Vec observer under a stage
// label of "wait": vec.WithLabelValues("run").Observe(d) gains
// vec.WithLabelValues("wait").Observe(w) on the next line.
func (fx *fixer) observeSibling(callCur, v inspector.Cursor, waitExpr string) bool {
	call := callCur.Node().(*ast.CallExpr)
	label, ok := fx.stageLabelValue(call.Fun.(*ast.SelectorExpr).X)
	if !ok {
		return false
	}
	stmt := callCur.Parent()
	if !edits.StartsLine(fx.pass, stmt.Node().Pos()) || edits.EndsLineWithCode(fx.pass, stmt.Node()) {
		return false
	}
	switch s := stmt.Node().(type) {
	case *ast.ExprStmt:
		if s.X != ast.Expr(call) {
			return false
		}
	case *ast.DeferStmt:
		if s.Call != call {
			return false
		}
	default:
		return false
	}
	text := fx.textWith(stmt.Node(), edits.Replace(label, `"wait"`), edits.Replace(v.Node(), waitExpr))
	fx.edits = append(fx.edits, edits.InsertAfter(fx.pass, stmt.Node(), text))
	return true
}

// observeWait returns the statement that records wait with the observer o
// of a Prometheus timer under a stage label of "wait".
func (fx *fixer) observeWait(o ast.Expr, wait string) (string, bool) {
	label, ok := fx.stageLabelValue(o)
	if !ok || !edits.LocalsInScopeAt(fx.pass.TypesInfo, o, fx.ip.pos()) {
		return "", false
	}
	return fx.textWith(o, edits.Replace(label, `"wait"`)) + ".Observe(" + wait + ".Seconds())", true
}

// stageLabelValue returns, for an observer vec.WithLabelValues(…) or
// vec.With(prometheus.Labels{…}) of a *Vec whose labels include a stage (or
// phase, or step), the string literal that gives the stage.
func (fx *fixer) stageLabelValue(obs ast.Expr) (*ast.BasicLit, bool) {
	info := fx.pass.TypesInfo
	call, ok := ast.Unparen(obs).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	idx, name := fx.c.stageLabel(code.Var(info, sel.X))
	if idx < 0 {
		return nil, false
	}
	var value ast.Expr
	switch sel.Sel.Name {
	case "WithLabelValues":
		if idx < len(call.Args) && !call.Ellipsis.IsValid() {
			value = call.Args[idx]
		}
	case "With":
		if len(call.Args) == 1 {
			if cl, ok := ast.Unparen(call.Args[0]).(*ast.CompositeLit); ok {
				for _, elt := range cl.Elts {
					if kv, ok := elt.(*ast.KeyValueExpr); ok && stringConst(info, kv.Key) == name {
						value = kv.Value
					}
				}
			}
		}
	}
	lit, ok := value.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING || stringConst(info, lit) == "wait" {
		return nil, false
	}
	return lit, true
}

// stageLabel returns the index and name of the stage label of the *Vec held
// in vec, from its constructor in this package, or -1.
func (c *checker) stageLabel(vec *types.Var) (int, string) {
	if vec == nil {
		return -1, ""
	}
	if c.stages == nil {
		c.stages = make(map[*types.Var][]string)
		insp := c.insp
		for cur := range insp.Root().Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
			if !ok || fn.Pkg() == nil || !strings.HasPrefix(fn.Pkg().Path(), timing.PrometheusPath) ||
				!strings.HasPrefix(fn.Name(), "New") || !strings.HasSuffix(fn.Name(), "Vec") || len(call.Args) < 2 {
				continue
			}
			cl, ok := ast.Unparen(call.Args[1]).(*ast.CompositeLit)
			if !ok {
				continue
			}
			if v := code.AssignedTo(c.pass.TypesInfo, cur); v != nil {
				var labels []string
				for _, e := range cl.Elts {
					labels = append(labels, stringConst(c.pass.TypesInfo, e))
				}
				c.stages[v] = labels
			}
		}
	}
	for i, l := range c.stages[vec] {
		if knowledge.StageLabels.Has(strings.ToLower(l)) {
			return i, l
		}
	}
	return -1, ""
}

// sibling returns a call like the recorder call that measures from
// startText under a wait key: metrics.MeasureSince([]string{"api", "fetch",
// "wait"}, start) beside metrics.MeasureSince([]string{"api", "fetch"}, …).
// It runs at the insertion point, so what it refers to must be visible there.
func (fx *fixer) sibling(call *ast.CallExpr, startIdx int, startText string) (string, bool) {
	info := fx.pass.TypesInfo
	if startIdx < 0 {
		return "", false
	}
	key := -1
	for j, a := range call.Args {
		if j != startIdx && (isString(info.TypeOf(a)) || isStringSlice(info.TypeOf(a))) {
			key = j
			break
		}
	}
	if key < 0 {
		return "", false
	}
	for j, a := range call.Args {
		if j != startIdx && !edits.LocalsInScopeAt(fx.pass.TypesInfo, a, fx.ip.pos()) {
			return "", false
		}
	}
	if !edits.LocalsInScopeAt(fx.pass.TypesInfo, call.Fun, fx.ip.pos()) {
		return "", false
	}
	var keyEdit analysis.TextEdit
	a := call.Args[key]
	switch k := ast.Unparen(a).(type) {
	case *ast.CompositeLit:
		if len(k.Elts) == 0 {
			return "", false
		}
		end := k.Elts[len(k.Elts)-1].End()
		keyEdit = analysis.TextEdit{Pos: end, End: end, NewText: []byte(`, "wait"`)}
	case *ast.BasicLit:
		if k.Kind != token.STRING || !strings.HasPrefix(k.Value, `"`) {
			return "", false
		}
		keyEdit = analysis.TextEdit{Pos: k.End() - 1, End: k.End() - 1, NewText: []byte(".wait")}
	case *ast.Ident:
		if isString(info.TypeOf(a)) {
			keyEdit = edits.Replace(a, k.Name+` + ".wait"`)
		} else {
			keyEdit = edits.Replace(a, "append("+k.Name+"[:len("+k.Name+"):len("+k.Name+")], \"wait\")")
		}
	default:
		if !isString(info.TypeOf(a)) {
			return "", false
		}
		keyEdit = edits.Replace(a, "("+edits.Source(fx.pass, a)+`) + ".wait"`)
	}
	return fx.textWith(call, keyEdit, edits.Replace(call.Args[startIdx], startText)), true
}

// fallback records the wait where the code has no recorder that can carry a
// second figure: a slog.Debug record at the insertion point, silent by
// default, and a place to put the service's own wait metric.
func (fx *fixer) fallback(wait string) bool {
	if v := fx.pass.TypesInfo.FileVersions[fx.file]; v != "" && version.Compare(v, "go1.21") < 0 {
		return fx.fail("no recorder here can carry the wait, and the file is older than Go 1.21, which has log/slog")
	}
	// Another package imported as slog (golang.org/x/exp/slog), or a
	// declaration called slog in the package or in scope here, leaves no
	// name for log/slog.
	name, imp, ok := edits.AddImport(fx.pass, fx.file, "log/slog", fx.ip.pos())
	if !ok {
		return fx.fail("no recorder here can carry the wait, and the name slog means something else here")
	}
	fx.imports = append(fx.imports, imp...)
	msg := "waited for admission"
	if fx.retry != "" {
		msg = "waited between attempts"
	}
	fx.lines = append(fx.lines, name+`.Debug("`+msg+`", "wait", `+wait+`)`)
	return true
}
