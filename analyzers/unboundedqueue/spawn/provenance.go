package spawn

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// Where the size of a collection comes from. A fan-out over a collection
// is as wide as the collection: bounded by the program when the program
// wrote it (a literal, an array, a list read from the configuration once),
// by the data when the data decides it (what a listing, a query or a
// decoded request returned, a map that grows as tenants or streams arrive,
// what a loop drained from a channel). Only the second grows with load.
//
// dataSource follows the collection through the assignments of the
// function that ranges over it, the helpers of the package that return it
// (their return statements), the callers that pass it in as a parameter,
// and the fields it is read from. What it cannot follow is unknown, and an
// unknown size is no evidence: the fan-out stays silent.

// A source says why a collection is data-sized: where its size comes from.
type source struct {
	at   ast.Node // the call, field or loop that decides the size
	what string   // "returned by d.client.List", "decoded by json.Unmarshal"
}

// maxProvenanceDepth bounds how many helpers and callers dataSource
// follows: real code hands a listing on through one or two.
const maxProvenanceDepth = 3

// A provenance follows collections within one package.
type provenance struct {
	c    *checker
	seen map[ast.Node]bool   // the functions on the path, against recursion
	vars map[*types.Var]bool // the variables on the path (x = x[1:])
	// entered holds, for a helper whose returns are being followed, the
	// call that led into it and the function that makes the call: its
	// parameters are that call's arguments.
	entered map[ast.Node]callSite
	steps   int // how many questions asked, against blow-ups
}

// A callSite is a call and the function it is made in.
type callSite struct {
	fn   inspector.Cursor
	call *ast.CallExpr
}

// maxProvenanceSteps bounds the work of one question: each step is one
// variable, call or field followed.
const maxProvenanceSteps = 200

// dataSource reports where the size of the collection x, ranged over in
// fn, comes from, when it comes from the data.
func (c dataSizes) dataSource(fn inspector.Cursor, x ast.Expr) (source, bool) {
	p := &provenance{c: c.checker, seen: make(map[ast.Node]bool), vars: make(map[*types.Var]bool)}
	return p.expr(fn, x, 0)
}

// expr decides the collection x read in the function fn.
func (p *provenance) expr(fn inspector.Cursor, x ast.Expr, depth int) (source, bool) {
	p.steps++
	if depth > maxProvenanceDepth || x == nil || p.steps > maxProvenanceSteps {
		return source{}, false
	}
	info := p.c.pass.TypesInfo
	switch e := ast.Unparen(x).(type) {
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		if !ok || !code.IsLocal(v) {
			return source{}, false
		}
		if isParam(info, fn.Node(), v) {
			if s, ok := p.requestParam(v, v.Name()); ok {
				return s, true
			}
			return p.param(fn, v, depth)
		}
		return p.local(fn, v, depth)
	case *ast.SelectorExpr:
		return p.field(fn, e, depth)
	case *ast.CallExpr:
		return p.call(fn, e, depth)
	case *ast.SliceExpr:
		return p.expr(fn, e.X, depth)
	case *ast.StarExpr:
		return p.expr(fn, e.X, depth)
	case *ast.IndexExpr:
		// m[k] of a map of collections: as wide as what was stored.
		return p.expr(fn, e.X, depth)
	}
	return source{}, false
}

// call decides the collection a call returns: a listing (a call whose last
// result is an error), a helper of the package whose returns are
// data-sized, a standard function that copies its argument (maps.Keys,
// slices.Sorted, slices.Collect), or another package's function that
// filters or merges collections of its result's type.
func (p *provenance) call(fn inspector.Cursor, call *ast.CallExpr, depth int) (source, bool) {
	info := p.c.pass.TypesInfo
	if tuple, ok := info.TypeOf(call).(*types.Tuple); ok && tuple.Len() > 1 && code.IsError(tuple.At(tuple.Len()-1).Type()) {
		if returnsConfiguration(call, tuple.At(0).Type()) {
			return source{}, false // loadConfig(path), s.configUpdateCheck(old, new): what an operator set
		}
		return source{at: call, what: "returned by " + edits.Source(p.c.pass, call.Fun)}, true
	}
	f := code.Callee(info, call)
	if f == nil || f.Pkg() == nil {
		return source{}, false
	}
	if isIterator(info.TypeOf(call)) {
		return p.iteratorArgs(fn, call, depth)
	}
	if knowledge.CopyPackages.Has(f.Pkg().Path()) {
		if len(call.Args) > 0 {
			return p.expr(fn, call.Args[0], depth)
		}
		return source{}, false
	}
	decl, ok := p.c.sh.Res.FuncDecl(f)
	if !ok {
		return p.sameTypeArgs(fn, call, depth)
	}
	if p.seen[decl.Node()] {
		return source{}, false
	}
	p.seen[decl.Node()] = true
	defer delete(p.seen, decl.Node())
	if p.entered == nil {
		p.entered = make(map[ast.Node]callSite)
	}
	p.entered[decl.Node()] = callSite{fn, call}
	defer delete(p.entered, decl.Node())
	for ret := range decl.Preorder((*ast.ReturnStmt)(nil)) {
		if code.EnclosingFunc(ret) != decl {
			continue
		}
		for _, r := range ret.Node().(*ast.ReturnStmt).Results {
			if t := info.TypeOf(r); t == nil || !isCollection(t) {
				continue
			}
			if s, ok := p.expr(decl, r, depth+1); ok {
				return source{at: call, what: "returned by " + edits.Source(p.c.pass, call.Fun) + ", " + s.what}, true
			}
		}
	}
	return source{}, false
}

