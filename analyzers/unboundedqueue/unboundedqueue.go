package unboundedqueue

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
)

// Analyzer reports queues that grow without a bound.
var Analyzer = &analysis.Analyzer{
	Name:     "unboundedqueue",
	Doc:      doc,
	URL:      report.URL("unboundedqueue"),
	Requires: []*analysis.Analyzer{inspect.Analyzer, report.Analyzer, admission.Analyzer},
	Run:      run,
}

//go:embed doc.go
var docFile string

var doc = report.Doc(docFile, "unboundedqueue")

var (
	queueBound int64 = 1024
	inFlight   int64 = 64
	acquires         = calls.New("-unboundedqueue.acquire")
)

func init() {
	Analyzer.Flags.Int64Var(&queueBound, "bound", queueBound, "length limit the fix declares for a slice or list queue")
	Analyzer.Flags.Int64Var(&inFlight, "inflight", inFlight, "number of goroutines in flight the fix's semaphore allows")
	Analyzer.Flags.Var(acquires, "acquire", "further blocking acquire calls, comma-separated: pkg/path.Func, pkg/path.Type.Method or (*pkg/path.Type).Method")
}

// A checker holds what one pass has learned, shared by the kinds.
type checker struct {
	pass *analysis.Pass
	rep  *report.Reporter
	insp *inspector.Inspector
	res  *admission.Result
	adm  *admission.Finder

	// Candidates from the one walk over the package.
	goStmts []inspector.Cursor // every go statement
	loops   []inspector.Cursor // every for and range statement
	reslice []inspector.Cursor // every x[k:] with a low bound and no high bound
	calls   []inspector.Cursor // method calls on container/list values and slices.Delete
	assigns []inspector.Cursor // plain assignments (q = …) and delete(m, k) statements

	// Built on first use.
	decls     map[*types.Func]inspector.Cursor
	goTargets map[*types.Func]bool
	callSites map[*types.Func][]inspector.Cursor
	sorted    map[*types.Var]bool

	persend  map[*ast.GoStmt]bool              // go statements reported as goroutinepersend
	pumped   map[ast.Node]bool                 // appends reported as the buffer of a pump
	stores   []indexStore                      // items[idx] = x on shared maps and slices
	deletes  map[*types.Var][]inspector.Cursor // delete(items, k) statements, by map
	siblings []siblingBound                    // the package's bounded fan-outs, built on first use
	findings []*finding
	declared map[ast.Decl][]declaration
	names    *edits.Names
}

func run(pass *analysis.Pass) (any, error) {
	rep := report.New(pass)
	defer rep.Finish()
	acquires.Verify(pass.Pkg)

	c := &checker{
		pass:     pass,
		rep:      rep,
		insp:     pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		persend:  make(map[*ast.GoStmt]bool),
		pumped:   make(map[ast.Node]bool),
		deletes:  make(map[*types.Var][]inspector.Cursor),
		declared: make(map[ast.Decl][]declaration),
		names:    edits.NewNames(pass),
	}
	c.res = pass.ResultOf[admission.Analyzer].(*admission.Result)
	if !c.collect() {
		return nil, nil // no go statement, no front re-slice, no list, no reset: nothing can queue
	}
	c.adm = c.res.Finder(admission.Options{Extra: acquires})

	c.goroutinesPerSend()
	c.goroutinesPerItem()
	c.fanOuts()
	c.pumps()
	c.sliceFIFOs()
	c.indexFIFOs()
	c.listFIFOs()

	c.reportAll()
	return nil, nil
}

// collect gathers, in one walk over the production files, the nodes any kind
// starts from, and reports whether there is anything to look at.
func (c *checker) collect() bool {
	// Calls matter for lists, slices.Delete and deques; the deque types are
	// of any package, so any import may bring one.
	kinds := []ast.Node{(*ast.GoStmt)(nil), (*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.SliceExpr)(nil), (*ast.AssignStmt)(nil), (*ast.ExprStmt)(nil), (*ast.CallExpr)(nil)}
	shaped := false
	for file := range c.insp.Root().Children() {
		if c.rep.Skip(file.Node().(*ast.File)) {
			continue
		}
		for cur := range file.Preorder(kinds...) {
			switch n := cur.Node().(type) {
			case *ast.GoStmt:
				c.goStmts = append(c.goStmts, cur)
			case *ast.ForStmt, *ast.RangeStmt:
				c.loops = append(c.loops, cur)
			case *ast.SliceExpr:
				if n.Low != nil && n.High == nil && !n.Slice3 {
					c.reslice = append(c.reslice, cur)
				}
			case *ast.CallExpr:
				if isListOrDelete(c.pass.TypesInfo, n) {
					c.calls = append(c.calls, cur)
				}
			case *ast.AssignStmt:
				if n.Tok == token.ASSIGN {
					c.assigns = append(c.assigns, cur)
					if _, ok := c.indexStoreAt(cur); ok {
						shaped = true // a map or ring queue needs no loop or re-slice
					}
					if c.resetsQueue(n) {
						shaped = true // a queue taken whole and reset needs none either
					}
				}
			case *ast.ExprStmt:
				if call, ok := n.X.(*ast.CallExpr); ok && code.BuiltinName(c.pass.TypesInfo, call) == "delete" {
					c.assigns = append(c.assigns, cur)
				}
			}
		}
	}
	// A stream loop needs a go statement or a Go method call inside it; a
	// package without go statements still has loops, so only a go statement,
	// a re-slice or a list call makes the package worth a closer look, and
	// loops matter only with a spawn, which needs "go" or errgroup/sync.
	spawns := len(c.goStmts) > 0 || code.Imports(c.pass.Pkg, "golang.org/x/sync/errgroup") || code.Imports(c.pass.Pkg, "sync")
	if !spawns {
		c.loops = nil
	}
	return len(c.goStmts) > 0 || len(c.loops) > 0 || len(c.reslice) > 0 || len(c.calls) > 0 || shaped
}

