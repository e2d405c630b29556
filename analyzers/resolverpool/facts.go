package resolverpool

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

// A step is one function of a call chain.
type step struct {
	Path string // import path of its package
	Pkg  string // its package's name
	Name string // "Func" or "Type.Method"; "…" marks elided steps
}

// A chain is one example of how a function reaches a resolving or slow call:
// the function itself first, the table entry last.
type chain []step

// maxSteps bounds the chains stored in facts: the first steps and the call
// that resolves or blocks are what a reader needs.
const maxSteps = 4

func stepOf(fn *types.Func) step {
	name := fn.Name()
	if recv := calls.RecvName(fn); recv != "" {
		name = recv + "." + name
	}
	return step{Path: fn.Pkg().Path(), Pkg: fn.Pkg().Name(), Name: name}
}

// via returns the chain of fn that goes on with c.
func via(fn *types.Func, c chain) chain {
	out := append(chain{stepOf(fn)}, c...)
	if len(out) > maxSteps {
		out = append(out[:2:2], step{Name: "…"}, out[len(out)-1])
	}
	return out
}

// format renders c as seen from the package with the given path:
// "fetch → http.Client.Do".
func (c chain) format(path string) string {
	var b strings.Builder
	for i, s := range c {
		if i > 0 {
			b.WriteString(" → ")
		}
		if s.Path != "" && s.Path != path {
			b.WriteString(s.Pkg + ".")
		}
		b.WriteString(s.Name)
	}
	return b.String()
}

// funcFact records that an exported function may resolve a hostname or block
// for long, with one call chain for each. Held is set when it also waits
// between attempts at work that resolves (a retry loop that sleeps), the
// chain leading to the wait; Retry is 1 + the index of the function
// parameter it calls in such a loop (lib.Retry(3, ping)), or 0.
type funcFact struct {
	Resolve chain
	Slow    chain
	Held    chain
	Retry   int
}

func (*funcFact) AFact() {}

func (f *funcFact) String() string {
	var parts []string
	if f.Resolve != nil {
		parts = append(parts, "resolves: "+f.Resolve.format(""))
	}
	if f.Slow != nil {
		parts = append(parts, "slow: "+f.Slow.format(""))
	}
	if f.Held != nil {
		parts = append(parts, "sleeps between attempts: "+f.Held.format(""))
	}
	if f.Retry > 0 {
		parts = append(parts, fmt.Sprintf("retries parameter %d", f.Retry))
	}
	return strings.Join(parts, "; ")
}

// A summary is what one declared function of the package does, with the
// closures it declares (but not the goroutines it starts).
type summary struct {
	fn            *types.Func
	body          *ast.BlockStmt
	resolve, slow chain
	held          chain         // a wait between attempts at resolving work
	retry         int           // 1 + the parameter it retries, or 0
	callees       []*types.Func // functions of this package it calls, in order
	refs          []*types.Func // functions of this package it hands to calls
}

// facts classifies calls: through the tables, the summaries of this package's
// functions, and the facts of other packages' functions.
type facts struct {
	pass     *analysis.Pass
	local    map[*types.Func]*summary
	order    []*summary
	imported map[*types.Func]*funcFact
	adm      *admission.Result
	// impls are the implementations of interfaces known to the package, by
	// interface; convs the conversions of this package's values to
	// interfaces, decided once the package's functions are classified.
	impls     map[string][]impl
	convs     []conversion
	appIfaces map[*types.TypeName]bool // interfaces of applications, not std
	takes     map[*types.Struct]bool   // structs with a field of one
	// callers are the functions of this package that call each one.
	callers map[*types.Func][]*summary
	// ifaceCalls are the interfaces whose methods the package calls.
	ifaceCalls map[string]bool
	// anyResolve and anySlow record whether any call of the package, in a
	// goroutine or not, resolves or is slow: a package without both cannot
	// have a finding.
	anyResolve, anySlow bool
}

// summarize computes the summary of every declared function of the package
// in one pass over its calls, propagates them through the package's call
// graph (recursion included), and exports the facts of exported functions.
func summarize(pass *analysis.Pass, insp *inspector.Inspector, adm *admission.Result) *facts {
	fs := &facts{
		pass:     pass,
		local:    make(map[*types.Func]*summary),
		imported: make(map[*types.Func]*funcFact),
		adm:      adm,
	}
	nodeTypes := []ast.Node{(*ast.CallExpr)(nil), (*ast.GoStmt)(nil)}
	for file := range insp.Root().Children() {
		// No other package calls what a test file declares.
		if strings.HasSuffix(pass.Fset.File(file.Node().Pos()).Name(), "_test.go") {
			continue
		}
		for decl := range file.Children() {
			fd, ok := decl.Node().(*ast.FuncDecl)
			var s *summary
			if ok && fd.Body != nil {
				if fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func); fn != nil {
					s = &summary{fn: fn, body: fd.Body}
					fs.local[fn] = s
					fs.order = append(fs.order, s)
				}
			}
			decl.Inspect(nodeTypes, func(c inspector.Cursor) bool {
				switch n := c.Node().(type) {
				case *ast.GoStmt:
					// A goroutine does not block its starter: note only
					// whether the package resolves or sleeps at all.
					for cc := range c.Preorder((*ast.CallExpr)(nil)) {
						fs.note(cc.Node().(*ast.CallExpr), nil)
					}
					return false
				case *ast.CallExpr:
					fs.note(n, s)
				}
				return true
			})
		}
	}
	fs.propagate()
	fs.retries()
	if fs.needConversions() {
		fs.conversions(insp)
	}
	fs.implementations()
	fs.export()
	return fs
}