// sameTypeArgs decides a call of another package's function that returns
// a collection of the very type of some of its arguments: a filter, a
// merge, a dedup (util.FilterNodes(nodes, isReady), MergeNodeList(a, b))
// hands back elements of what it was given, so it is as wide as they are.
func (p *provenance) sameTypeArgs(fn inspector.Cursor, call *ast.CallExpr, depth int) (source, bool) {
	info := p.c.pass.TypesInfo
	t := info.TypeOf(call)
	if t == nil || !isCollection(t) {
		return source{}, false
	}
	for _, a := range call.Args {
		if at := info.TypeOf(a); at == nil || !types.Identical(at, t) {
			continue
		}
		if s, ok := p.expr(fn, a, depth); ok {
			return source{at: s.at, what: "kept by " + edits.Source(p.c.pass, call.Fun) + " from " + edits.Source(p.c.pass, a) + ", " + s.what}, true
		}
	}
	return source{}, false
}

// returnsConfiguration reports whether a call that also returns an error
// returns one configuration rather than a listing: its result is no slice
// or map (a list of configurations, one per tenant, is data), and its function is named for
// one (loadConfig, configUpdateCheck, as constructors are, isConstructor), or
// its first result's type is (knowledge list config-type-suffixes). What an
// operator configured is as wide as the operator made it, not the load.
func returnsConfiguration(call *ast.CallExpr, first types.Type) bool {
	if isCollection(first) {
		return false // s.ListConfigs(ctx): a configuration per tenant is data
	}
	if strings.Contains(strings.ToLower(code.CalleeName(call)), "config") {
		return true
	}
	return isConfiguration(first)
}

// isConfiguration reports whether t is a configuration, or a pointer to
// one: a named type whose name ends as knowledge list config-type-suffixes
// says (FolderConfiguration, TargetConfig). A map field that stores one per
// key holds what an operator configured, as wide as the operator made it.
func isConfiguration(t types.Type) bool {
	if ptr, ok := types.Unalias(t).(*types.Pointer); ok {
		t = ptr.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && knowledge.ConfigTypeSuffixes.Match(strings.ToLower(n.Obj().Name()))
}

// configurationByID reports whether the store m[key] = value keeps a
// configuration under a field of itself: value a variable of a
// configuration type (isConfiguration), key a field read from it
// (m.folderCfgs[cfg.ID] = cfg). A configuration built at the store
// (&PeerConfig{…} per registered client) is not one the operator wrote.
func configurationByID(info *types.Info, store *ast.IndexExpr, value ast.Expr) bool {
	v := code.Var(info, value)
	if v == nil || !isConfiguration(v.Type()) {
		return false
	}
	sel, ok := ast.Unparen(store.Index).(*ast.SelectorExpr)
	return ok && code.Var(info, sel.X) == v
}

// isIterator reports whether t is a range-over-func iterator: a function
// taking one yield function that returns bool (iter.Seq, iter.Seq2).
func isIterator(t types.Type) bool {
	if t == nil {
		return false
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return false
	}
	yield, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
	return ok && yield.Results().Len() == 1 && types.Identical(yield.Results().At(0).Type().Underlying(), types.Typ[types.Bool])
}

// iteratorArgs decides an iterator a call returns by the arguments it is
// built from: it yields as many values as they say (the windows between a
// request's start and end, the parts of a decoded body), so it is
// data-sized when one of them is. A context says nothing of the length.
func (p *provenance) iteratorArgs(fn inspector.Cursor, call *ast.CallExpr, depth int) (source, bool) {
	for _, a := range call.Args {
		if code.IsContext(p.c.pass.TypesInfo.TypeOf(a)) {
			continue
		}
		if s, ok := p.expr(fn, a, depth); ok {
			return source{at: call, what: "yielded by " + edits.Source(p.c.pass, call) + ", whose arguments come from the data: " + s.what}, true
		}
	}
	return source{}, false
}

// isCollection reports whether t is a slice or a map.
func isCollection(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map:
		return true
	}
	return false
}

