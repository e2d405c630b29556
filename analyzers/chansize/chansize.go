package chansize

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"math/bits"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/consts"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
)

// Analyzer reports oversized channel buffers.
var Analyzer = &analysis.Analyzer{
	Name:     "chansize",
	Doc:      doc,
	URL:      report.URL("chansize"),
	Requires: []*analysis.Analyzer{inspect.Analyzer, report.Analyzer},
	Run:      run,
}

//go:embed doc.go
var docFile string

var doc = report.Doc(docFile, "chansize")

var (
	maxBytes int64 = 1 << 20
	maxCount int64 = 65536
)

func init() {
	report.AddWhyFlag(&Analyzer.Flags)
	Analyzer.Flags.Int64Var(&maxBytes, "maxbytes", maxBytes, "report channel buffers whose elements take at least this many bytes")
	Analyzer.Flags.Int64Var(&maxCount, "max", maxCount, "report channel buffers of at least this many (non-zero-size) elements")
}

// fixedBound caps the capacity the fix proposes: a buffer of a thousand items
// already hides seconds of overload at most consumer rates.
const fixedBound = 1024

// A finding is one oversized make(chan T, N).
type finding struct {
	call     *ast.CallExpr
	capacity int64
	elemSize int64 // -1 when unknown (type parameters)
	pointery bool
	where    string // "", " per loop iteration", " per request"
}

func run(pass *analysis.Pass) (any, error) {
	rep := report.New(pass)
	defer rep.Finish()

	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	var found []finding
	for file := range insp.Root().Children() {
		if rep.Skip(file.Node().(*ast.File)) {
			continue
		}
		for cur := range file.Preorder((*ast.CallExpr)(nil)) {
			if f, ok := oversized(pass, rep, cur); ok {
				found = append(found, f)
			}
		}
	}
	if len(found) == 0 {
		return nil, nil
	}

	bounds := constantBounds(pass, rep, found)
	for _, f := range found {
		rep.Report(diagnostic(pass, f, bounds))
	}
	return nil, nil
}

// oversized reports whether the call at cur is a make(chan T, N) over a
// limit; a buffered make(chan T, N) that is not is silenced by its rule.
func oversized(pass *analysis.Pass, rep *report.Reporter, cur inspector.Cursor) (finding, bool) {
	call := cur.Node().(*ast.CallExpr)
	if !isMakeChan(pass.TypesInfo, call) {
		return finding{}, false
	}
	if len(call.Args) != 2 {
		rep.Silence(call, ruleUnbuffered)
		return finding{}, false
	}
	capacity, ok := consts.Int(pass.TypesInfo, call.Args[1])
	if ok && capacity == 0 {
		rep.Silence(call, ruleUnbuffered)
		return finding{}, false
	}
	if !ok {
		rep.Silence(call, ruleNotConstant) // len(items), NumCPU(), config: sized by something real
		return finding{}, false
	}
	elem := pass.TypesInfo.TypeOf(call.Args[0]).Underlying().(*types.Chan).Elem()
	size := sizeof(pass, elem)
	if size == 0 {
		rep.Silence(call, ruleZeroSize) // chan struct{}: the buffer holds no data
		return finding{}, false
	}
	overBytes := size > 0 && capacity >= (maxBytes+size-1)/size
	if !overBytes && capacity < maxCount {
		rep.Silence(call, ruleWithinLimits)
		return finding{}, false
	}
	return finding{
		call:     call,
		capacity: capacity,
		elemSize: size,
		pointery: isPointerLike(elem),
		where:    multiplier(pass, cur),
	}, true
}

func isMakeChan(info *types.Info, call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != "make" {
		return false
	}
	if len(call.Args) == 0 {
		return false
	}
	t := info.TypeOf(call.Args[0])
	if t == nil {
		return false
	}
	_, ok = t.Underlying().(*types.Chan)
	return ok
}

// sizeof returns the size of t in bytes, or -1 when it depends on a type
// parameter (directly, or through a struct or array, including a type
// declared inside a generic function).
func sizeof(pass *analysis.Pass, t types.Type) (size int64) {
	if dependsOnTypeParam(t, make(map[types.Type]bool)) {
		return -1
	}
	sizes := pass.TypesSizes
	if sizes == nil {
		sizes = types.SizesFor("gc", "amd64")
	}
	// go/types asserts on shapes it does not expect (invalid types in a
	// package with errors); a finding is not worth a crash.
	defer func() {
		if recover() != nil {
			size = -1
		}
	}()
	return sizes.Sizeof(t)
}

// dependsOnTypeParam reports whether the size of t depends on a type parameter.
func dependsOnTypeParam(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Array:
		return dependsOnTypeParam(t.Elem(), seen)
	case *types.Struct:
		for i := range t.NumFields() {
			if dependsOnTypeParam(t.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Named:
		if args := t.TypeArgs(); args != nil {
			for i := range args.Len() {
				if dependsOnTypeParam(args.At(i), seen) {
					return true
				}
			}
		}
		return dependsOnTypeParam(t.Underlying(), seen)
	}
	return false
}

// isPointerLike reports whether elements of type t refer to memory the
// channel's own buffer does not count.
func isPointerLike(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return true
	case *types.Basic:
		return u.Info()&types.IsString != 0 || u.Kind() == types.UnsafePointer
	}
	return false
}

