package resolverpool

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/internal/pools"
	"github.com/queuecheck/queuecheck/analyzers/internal/report"
)

// A variant is one kind of work a pool runs: a task, one implementation of
// the interface method a task calls, or one branch of workers that dispatch
// on the data they receive.
type variant struct {
	// owner is what the variant is part of (a task, a branch, an
	// implementation at a call): another task is another owner.
	owner any
	// at is where the work enters the pool (the submission) or where the
	// workers run it (the case clause, the interface call).
	at     ast.Node
	task   *pools.Task   // the task the variant is all of, if routable as one
	branch *pools.Branch // the branch it is, for workers that dispatch on data
	impl   bool          // it is one implementation of an interface method
	// r, sl and held are its first resolving, slow and held chains.
	r, sl, held chain
}

// end is where the variant's position ends: a case clause's header, or its
// node.
func (v *variant) end() token.Pos {
	if cc, ok := v.at.(*ast.CaseClause); ok {
		return cc.Colon + 1
	}
	return v.at.End()
}

// describe renders chain c of v for a message, prefixed by the branch it is
// in: "case kindWrite: os.WriteFile".
func (v *variant) describe(pass *analysis.Pass, c chain) string {
	s := c.format(pass.Pkg.Path())
	if v.branch != nil && !v.impl {
		s = branchLabel(pass, v.branch) + ": " + s
	}
	return s
}

func branchLabel(pass *analysis.Pass, b *pools.Branch) string {
	if b.Clause.List == nil {
		return "default"
	}
	var cases []string
	for _, e := range b.Clause.List {
		cases = append(cases, edits.Source(pass, e))
	}
	return "case " + strings.Join(cases, ", ")
}

// A sharing is one finding: a variant that runs slow work, or waits between
// attempts while it holds its slot, and a variant of the same pool whose
// lookups wait behind it.
type sharing struct {
	slow, resolving *variant
	held            bool
}

// shared returns the findings of pool p, one per position: each variant that
// is slow without resolving, in a pool that has a variant that resolves; and
// each variant that resolves but waits between attempts while it holds its
// slot, in a pool where another task resolves without such waits. A pool
// whose variants are all of one kind (an HTTP fan-out limiter, a disk I/O
// semaphore, retries of calls to peers) has none.
// A variant that is slow, or holds its slot between attempts, and is no
// finding is silenced by its rule.
func shared(fs *facts, p *pools.Pool, rep *report.Reporter) []sharing {
	vs := fs.variants(p)
	var out []sharing
	seen := make(map[token.Pos]bool)
	for _, v := range vs {
		var s sharing
		switch {
		case v.r == nil && v.sl == nil:
			rep.SilenceAt(v.at.Pos(), v.end(), ruleQuickTask)
		case v.r != nil && v.held == nil:
			rep.SilenceAt(v.at.Pos(), v.end(), ruleResolvingTask)
		case v.r == nil && v.sl != nil:
			s = sharing{slow: v, resolving: firstResolving(vs, nil)}
			if s.resolving == nil {
				rep.SilenceAt(v.at.Pos(), v.end(), ruleNoLookups)
			}
		case v.r != nil && v.held != nil:
			s = sharing{slow: v, resolving: firstResolving(vs, v.owner), held: true}
			switch {
			case s.resolving == nil:
				rep.SilenceAt(v.at.Pos(), v.end(), ruleNoOtherLookups)
			case s.resolving.held != nil:
				s.resolving = nil // retries beside retries: one kind of work
				rep.SilenceAt(v.at.Pos(), v.end(), ruleRetriesBesideRetries)
			}
		}
		if s.resolving != nil && !seen[v.at.Pos()] {
			seen[v.at.Pos()] = true
			out = append(out, s)
		}
	}
	return out
}

// firstResolving returns the first variant of vs that resolves and is not
// part of owner, preferring one that does not also wait between attempts.
func firstResolving(vs []*variant, owner any) *variant {
	var held *variant
	for _, v := range vs {
		if v.r == nil || (owner != nil && v.owner == owner) {
			continue
		}
		if v.held == nil {
			return v
		}
		if held == nil {
			held = v
		}
	}
	return held
}

// variants returns the kinds of work p runs: for workers that dispatch on
// data, the branches of their switch (or the implementations of the
// interface methods their loop body calls); otherwise each task, or each
// implementation a task may run.
func (fs *facts) variants(p *pools.Pool) []*variant {
	if d := p.Data; d != nil {
		return fs.dataVariants(d, selected(p))
	}
	var vs []*variant
	for _, t := range p.Tasks {
		vs = append(vs, fs.taskVariants(t)...)
	}
	return vs
}