// local decides a local variable of fn by what its assignments store in it:
// the collection a listing returned, one it was copied from, one that a
// decoder filled, or one built by a loop over a data-sized collection or a
// channel.
func (p *provenance) local(fn inspector.Cursor, v *types.Var, depth int) (source, bool) {
	info := p.c.pass.TypesInfo
	if p.vars[v] {
		return source{}, false
	}
	p.vars[v] = true
	defer delete(p.vars, v)
	for cur := range fn.Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.CallExpr)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if code.Var(info, lhs) != v {
					continue
				}
				if len(n.Rhs) == 1 && len(n.Lhs) > 1 {
					if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
						if s, ok := p.call(fn, call, depth); ok {
							return s, true
						}
					}
					continue
				}
				if i >= len(n.Rhs) {
					continue
				}
				if s, ok := p.stored(fn, cur, n.Rhs[i], depth); ok {
					return s, true
				}
			}
			// m[k] = x: the map grows by what the loop around it ranges over.
			for _, lhs := range n.Lhs {
				if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok && code.Var(info, ix.X) == v {
					if s, ok := p.loopAround(fn, cur, depth); ok {
						return s, true
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] == v && i < len(n.Values) {
					if s, ok := p.stored(fn, cur, n.Values[i], depth); ok {
						return s, true
					}
				}
			}
		case *ast.CallExpr:
			if s, ok := p.decodedInto(n, v); ok {
				return s, true
			}
		}
	}
	return source{}, false
}

// stored decides the value rhs assigned to a collection at cur: a call, a
// copy of another collection, or an append inside a loop (the collection
// is as wide as the loop's).
func (p *provenance) stored(fn, cur inspector.Cursor, rhs ast.Expr, depth int) (source, bool) {
	info := p.c.pass.TypesInfo
	if call, ok := ast.Unparen(rhs).(*ast.CallExpr); ok && code.BuiltinName(info, call) == "append" {
		if len(call.Args) > 1 && call.Ellipsis.IsValid() {
			if s, ok := p.expr(fn, call.Args[1], depth); ok {
				return s, true
			}
		}
		return p.loopAround(fn, cur, depth)
	}
	if call, ok := ast.Unparen(rhs).(*ast.CallExpr); ok && code.BuiltinName(info, call) == "make" {
		return source{}, false
	}
	if _, ok := ast.Unparen(rhs).(*ast.CompositeLit); ok {
		return source{}, false // a literal: the program wrote it
	}
	return p.expr(fn, rhs, depth)
}

// loopAround decides the loop around cur in fn, where a collection grows by
// one element per iteration: a range over a data-sized collection, or a
// loop that receives from a channel (a channel drained into a slice).
func (p *provenance) loopAround(fn, cur inspector.Cursor, depth int) (source, bool) {
	for l := range cur.Enclosing((*ast.RangeStmt)(nil), (*ast.ForStmt)(nil), (*ast.FuncLit)(nil)) {
		if !fn.Contains(l) || l == fn {
			break
		}
		switch n := l.Node().(type) {
		case *ast.FuncLit:
			return source{}, false
		case *ast.RangeStmt:
			if t := p.c.pass.TypesInfo.TypeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Chan); ok {
					return source{at: n, what: "drained from the channel " + edits.Source(p.c.pass, n.X)}, true
				}
			}
			if s, ok := p.expr(fn, n.X, depth); ok {
				return source{at: s.at, what: "built from " + edits.Source(p.c.pass, n.X) + ", " + s.what}, true
			}
		case *ast.ForStmt:
			if recv := receiveIn(n.Body); recv != nil {
				return source{at: recv, what: "drained from the channel " + edits.Source(p.c.pass, recv.X)}, true
			}
		}
	}
	return source{}, false
}