// multiplier says how often the make runs, when that multiplies its cost:
// in a loop of its own function, or in a function that handles HTTP requests.
func multiplier(pass *analysis.Pass, cur inspector.Cursor) string {
	for enc := range cur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		switch n := enc.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return " per loop iteration"
		case *ast.FuncLit:
			if isHTTPHandler(pass.TypesInfo, n.Type) {
				return " per request"
			}
			return ""
		case *ast.FuncDecl:
			if isHTTPHandler(pass.TypesInfo, n.Type) {
				return " per request"
			}
			return ""
		}
	}
	return ""
}

// isHTTPHandler reports whether a function has the parameters of an
// http.HandlerFunc.
func isHTTPHandler(info *types.Info, ft *ast.FuncType) bool {
	var params []types.Type
	for _, field := range ft.Params.List {
		t := info.TypeOf(field.Type)
		for range max(1, len(field.Names)) {
			params = append(params, t)
		}
	}
	if len(params) != 2 {
		return false
	}
	req, ok := types.Unalias(params[1]).(*types.Pointer)
	return code.IsExactly(params[0], "net/http", "ResponseWriter") && ok && code.IsExactly(req.Elem(), "net/http", "Request")
}

// fitBound is the capacity the fix proposes for elements of the given size:
// the largest power of two up to fixedBound under both limits.
func fitBound(elemSize int64) int64 {
	limit := min(fixedBound, maxCount-1)
	if elemSize > 0 {
		limit = min(limit, (maxBytes-1)/elemSize)
	}
	if limit < 1 {
		return 1
	}
	return int64(1) << (bits.Len64(uint64(limit)) - 1)
}

// constantBounds decides, for each package constant that sizes flagged
// buffers and nothing else, the value its declaration should get: the bound
// that fits the largest element among its uses.
func constantBounds(pass *analysis.Pass, rep *report.Reporter, found []finding) map[*types.Const]int64 {
	bounds := make(map[*types.Const]int64)
	capArgs := make(map[*ast.Ident]bool)
	for _, f := range found {
		c := consts.Named(pass.TypesInfo, f.call.Args[1])
		// An exported constant may size other packages' buffers, or mean
		// something else there: its declaration stays. So does one declared
		// in a generated (or test) file, which the fix never edits.
		if c == nil || c.Exported() || c.Pkg() != pass.Pkg || c.Parent() != pass.Pkg.Scope() || rep.SkipPos(c.Pos()) || valueExpr(pass, c) == nil || !ownsValue(pass, c) {
			continue
		}
		capArgs[capIdent(f.call.Args[1])] = true
		b := fitBound(f.elemSize)
		if old, ok := bounds[c]; !ok || b < old {
			bounds[c] = b
		}
	}
	if len(bounds) == 0 {
		return bounds
	}
	// A constant used anywhere but as a flagged capacity keeps its value,
	// in the analyzed files or in files this build leaves out (tests,
	// another platform's).
	for id, obj := range pass.TypesInfo.Uses {
		if c, ok := obj.(*types.Const); ok && !capArgs[id] {
			delete(bounds, c)
		}
	}
	for c := range bounds {
		if edits.MentionedElsewhere(pass, c.Pos(), c.Name()) {
			delete(bounds, c)
		}
	}
	return bounds
}

func capIdent(e ast.Expr) *ast.Ident {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e
	case *ast.SelectorExpr:
		return e.Sel
	}
	return nil
}

// valueExpr returns the expression that gives package constant c its value,
// or nil when the declaration has none of its own (iota repetition).
func valueExpr(pass *analysis.Pass, c *types.Const) ast.Expr {
	for _, f := range pass.Files {
		if c.Pos() < f.FileStart || c.Pos() > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			gen, ok := d.(*ast.GenDecl)
			if !ok || gen.Tok != token.CONST || c.Pos() < gen.Pos() || c.Pos() > gen.End() {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if name.Pos() == c.Pos() && len(vs.Values) == len(vs.Names) {
						return vs.Values[i]
					}
				}
			}
		}
	}
	return nil
}

// ownsValue reports whether editing the expression that gives c its value
// changes c alone and leaves the file compiling: no later spec of its const
// block repeats the expression (an omitted value repeats the last one, so
// an edit would change those constants too), and the expression names no
// imported package (its only use in the file would go with it).
func ownsValue(pass *analysis.Pass, c *types.Const) bool {
	value := valueExpr(pass, c)
	names := false
	ast.Inspect(value, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if _, ok := pass.TypesInfo.Uses[id].(*types.PkgName); ok {
				names = true
			}
		}
		return !names
	})
	if names {
		return false
	}
	file := edits.EnclosingFile(pass.Files, c.Pos())
	if file == nil {
		return false
	}
	gen, ok := edits.EnclosingDecl(file, c.Pos()).(*ast.GenDecl)
	if !ok {
		return false
	}
	after := false
	for _, spec := range gen.Specs {
		vs := spec.(*ast.ValueSpec)
		switch {
		case vs.Pos() <= c.Pos() && c.Pos() < vs.End():
			after = true
		case after && len(vs.Values) == 0:
			return false // repeats the value
		case after:
			return true
		}
	}
	return true
}