// resetsQueue reports whether the assignment a empties a slice field or
// package variable: q.items = nil, p.frame = message.NewFrame(n).
func (c *checker) resetsQueue(a *ast.AssignStmt) bool {
	if len(a.Lhs) != len(a.Rhs) {
		return false
	}
	for i, lhs := range a.Lhs {
		if c.isEmptySlice(a.Rhs[i]) && c.isSliceQueue(code.Var(c.pass.TypesInfo, lhs)) {
			return true
		}
	}
	return false
}

// isListOrDelete reports whether call is a method call on a container/list
// List, a push or pop of a deque, or a call to slices.Delete: the calls the
// FIFO kinds look at.
func isListOrDelete(info *types.Info, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	switch sel.Sel.Name {
	case "PushBack", "PushFront", "PopFront", "PopBack", "Remove", "Delete", "Front", "Back", "Len", "Init":
	default:
		return false // most calls: no type lookup
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "container/list":
		return isListType(code.Recv(fn))
	case "slices":
		return fn.Name() == "Delete"
	}
	return isDequeType(code.Recv(fn))
}

// isDequeType reports whether t, or what it points to, is a double-ended
// queue of some package (gammazero/deque, a home-made generic one): a named
// type with Len() int and, for one end, a push and, for the other, a pop
// that returns the item, PushBack beside PopFront or PushFront beside
// PopBack. It holds as many items as are pushed: nothing bounds it.
func isDequeType(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	has := func(name string, params, results int) bool {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(n), true, n.Obj().Pkg(), name)
		fn, ok := obj.(*types.Func)
		return ok && fn.Signature().Params().Len() == params && fn.Signature().Results().Len() == results
	}
	if !has("Len", 0, 1) {
		return false
	}
	backToFront := has("PushBack", 1, 0) && has("PopFront", 0, 1)
	frontToBack := has("PushFront", 1, 0) && has("PopBack", 0, 1)
	if !backToFront && !frontToBack {
		return false
	}
	// A ring of fixed capacity has the same methods and overwrites the
	// oldest: its name says so.
	name := strings.ToLower(n.Obj().Name())
	for _, bounded := range []string{"ring", "bounded", "fixed", "circular", "capped"} {
		if strings.Contains(name, bounded) {
			return false
		}
	}
	return true
}

// isListType reports whether t is container/list.List or a pointer to it.
func isListType(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "container/list" && n.Obj().Name() == "List"
}

// isSharedVar reports whether v is state that outlives a call: a struct field
// or a package-level variable. Local queues (a BFS worklist) are not an
// overload hazard: they die with the call that fills them.
func (c *checker) isSharedVar(v *types.Var) bool {
	if v == nil {
		return false
	}
	return v.IsField() || (v.Pkg() == c.pass.Pkg && v.Parent() == c.pass.Pkg.Scope())
}

// funcDecl returns the cursor of the declaration of fn in this package.
func (c *checker) funcDecl(fn *types.Func) (inspector.Cursor, bool) {
	if c.decls == nil {
		c.decls = make(map[*types.Func]inspector.Cursor)
		for file := range c.insp.Root().Children() {
			for d := range file.Children() {
				fd, ok := d.Node().(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				if obj, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					c.decls[obj] = d
				}
			}
		}
	}
	if fn == nil {
		return inspector.Cursor{}, false
	}
	d, ok := c.decls[fn.Origin()]
	return d, ok
}

// callee returns the function or method call calls, mapped to its origin for
// generic functions, or nil.
func (c *checker) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// runsConcurrently reports whether the function at fn runs in a goroutine of
// its own: a literal started by go or handed to a Go method, or a declared
// function some go statement starts.
func (c *checker) runsConcurrently(fn inspector.Cursor) bool {
	for f := range fn.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch n := f.Node().(type) {
		case *ast.FuncLit:
			if code.IsSpawnedLit(f) {
				return true
			}
		case *ast.FuncDecl:
			obj, _ := c.pass.TypesInfo.Defs[n.Name].(*types.Func)
			return obj != nil && c.isGoTarget(obj)
		}
	}
	return false
}