// receiveIn returns a receive of the loop body's own statements (or a
// select's case), outside nested loops and literals.
func receiveIn(body *ast.BlockStmt) *ast.UnaryExpr {
	var found *ast.UnaryExpr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && found == nil {
				found = n
			}
		}
		return found == nil
	})
	return found
}

// decodedInto reports a call that decodes data into v: json.Unmarshal(b,
// &v), dec.Decode(&v), proto.Unmarshal(b, &v), c.Bind(&v).
func (p *provenance) decodedInto(call *ast.CallExpr, v *types.Var) (source, bool) {
	name := code.CalleeName(call)
	if !strings.Contains(name, "Unmarshal") && !strings.Contains(name, "Decode") && !strings.HasPrefix(name, "Bind") && !strings.HasPrefix(name, "ShouldBind") {
		return source{}, false
	}
	for _, a := range call.Args {
		u, ok := ast.Unparen(a).(*ast.UnaryExpr)
		if ok && u.Op == token.AND && code.Var(p.c.pass.TypesInfo, u.X) == v {
			return source{at: call, what: "decoded by " + edits.Source(p.c.pass, call.Fun)}, true
		}
	}
	return source{}, false
}

// field decides x.f: a field of a data-sized value (a decoded request, a
// listing's result), of a parameter that is a request or a message, or a
// map field of shared state that grows as the program runs (an entry per
// tenant, stream or peer stored outside the constructors).
func (p *provenance) field(fn inspector.Cursor, sel *ast.SelectorExpr, depth int) (source, bool) {
	info := p.c.pass.TypesInfo
	if f, ok := info.Uses[sel.Sel].(*types.Var); ok && f.IsField() {
		if _, isMap := f.Type().Underlying().(*types.Map); isMap {
			if at, in, grows := p.growsAtRun(f); grows {
				return source{at: at, what: "the map " + edits.Source(p.c.pass, sel) + ", which grows as " + in + " stores entries"}, true
			}
		}
	}
	root := sel.X
	for {
		s, ok := ast.Unparen(root).(*ast.SelectorExpr)
		if !ok {
			break
		}
		root = s.X
	}
	id, ok := ast.Unparen(root).(*ast.Ident)
	if !ok {
		return source{}, false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || !code.IsLocal(v) {
		return source{}, false
	}
	if isParam(info, fn.Node(), v) {
		if recv := receiverVar(info, fn); recv == v {
			return source{}, false // the receiver's fields: configuration, unless a map that grows
		}
		return p.requestParam(v, edits.Source(p.c.pass, sel))
	}
	if s, ok := p.local(fn, v, depth); ok {
		return source{at: s.at, what: "a field of " + v.Name() + ", " + s.what}, true
	}
	return p.fieldStores(fn, v, sel, depth)
}

// fieldStores decides the field sel of the local v of fn by what fn stores
// in it (resp.Paths = append(resp.Paths, p) in a loop over a listing): a
// response or a batch the function fills field by field.
func (p *provenance) fieldStores(fn inspector.Cursor, v *types.Var, sel *ast.SelectorExpr, depth int) (source, bool) {
	info := p.c.pass.TypesInfo
	f, ok := info.Uses[sel.Sel].(*types.Var)
	if !ok || !f.IsField() || ast.Unparen(sel.X) != rootIdent(sel.X) {
		return source{}, false
	}
	for cur := range fn.Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		if len(as.Lhs) != len(as.Rhs) {
			continue
		}
		for i, lhs := range as.Lhs {
			ls, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
			if !ok || info.Uses[ls.Sel] != f || ast.Unparen(ls.X) != rootIdent(ls.X) || info.Uses[rootIdent(ls.X)] != v {
				continue
			}
			if s, ok := p.stored(fn, cur, as.Rhs[i], depth); ok {
				return source{at: s.at, what: "stored in " + edits.Source(p.c.pass, ls) + ", " + s.what}, true
			}
		}
	}
	return source{}, false
}

// requestParam reports a parameter that is a request or a message: its
// collections are as wide as the sender made them.
func (p *provenance) requestParam(v *types.Var, what string) (source, bool) {
	t := v.Type()
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return source{}, false
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return source{}, false
	}
	name := n.Obj().Name()
	if knowledge.RequestTypeSuffixes.Match(strings.ToLower(name)) {
		return source{at: nil, what: what + ", a field of the " + name + " the caller sent"}, true
	}
	return source{}, false
}