func diagnostic(pass *analysis.Pass, f finding, bounds map[*types.Const]int64) analysis.Diagnostic {
	kind := "count"
	if f.elemSize > 0 && f.capacity >= (maxBytes+f.elemSize-1)/f.elemSize {
		kind = "memory"
	}
	var what string
	switch {
	case f.elemSize < 0:
		what = fmt.Sprintf("channel buffer of %d items%s", f.capacity, f.where)
	case f.pointery:
		what = fmt.Sprintf("channel buffer of %d items of %s (up to %s%s, plus what each element references)",
			f.capacity, formatBytes(f.elemSize), formatBytes(f.capacity*f.elemSize), f.where)
	default:
		what = fmt.Sprintf("channel buffer of %d items of %s (up to %s%s)",
			f.capacity, formatBytes(f.elemSize), formatBytes(f.capacity*f.elemSize), f.where)
	}

	d := analysis.Diagnostic{
		Pos:      f.call.Pos(),
		End:      f.call.End(),
		Category: kind,
		Message:  what + " stores overload instead of pushing back; bound it by acceptable wait × consumer rate",
	}
	edit, msg, ok := capacityEdit(pass, f, bounds)
	if !ok {
		// The constant keeps its meaning elsewhere and min is not available
		// to bound it here: say what the fix would have done.
		d.Message += "; by hand, write that bound in place of " + edits.Source(pass, f.call.Args[1]) + " (min, which the fix uses, is not available in this file)"
		return d
	}
	// The new text can be narrower or wider than the old: realign what
	// gofmt would realign (trailing comments in a const or var block).
	es, ok := edits.Finish(pass, []analysis.TextEdit{edit})
	if !ok {
		es = []analysis.TextEdit{edit}
	}
	d.SuggestedFixes = []analysis.SuggestedFix{edits.Fix(msg, es...)}
	return d
}

// Fix messages, one per way of bounding the buffer.
const (
	fixLiteral  = "Bound the buffer within the limits; derive the real bound as acceptable wait × consumer rate"
	fixConstant = "Bound the constant within the limits; derive the real bound as acceptable wait × consumer rate"
	fixMin      = "Cap the constant with min at a bound within the limits, keeping the constant; derive the real bound as acceptable wait × consumer rate"
)

// capacityEdit returns the edit that bounds the buffer of f, and its
// message: the declaration of a constant that sizes only flagged buffers
// gets the bound; a capacity that names any other constant is capped with
// min(Const, N), so the constant stays used and says where the number came
// from; a literal capacity is replaced. It reports false when the capacity
// names a constant and min is not available where it is written.
func capacityEdit(pass *analysis.Pass, f finding, bounds map[*types.Const]int64) (analysis.TextEdit, string, bool) {
	capacity := f.call.Args[1]
	if c := consts.Named(pass.TypesInfo, capacity); c != nil && bounds[c] > 0 {
		return edits.Replace(valueExpr(pass, c), fmt.Sprint(bounds[c])), fixConstant, true
	}
	bound := fmt.Sprint(fitBound(f.elemSize))
	if !namesConst(pass.TypesInfo, capacity) {
		return edits.Replace(capacity, bound), fixLiteral, true
	}
	if !builtinMinAt(pass, capacity) {
		return analysis.TextEdit{}, "", false
	}
	return edits.Replace(capacity, "min("+edits.Source(pass, capacity)+", "+bound+")"), fixMin, true
}

// namesConst reports whether expr refers to a declared constant (not iota,
// true or false): replacing it with a number would hide where the size came
// from, and could leave an import unused.
func namesConst(info *types.Info, expr ast.Expr) bool {
	return code.AnyNode(expr, nil, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if c, ok := info.Uses[id].(*types.Const); ok && c.Pkg() != nil {
				return true
			}
		}
		return false
	})
}

// builtinMinAt reports whether min at pos is the builtin (Go 1.21 and later,
// not shadowed).
func builtinMinAt(pass *analysis.Pass, expr ast.Expr) bool {
	file := edits.EnclosingFile(pass.Files, expr.Pos())
	if file == nil {
		return false
	}
	if v := pass.TypesInfo.FileVersions[file]; v != "" && version.Compare(v, "go1.21") < 0 {
		return false
	}
	scope := pass.Pkg.Scope().Innermost(expr.Pos())
	if scope == nil {
		return false
	}
	_, obj := scope.LookupParent("min", expr.Pos())
	_, ok := obj.(*types.Builtin)
	return ok
}

// formatBytes prints n in the largest binary unit that keeps it at least 1,
// with one decimal when that decimal is not zero: 10 KiB, 9.5 GiB.
func formatBytes(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	v, u := float64(n)/1024, 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	s := fmt.Sprintf("%.1f", v)
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		s = s[:len(s)-2]
	}
	return s + " " + units[u:u+1] + "iB"
}