// taskVariants returns the variants of one task: the task itself, or, when
// what it runs is an interface method with known implementations and the
// task does not resolve on its own, one variant per implementation.
func (fs *facts) taskVariants(t *pools.Task) []*variant {
	base := &variant{owner: t, at: t.Submit, task: t}
	base.r, base.sl, base.held = fs.nodesChains(t.Body, t.Funcs)
	if t.Iface != nil && len(t.Body) == 0 && len(t.Funcs) == 0 {
		if send, ok := t.Submit.(*ast.SendStmt); ok {
			if impls := fs.impls[ifaceKey(fs.pass.TypesInfo.TypeOf(send.Value))]; impls != nil {
				return implVariants(base, impls, t.Iface.Name(), t.Submit)
			}
		}
		return []*variant{base}
	}
	if base.r == nil {
		if call, impls, name := fs.ifaceCallIn(t.Body, t.Funcs); call != nil {
			// The interface call runs inside the task: the task enters the
			// pool at its submission whichever implementation runs.
			return implVariants(base, impls, name, t.Submit)
		}
	}
	return []*variant{base}
}

// selected returns the branches the sends of p select, or nil when some send
// does not tell (or none is seen): then any branch may run.
func selected(p *pools.Pool) map[*pools.Branch]bool {
	if len(p.Tasks) == 0 {
		return nil
	}
	sel := make(map[*pools.Branch]bool)
	for _, t := range p.Tasks {
		if t.Branch == nil {
			return nil
		}
		sel[t.Branch] = true
	}
	return sel
}

// dataVariants returns the variants of workers that dispatch on the data
// they receive: each branch of their switch that the sends select (all of
// them when a send does not tell) with the work common to all, or the
// implementations of an interface method their loop body calls.
func (fs *facts) dataVariants(d *pools.Data, sel map[*pools.Branch]bool) []*variant {
	if len(d.Branches) == 0 {
		base := &variant{}
		base.r, base.sl, base.held = fs.nodesChains(d.Common, nil)
		if base.r != nil {
			return nil // every value resolves: one kind of work
		}
		call, impls, name := fs.ifaceCallIn(d.Common, nil)
		if call == nil {
			return nil
		}
		// When no implementation's method is slow or resolves, base is all
		// there is, and it enters the pool where the call is.
		base.owner, base.at = d, call
		return implVariants(base, impls, name, call)
	}
	var vs []*variant
	for _, b := range d.Branches {
		if sel != nil && !sel[b] {
			continue // no job of this kind is sent
		}
		v := &variant{owner: b, at: b.Clause, branch: b}
		nodes := append(append([]ast.Node(nil), d.Common...), b.Body...)
		v.r, v.sl, v.held = fs.nodesChains(nodes, nil)
		if v.r == nil {
			if call, impls, name := fs.ifaceCallIn(nodes, nil); call != nil {
				for _, iv := range implVariants(v, impls, name, call) {
					iv.branch = b
					vs = append(vs, iv)
				}
				continue
			}
		}
		vs = append(vs, v)
	}
	return vs
}

// implVariants returns, for work base whose interface call may run any of
// impls, a variant per implementation of the method named, at the node at.
// Implementations whose method neither resolves nor is slow add nothing.
func implVariants(base *variant, impls []impl, method string, at ast.Node) []*variant {
	var vs []*variant
	for _, im := range impls {
		for _, m := range im.Methods {
			if m.Name != method {
				continue
			}
			v := &variant{owner: [2]any{base.owner, im.Type}, at: at, branch: base.branch, impl: true,
				r: base.r, sl: base.sl, held: base.held}
			if v.r == nil {
				v.r = m.Resolve
			}
			if v.sl == nil {
				v.sl = m.Slow
			}
			if v.held == nil {
				v.held = m.Held
			}
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return []*variant{base}
	}
	return vs
}

// ifaceCallIn returns the first call of an interface method with known
// implementations in nodes, or in the bodies of funcs declared in this
// package, outside goroutines; with the implementations and the method.
func (fs *facts) ifaceCallIn(nodes []ast.Node, funcs []*types.Func) (*ast.CallExpr, []impl, string) {
	if len(fs.impls) == 0 {
		return nil, nil, ""
	}
	for _, fn := range funcs {
		if s := fs.local[fn]; s != nil {
			nodes = append(nodes, s.body)
		}
	}
	for _, n := range nodes {
		var found *ast.CallExpr
		var impls []impl
		var name string
		ast.Inspect(n, func(n ast.Node) bool {
			if found != nil {
				return false
			}
			switch n := n.(type) {
			case *ast.GoStmt:
				return false
			case *ast.CallExpr:
				if list, m := fs.implsOfCall(n); list != nil {
					found, impls, name = n, list, m
				}
			}
			return found == nil
		})
		if found != nil {
			return found, impls, name
		}
	}
	return nil, nil, ""
}