// param decides a parameter of fn by the arguments its callers in the
// package pass, directly or through an interface of the package that fn's
// receiver implements: data-sized when one of them is; in a helper whose return is
// being followed, by the argument of the call being followed.
func (p *provenance) param(fn inspector.Cursor, v *types.Var, depth int) (source, bool) {
	decl, ok := fn.Node().(*ast.FuncDecl)
	if !ok {
		return source{}, false
	}
	if in, ok := p.entered[decl]; ok {
		// A helper whose return is being followed: the parameter is the
		// argument of the call that led here (requestsFor(rels)).
		f, ok := p.c.pass.TypesInfo.Defs[decl.Name].(*types.Func)
		if !ok {
			return source{}, false
		}
		i := shared.ParamIndex(f, v)
		if i < 0 || i >= len(in.call.Args) || f.Signature().Variadic() && i == f.Signature().Params().Len()-1 {
			return source{}, false
		}
		if s, ok := p.expr(in.fn, in.call.Args[i], depth+1); ok {
			return source{at: s.at, what: "from the argument " + edits.Source(p.c.pass, in.call.Args[i]) + ", " + s.what}, true
		}
		return source{}, false
	}
	if p.seen[decl] {
		return source{}, false
	}
	f, ok := p.c.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok {
		return source{}, false
	}
	i := shared.ParamIndex(f, v)
	if i < 0 || f.Signature().Variadic() && i == f.Signature().Params().Len()-1 {
		return source{}, false
	}
	p.seen[decl] = true
	defer delete(p.seen, decl)
	for _, site := range slices.Concat(p.c.sh.CallersOf(f), p.c.sh.InterfaceCallersOf(f)) {
		call, ok := site.Node().(*ast.CallExpr)
		if !ok || i >= len(call.Args) {
			continue
		}
		caller := code.EnclosingFunc(site)
		if !caller.Valid() {
			continue
		}
		if s, ok := p.expr(caller, call.Args[i], depth+1); ok {
			return source{at: s.at, what: "passed by " + p.c.sh.FuncName(caller) + ", " + s.what}, true
		}
	}
	return source{}, false
}

// A growth is a store into a map field at run time, and the function
// that makes it.
type growth struct {
	at ast.Node
	in string
}

// growsAtRun reports whether the program stores entries into the map field
// f (m[k] = v) in a function that is not a constructor: the map then holds
// an entry per tenant, stream or peer that arrived. It returns that store
// and the function's name.
func (p *provenance) growsAtRun(f *types.Var) (ast.Node, string, bool) {
	if p.c.grows == nil {
		p.c.grows = dataSizes{p.c}.runTimeStores()
	}
	g, ok := p.c.grows[f]
	return g.at, g.in, ok
}

// runTimeStores finds, once per package, the map fields that a function
// other than a constructor stores entries into, outside test files.
func (c dataSizes) runTimeStores() map[*types.Var]growth {
	info := c.pass.TypesInfo
	out := make(map[*types.Var]growth)
	for cur := range c.insp.Root().Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		for i, lhs := range as.Lhs {
			ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
			if !ok {
				continue
			}
			sel, ok := ast.Unparen(ix.X).(*ast.SelectorExpr)
			if !ok {
				continue
			}
			f, ok := info.Uses[sel.Sel].(*types.Var)
			if !ok || !f.IsField() {
				continue
			}
			if _, done := out[f]; done {
				continue
			}
			encl := code.EnclosingFunc(cur)
			if !encl.Valid() || c.isConstructor(encl) {
				continue
			}
			if len(as.Rhs) == len(as.Lhs) && configurationByID(info, ix, as.Rhs[i]) {
				continue // m.folderCfgs[cfg.ID] = cfg: an entry per configured folder
			}
			if tf := c.pass.Fset.File(as.Pos()); tf == nil || strings.HasSuffix(tf.Name(), "_test.go") {
				continue
			}
			out[f] = growth{at: as, in: c.sh.FuncName(encl)}
		}
	}
	return out
}

// isConstructor reports whether fn (or the declared function around a
// literal) is a constructor or runs at start-up: New…, new…, init, main,
// or a function whose name says it loads or parses a configuration.
func (c dataSizes) isConstructor(fn inspector.Cursor) bool {
	for f := range fn.Enclosing((*ast.FuncDecl)(nil)) {
		name := f.Node().(*ast.FuncDecl).Name.Name
		lower := strings.ToLower(name)
		return strings.HasPrefix(lower, "new") || name == "init" || name == "main" ||
			strings.Contains(lower, "config") || strings.HasPrefix(lower, "load") || strings.HasPrefix(lower, "parse") || strings.HasPrefix(lower, "setup")
	}
	return false
}
