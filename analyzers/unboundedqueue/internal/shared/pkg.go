// Package shared holds what the two halves of the unboundedqueue check both
// use: the package being analyzed (its pass, reporter, admission result,
// names allocator and declarations index), the finding a kind builds, and
// the syntax and edit helpers both halves call.
package shared

import (
	"cmp"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
)

// A Pkg is what one pass over a package has learned that both halves of the
// check use: it is built once by the analyzer's run and handed to each half.
type Pkg struct {
	Pass  *analysis.Pass
	Rep   *report.Reporter
	Insp  *inspector.Inspector
	Res   *admission.Result
	Adm   *admission.Finder // nil until the run has candidates
	Names *edits.Names

	GoStmts []inspector.Cursor // every go statement of the production files

	// Built on first use.
	goTargets map[*types.Func]bool
	callSites map[*types.Func][]inspector.Cursor
	sorted    map[*types.Var]bool
}

// IsSharedVar reports whether v is state that outlives a call: a struct field
// or a package-level variable. Local queues (a BFS worklist) are not an
// overload hazard: they die with the call that fills them.
func (c *Pkg) IsSharedVar(v *types.Var) bool {
	if v == nil {
		return false
	}
	return v.IsField() || (v.Pkg() == c.Pass.Pkg && v.Parent() == c.Pass.Pkg.Scope())
}

// Callee returns the function or method call calls, mapped to its origin for
// generic functions, or nil.
func (c *Pkg) Callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(c.Pass.TypesInfo, call).(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// RunsConcurrently reports whether the function at fn runs in a goroutine of
// its own: a literal started by go or handed to a Go method, or a declared
// function some go statement starts.
func (c *Pkg) RunsConcurrently(fn inspector.Cursor) bool {
	return code.InGoroutine(c.Pass.TypesInfo, fn, c.isGoTarget)
}

// isGoTarget reports whether some go statement of the package starts fn.
func (c *Pkg) isGoTarget(fn *types.Func) bool {
	if c.goTargets == nil {
		c.goTargets = make(map[*types.Func]bool)
		for _, g := range c.GoStmts {
			if f := c.Callee(g.Node().(*ast.GoStmt).Call); f != nil {
				c.goTargets[f] = true
			}
		}
	}
	return c.goTargets[fn.Origin()]
}

// CallersOf returns the call sites of fn in the production files.
func (c *Pkg) CallersOf(fn *types.Func) []inspector.Cursor {
	c.indexCalls()
	return c.callSites[fn.Origin()]
}

// InterfaceCallersOf returns the calls that reach fn, a method of this
// package, through an interface of this package that its receiver type
// implements (for _, f := range s.fetchers { f.fetch(nodes) } reaches every
// fetch of the package), in the order of the source. Interfaces of other
// packages are left out: a call of io.Reader's Read says nothing of which
// Read of this package runs.
func (c *Pkg) InterfaceCallersOf(fn *types.Func) []inspector.Cursor {
	recv := fn.Signature().Recv()
	if recv == nil || fn.Pkg() != c.Pass.Pkg {
		return nil
	}
	t := recv.Type()
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	if types.IsInterface(t) {
		return nil
	}
	c.indexCalls()
	var sites []inspector.Cursor
	for m, calls := range c.callSites {
		mr := m.Signature().Recv()
		if m.Name() != fn.Name() || mr == nil {
			continue
		}
		iface, ok := mr.Type().Underlying().(*types.Interface)
		if !ok || !types.Implements(t, iface) && !types.Implements(types.NewPointer(t), iface) {
			continue
		}
		sites = append(sites, calls...)
	}
	slices.SortFunc(sites, func(a, b inspector.Cursor) int { return cmp.Compare(a.Node().Pos(), b.Node().Pos()) })
	return sites
}

// IsSorted reports whether the package sorts v somewhere (sort.Slice(v, …),
// slices.SortFunc(v, …), sort.Sort(byTime(v))): a sorted list is a timer or
// priority list, not a FIFO.
func (c *Pkg) IsSorted(v *types.Var) bool {
	c.indexCalls()
	return c.sorted[v]
}

// indexCalls walks the calls of the production files once, recording the
// call sites of this package's functions and the variables sorted in place.
func (c *Pkg) indexCalls() {
	if c.callSites != nil {
		return
	}
	c.callSites = make(map[*types.Func][]inspector.Cursor)
	c.sorted = make(map[*types.Var]bool)
	for file := range c.Insp.Root().Children() {
		if c.Rep.Skip(file.Node().(*ast.File)) {
			continue
		}
		for cur := range file.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			f := c.Callee(call)
			if f == nil || f.Pkg() == nil {
				continue
			}
			if f.Pkg() == c.Pass.Pkg {
				c.callSites[f] = append(c.callSites[f], cur)
			}
			if isSortFunc(f) && len(call.Args) > 0 {
				arg := ast.Unparen(call.Args[0])
				if conv, ok := arg.(*ast.CallExpr); ok && len(conv.Args) == 1 {
					if tv, ok := c.Pass.TypesInfo.Types[conv.Fun]; ok && tv.IsType() {
						arg = conv.Args[0] // sort.Sort(byTime(q))
					}
				}
				if v := code.Var(c.Pass.TypesInfo, arg); v != nil {
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

// HoldsLock reports whether the function at fn takes a sync mutex or uses a
// sync.Cond: its state is shared with other goroutines.
func (c *Pkg) HoldsLock(fn inspector.Cursor) bool {
	for cur := range fn.Preorder((*ast.CallExpr)(nil)) {
		if IsSyncCall(c.Callee(cur.Node().(*ast.CallExpr)), "Lock", "RLock", "Wait", "Signal", "Broadcast") {
			return true
		}
	}
	return false
}

// IsSyncCall reports whether fn is one of the named methods of sync.Mutex,
// sync.RWMutex, sync.Cond or sync.Locker (a Cond's L).
func IsSyncCall(fn *types.Func, names ...string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	n := code.NamedOf(code.Recv(fn))
	if n == nil {
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

// FuncName names the function at fn for a message: "worker",
// "(*Server).drain", or "a function literal in (*Server).Start".
func (c *Pkg) FuncName(fn inspector.Cursor) string {
	if _, ok := fn.Node().(*ast.FuncLit); ok {
		for f := range fn.Enclosing((*ast.FuncDecl)(nil)) {
			return "a function literal in " + c.FuncName(f)
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