// note classifies one call made by the function of s (nil: a call made in a
// goroutine or outside any function).
func (fs *facts) note(call *ast.CallExpr, s *summary) {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if m, ok := fs.pass.TypesInfo.Selections[sel]; ok && m.Kind() == types.MethodVal {
			if n, ok := types.Unalias(m.Recv()).(*types.Named); ok && fs.appInterface(n) {
				key := typeKey(n.Origin())
				if fs.ifaceCalls == nil {
					fs.ifaceCalls = make(map[string]bool)
				}
				fs.ifaceCalls[key] = true
			}
		}
	}
	if fn := code.Callee(fs.pass.TypesInfo, call); fn != nil && fn.Pkg() != nil {
		r, sl, local := fs.leaf(fn)
		fs.anyResolve = fs.anyResolve || r != nil
		fs.anySlow = fs.anySlow || sl != nil
		if s != nil {
			s.add(r, sl)
			if local {
				s.callees = append(s.callees, fn)
			}
		}
	}
	// A function handed to a call (retry(fetch), g.Go(s.refresh)) probably
	// runs there. Counting it as resolving, never as slow, keeps a retry
	// helper that sleeps between attempts at a network call from making
	// the caller look slow without resolving.
	if s == nil {
		return
	}
	for _, arg := range call.Args {
		fn := funcRef(fs.pass.TypesInfo, arg)
		if fn == nil || fn.Pkg() == nil {
			continue
		}
		r, _, local := fs.leaf(fn)
		s.add(r, nil)
		if local {
			s.refs = append(s.refs, fn)
		}
	}
}

// add records the first resolving and slow chains of s's calls.
func (s *summary) add(r, sl chain) {
	if r != nil && s.resolve == nil {
		s.resolve = via(s.fn, r)
	}
	if sl != nil && s.slow == nil {
		s.slow = via(s.fn, sl)
	}
}

// funcRef returns the declared function or concrete method that e names
// as a value (f, pkg.F, s.m), or nil.
func funcRef(info *types.Info, e ast.Expr) *types.Func {
	var obj types.Object
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj = info.Uses[e]
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[e]; ok {
			if sel.Kind() != types.MethodVal || types.IsInterface(sel.Recv()) {
				return nil
			}
			obj = sel.Obj()
		} else {
			obj = info.Uses[e.Sel]
		}
	}
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	return fn.Origin()
}

// leaf returns the chains of a call of fn known without this package's
// propagation: a table entry, or the fact of another package's function.
// local reports that fn is a function of this package, decided later.
func (fs *facts) leaf(fn *types.Func) (r, sl chain, local bool) {
	if resolveTable.Contains(fn) {
		r = chain{stepOf(fn)}
	}
	if slowTable.Contains(fn) {
		sl = chain{stepOf(fn)}
	}
	if r != nil || sl != nil {
		return r, sl, false
	}
	if fn.Pkg() == fs.pass.Pkg {
		return nil, nil, true
	}
	f, ok := fs.imported[fn]
	if !ok {
		f = new(funcFact)
		if !fs.pass.ImportObjectFact(fn, f) {
			f = nil
		}
		fs.imported[fn] = f
	}
	if f == nil {
		return nil, nil, false
	}
	return f.Resolve, f.Slow, false
}

// chains returns the chains of a call of fn, after propagation.
func (fs *facts) chains(fn *types.Func) (r, sl chain) {
	r, sl, local := fs.leaf(fn)
	if local {
		if s := fs.local[fn]; s != nil {
			return s.resolve, s.slow
		}
	}
	return r, sl
}

// heldOf returns the held chain of a call of fn and the parameter it retries
// (1-based, 0 for none), after propagation.
func (fs *facts) heldOf(fn *types.Func) (held chain, retry int) {
	if fn.Pkg() == fs.pass.Pkg {
		if s := fs.local[fn]; s != nil {
			return s.held, s.retry
		}
		return nil, 0
	}
	if _, _, local := fs.leaf(fn); local {
		return nil, 0
	}
	if f := fs.imported[fn]; f != nil {
		return f.Held, f.Retry
	}
	return nil, 0
}

// propagate spreads resolve and slow from callees to callers, breadth first
// from the functions that reach a table entry or fact directly, so every
// chain is a shortest one and the result does not depend on map order.
func (fs *facts) propagate() {
	fs.callers = make(map[*types.Func][]*summary)
	referrers := make(map[*types.Func][]*summary)
	for _, s := range fs.order {
		for _, c := range s.callees {
			fs.callers[c] = append(fs.callers[c], s)
		}
		for _, c := range s.refs {
			referrers[c] = append(referrers[c], s)
		}
	}
	fs.spread(func(s *summary) *chain { return &s.resolve }, fs.callers, referrers)
	fs.spread(func(s *summary) *chain { return &s.slow }, fs.callers)
}

// spread gives every function that reaches, through edges, a function whose
// chain get returns is set, a chain through it.
func (fs *facts) spread(get func(*summary) *chain, edges ...map[*types.Func][]*summary) {
	var queue []*summary
	for _, s := range fs.order {
		if *get(s) != nil {
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		g := queue[0]
		queue = queue[1:]
		for _, e := range edges {
			for _, c := range e[g.fn] {
				if *get(c) == nil {
					*get(c) = via(c.fn, *get(g))
					queue = append(queue, c)
				}
			}
		}
	}
}

// export exports the facts of the exported functions that resolve or are
// slow: only they can be called from another package.
func (fs *facts) export() {
	for _, s := range fs.order {
		if (s.resolve != nil || s.slow != nil || s.retry > 0) && s.fn.Exported() {
			fs.pass.ExportObjectFact(s.fn, &funcFact{Resolve: s.resolve, Slow: s.slow, Held: s.held, Retry: s.retry})
		}
	}
	fs.exportImpls()
}
