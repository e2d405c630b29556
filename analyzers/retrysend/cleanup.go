package retrysend

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
)

// An identUse is one identifier of a file that refers to an object.
type identUse struct {
	id    *ast.Ident
	write bool // the left side of a plain assignment: not a use to the compiler
}

// A removal is source that fixes delete, with the findings whose fixes do.
type removal struct {
	span
	owners []*finding
}

// cleanUp completes the fixes of one file's findings: it deletes the local
// declarations and imports that the fixes, applied together, leave unused.
// A finding whose fix would leave an unused variable it cannot delete keeps
// its message and loses its fix: a fix that does not compile is worse than
// none.
func (c *fixer) cleanUp(file inspector.Cursor, all []*finding) {
	uses := c.identUses(file)
	fs := slices.DeleteFunc(slices.Clone(all), func(f *finding) bool { return f.fix == nil })
	for {
		failed := c.planCleanUp(file, uses, fs)
		if len(failed) == 0 {
			break
		}
		for f := range failed {
			f.fix = nil
		}
		fs = slices.DeleteFunc(fs, func(f *finding) bool { return failed[f] })
	}
	c.declareSentinels(file.Node().(*ast.File), fs)
}

// identUses indexes the identifiers of file by the object they use.
func (c *fixer) identUses(file inspector.Cursor) map[types.Object][]identUse {
	uses := make(map[types.Object][]identUse)
	for cur := range file.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if obj := c.info.Uses[id]; obj != nil {
			uses[obj] = append(uses[obj], identUse{id, isPlainWrite(cur)})
		}
	}
	return uses
}

// isPlainWrite reports whether the identifier at cur is assigned with =,
// which the compiler does not count as a use.
func isPlainWrite(cur inspector.Cursor) bool {
	if cur.ParentEdgeKind() != edge.AssignStmt_Lhs {
		return false
	}
	return cur.Parent().Node().(*ast.AssignStmt).Tok == token.ASSIGN
}

// planCleanUp computes the clean-up edits of fs and returns the findings whose
// fixes cannot be completed.
func (c *fixer) planCleanUp(file inspector.Cursor, uses map[types.Object][]identUse, fs []*finding) map[*finding]bool {
	var removed []removal
	newUses := make(map[types.Object]bool)
	for _, f := range fs {
		f.fix.cleanup = nil
		for _, s := range f.fix.removed {
			removed = append(removed, removal{s, []*finding{f}})
		}
		for _, obj := range f.fix.uses {
			newUses[obj] = true
		}
	}
	// ownersOf returns the findings that remove every position of ids, or
	// nil if some position stays.
	ownersOf := func(ids []identUse) []*finding {
		var owners []*finding
		for _, u := range ids {
			i := slices.IndexFunc(removed, func(r removal) bool { return r.contains(u.id.Pos()) })
			if i < 0 {
				return nil
			}
			for _, o := range removed[i].owners {
				if !slices.Contains(owners, o) {
					owners = append(owners, o)
				}
			}
		}
		return owners
	}
	addRemoval := func(s span, owners []*finding) {
		removed = append(removed, removal{s, owners})
		for _, o := range owners {
			o.fix.cleanup = append(o.fix.cleanup, analysis.TextEdit{Pos: s.pos, End: s.end})
		}
	}
	removedAt := func(pos token.Pos) bool {
		return slices.ContainsFunc(removed, func(r removal) bool { return r.contains(pos) })
	}

	// Local variables whose every read the fixes delete: delete their
	// declarations too, which may leave others unused in turn.
	// In source order, so that which fixes fail, and the order of edits,
	// do not depend on map iteration.
	objs := slices.SortedFunc(maps.Keys(uses), func(a, b types.Object) int { return int(a.Pos() - b.Pos()) })
	done := make(map[types.Object]bool)
	for changed := true; changed; {
		changed = false
		for _, obj := range objs {
			ids := uses[obj]
			v, ok := obj.(*types.Var)
			if !ok || done[v] || !isLocal(v) || newUses[v] || removedAt(v.Pos()) {
				continue
			}
			var reads []identUse
			for _, u := range ids {
				if !u.write {
					reads = append(reads, u)
				}
			}
			owners := ownersOf(reads)
			if len(reads) == 0 || owners == nil {
				continue
			}
			done[v] = true
			decl, kind := c.declaration(file, v)
			if kind == param {
				continue
			}
			if kind == stuck || ownersOf(ids) == nil {
				failed := make(map[*finding]bool)
				for _, o := range owners {
					failed[o] = true
				}
				return failed
			}
			addRemoval(decl, owners)
			changed = true
		}
	}

	// Imports whose every use the fixes delete.
	f := file.Node().(*ast.File)
	for _, spec := range f.Imports {
		obj := importObj(c.info, spec)
		if obj == nil || newUses[obj] || len(uses[obj]) == 0 {
			continue
		}
		if owners := ownersOf(uses[obj]); owners != nil {
			if e, ok := edits.DropUnusedImport(c.pass, f, spec); ok {
				addRemoval(span{e.Pos, e.End}, owners)
			}
		}
	}
	return nil
}

func importObj(info *types.Info, spec *ast.ImportSpec) types.Object {
	if spec.Name != nil {
		return info.Defs[spec.Name]
	}
	return info.Implicits[spec]
}

// A declKind says whether a local variable's declaration can be deleted.
type declKind uint8