// isGoTarget reports whether some go statement of the package starts fn.
func (c *checker) isGoTarget(fn *types.Func) bool {
	if c.goTargets == nil {
		c.goTargets = make(map[*types.Func]bool)
		for _, g := range c.goStmts {
			if f := c.callee(g.Node().(*ast.GoStmt).Call); f != nil {
				c.goTargets[f] = true
			}
		}
	}
	return c.goTargets[fn.Origin()]
}

// callersOf returns the call sites of fn in the production files.
func (c *checker) callersOf(fn *types.Func) []inspector.Cursor {
	c.indexCalls()
	return c.callSites[fn.Origin()]
}

// isSorted reports whether the package sorts v somewhere (sort.Slice(v, …),
// slices.SortFunc(v, …), sort.Sort(byTime(v))): a sorted list is a timer or
// priority list, not a FIFO.
func (c *checker) isSorted(v *types.Var) bool {
	c.indexCalls()
	return c.sorted[v]
}

// indexCalls walks the calls of the production files once, recording the
// call sites of this package's functions and the variables sorted in place.
func (c *checker) indexCalls() {
	if c.callSites != nil {
		return
	}
	c.callSites = make(map[*types.Func][]inspector.Cursor)
	c.sorted = make(map[*types.Var]bool)
	for file := range c.insp.Root().Children() {
		if c.rep.Skip(file.Node().(*ast.File)) {
			continue
		}
		for cur := range file.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			f := c.callee(call)
			if f == nil || f.Pkg() == nil {
				continue
			}
			if f.Pkg() == c.pass.Pkg {
				c.callSites[f] = append(c.callSites[f], cur)
			}
			if isSortFunc(f) && len(call.Args) > 0 {
				arg := ast.Unparen(call.Args[0])
				if conv, ok := arg.(*ast.CallExpr); ok && len(conv.Args) == 1 {
					if tv, ok := c.pass.TypesInfo.Types[conv.Fun]; ok && tv.IsType() {
						arg = conv.Args[0] // sort.Sort(byTime(q))
					}
				}
				if v := code.Var(c.pass.TypesInfo, arg); v != nil {
					c.sorted[v] = true
				}
			}
		}
	}
}

// isSortFunc reports whether fn sorts its first argument in place.
func isSortFunc(fn *types.Func) bool {
	switch fn.Pkg().Path() {
	case "sort":
		switch fn.Name() {
		case "Slice", "SliceStable", "Sort", "Stable":
			return true
		}
	case "slices":
		return strings.HasPrefix(fn.Name(), "Sort")
	}
	return false
}

// holdsLock reports whether the function at fn takes a sync mutex or uses a
// sync.Cond: its state is shared with other goroutines.
func (c *checker) holdsLock(fn inspector.Cursor) bool {
	for cur := range fn.Preorder((*ast.CallExpr)(nil)) {
		if isSyncCall(c.callee(cur.Node().(*ast.CallExpr)), "Lock", "RLock", "Wait", "Signal", "Broadcast") {
			return true
		}
	}
	return false
}

// isSyncCall reports whether fn is one of the named methods of sync.Mutex,
// sync.RWMutex, sync.Cond or sync.Locker (a Cond's L).
func isSyncCall(fn *types.Func, names ...string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	t := code.Recv(fn)
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	switch n.Obj().Name() {
	case "Mutex", "RWMutex", "Cond", "Locker":
	default:
		return false
	}
	for _, name := range names {
		if fn.Name() == name {
			return true
		}
	}
	return false
}

// funcName names the function at fn for a message: "worker",
// "(*Server).drain", or "a function literal in (*Server).Start".
func (c *checker) funcName(fn inspector.Cursor) string {
	if _, ok := fn.Node().(*ast.FuncLit); ok {
		for f := range fn.Enclosing((*ast.FuncDecl)(nil)) {
			return "a function literal in " + c.funcName(f)
		}
		return "a function literal"
	}
	decl := fn.Node().(*ast.FuncDecl)
	if decl.Recv == nil || len(decl.Recv.List) == 0 {
		return decl.Name.Name
	}
	recv := decl.Recv.List[0].Type
	star := ""
	if s, ok := recv.(*ast.StarExpr); ok {
		star, recv = "*", s.X
	}
	switch r := recv.(type) {
	case *ast.IndexExpr:
		recv = r.X
	case *ast.IndexListExpr:
		recv = r.X
	}
	if id, ok := recv.(*ast.Ident); ok {
		if star != "" {
			return "(*" + id.Name + ")." + decl.Name.Name
		}
		return id.Name + "." + decl.Name.Name
	}
	return decl.Name.Name
}

// startsLine reports whether pos is the first non-blank character of its
// line, so that a statement can be inserted on a line of its own before it.
func (c *checker) startsLine(pos token.Pos) bool {
	tf := c.pass.Fset.File(pos)
	if tf == nil {
		return false
	}
	content, err := edits.FileContent(c.pass, tf)
	if err != nil {
		return false
	}
	start, off := tf.Offset(tf.LineStart(tf.Line(pos))), tf.Offset(pos)
	if off > len(content) {
		return false
	}
	return strings.TrimLeft(string(content[start:off]), " \t") == ""
}