const (
	deletable declKind = iota // a statement of its own: delete it
	param                     // a parameter or result: never unused
	stuck                     // deleting it would delete more
)

// declaration returns the span of the statement that declares the local
// variable v when deleting it deletes nothing else: a single-name := or var
// statement with a call-free value, alone on its lines.
func (c *fixer) declaration(file inspector.Cursor, v *types.Var) (span, declKind) {
	cur, ok := file.FindByPos(v.Pos(), v.Pos()+token.Pos(len(v.Name())))
	if !ok {
		return span{}, stuck
	}
	var stmt ast.Stmt
	switch cur.ParentEdgeKind() {
	case edge.Field_Names:
		return span{}, param
	case edge.AssignStmt_Lhs:
		as := cur.Parent().Node().(*ast.AssignStmt)
		if as.Tok != token.DEFINE || len(as.Lhs) != 1 || !code.CallFree(c.info, nil, as.Rhs...) {
			return span{}, stuck
		}
		stmt = as
	case edge.ValueSpec_Names:
		spec := cur.Parent().Node().(*ast.ValueSpec)
		gen := cur.Parent().Parent()
		ds, ok := gen.Parent().Node().(*ast.DeclStmt)
		if !ok || len(gen.Node().(*ast.GenDecl).Specs) != 1 || len(spec.Names) != 1 || !code.CallFree(c.info, nil, spec.Values...) {
			return span{}, stuck
		}
		stmt = ds
	default:
		return span{}, stuck
	}
	e, ok := edits.DeleteLines(c.pass, stmt.Pos(), stmt.End())
	if !ok {
		return span{}, stuck
	}
	return span{e.Pos, e.End}, deletable
}

// declareSentinels adds to each fix that returns a sentinel error the
// declaration of that error, before the first function of the file that
// returns it, so that fixes sharing a sentinel make identical edits.
func (c *fixer) declareSentinels(file *ast.File, fs []*finding) {
	first := make(map[*sentinel]ast.Decl)
	for _, f := range fs {
		s := f.fix.sentinel
		if s == nil {
			continue
		}
		d := edits.EnclosingDecl(file, f.pos)
		if old, ok := first[s]; !ok || d.Pos() < old.Pos() {
			first[s] = d
		}
	}
	for _, f := range fs {
		if s := f.fix.sentinel; s != nil {
			f.fix.cleanup = append(f.fix.cleanup, edits.InsertDeclBefore(first[s], s.decl))
		}
	}
}

// removeHelpers deletes the declaration of each unexported try-send helper
// whose every call one fix replaces: left behind, it would be dead code.
// It stays when a file beside the package that this run does not analyze
// (a test, another platform's file) may call it, when an
// interface of the package may need it as a method, or when deleting it
// would leave an import of its file unused.
func (c *fixer) removeHelpers(findings []*finding) {
	for _, f := range findings {
		if f.fix == nil || f.fix.helper == nil {
			continue
		}
		h := f.fix.helper
		if h.fn.Exported() || !c.onlyCalledIn(h.fn, f.fix) || c.interfaceNeeds(h.fn) || edits.MentionedElsewhere(c.pass, h.decl.Pos(), h.decl.Name.Name) || c.lastImportUse(h.decl) {
			continue
		}
		if e, ok := edits.DeleteFuncDecl(c.pass, h.decl); ok {
			f.fix.cleanup = append(f.fix.cleanup, e)
		}
	}
}

// onlyCalledIn reports whether every use of fn in the package lies in the
// source that the fix deletes.
func (c *fixer) onlyCalledIn(fn *types.Func, p *fixPlan) bool {
	removed := append(append([]span(nil), p.removed...), editSpans(p.cleanup)...)
	for id, obj := range c.info.Uses {
		if f, ok := obj.(*types.Func); !ok || f.Origin() != fn {
			continue
		}
		if !slices.ContainsFunc(removed, func(s span) bool { return s.contains(id.Pos()) }) {
			return false
		}
	}
	return true
}

func editSpans(es []analysis.TextEdit) []span {
	var out []span
	for _, e := range es {
		out = append(out, span{e.Pos, e.End})
	}
	return out
}

// interfaceNeeds reports whether fn is a method whose name an interface of
// the package declares: deleting it could break an implementation.
func (c *fixer) interfaceNeeds(fn *types.Func) bool {
	if fn.Signature().Recv() == nil {
		return false
	}
	for _, tv := range c.info.Types {
		if it, ok := tv.Type.Underlying().(*types.Interface); ok {
			for m := range it.Methods() {
				if m.Name() == fn.Name() {
					return true
				}
			}
		}
	}
	return false
}

// lastImportUse reports whether decl refers to an imported package that
// nothing else in its file refers to.
func (c *fixer) lastImportUse(decl *ast.FuncDecl) bool {
	file := edits.EnclosingFile(c.pass.Files, decl.Pos())
	inDecl := make(map[types.Object]bool)
	ast.Inspect(decl, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if pn, ok := c.info.Uses[id].(*types.PkgName); ok {
				inDecl[pn] = true
			}
		}
		return true
	})
	if len(inDecl) == 0 {
		return false
	}
	outside := make(map[types.Object]bool)
	ast.Inspect(file, func(n ast.Node) bool {
		if n == decl {
			return false
		}
		if id, ok := n.(*ast.Ident); ok && inDecl[c.info.Uses[id]] {
			outside[c.info.Uses[id]] = true
		}
		return true
	})
	return len(outside) < len(inDecl)
}
