package resolverpool

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// A task that retries work that resolves and waits between attempts holds
// its slot through every wait: the other tasks' lookups queue behind a sleep.
// The wait is a time.Sleep, a timer (in a select that may also watch
// ctx.Done(), which ends the wait early on cancellation but still holds the
// slot until then), or a helper that only pauses. A ticker is not a wait
// between attempts: a loop driven by one is periodic work.

// retries finds, in each function of the package, the parameter it calls in
// a loop that waits (a retry helper), then the loops that wait between
// attempts at resolving work, and spreads those to the callers.
func (fs *facts) retries() {
	for _, s := range fs.order {
		if takesFunc(s.fn) {
			s.retry = fs.retriedParam(s)
		}
	}
	if !fs.anyResolve {
		return // no loop here can attempt resolving work
	}
	for _, s := range fs.order {
		if _, _, held := fs.nodesChains([]ast.Node{s.body}, nil); held != nil {
			s.held = via(s.fn, held)
		}
	}
	fs.spread(func(s *summary) *chain { return &s.held }, fs.callers)
}

// takesFunc reports whether fn has a parameter of function type.
func takesFunc(fn *types.Func) bool {
	params := fn.Signature().Params()
	for i := range params.Len() {
		if _, ok := params.At(i).Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

// retriedParam returns 1 + the index of the parameter of function type that
// s calls in a loop that also waits, or 0.
func (fs *facts) retriedParam(s *summary) int {
	params := s.fn.Signature().Params()
	found := 0
	ast.Inspect(s.body, func(n ast.Node) bool {
		if found > 0 {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			body, ok := retryLoopBody(fs.pass.TypesInfo, n)
			if !ok || fs.waitIn(body) == nil {
				return true
			}
			ast.Inspect(body, func(m ast.Node) bool {
				if call, ok := m.(*ast.CallExpr); ok && found == 0 {
					if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
						for i := range params.Len() {
							if fs.pass.TypesInfo.Uses[id] == params.At(i) {
								found = i + 1
							}
						}
					}
				}
				return found == 0
			})
		}
		return true
	})
	return found
}

// nodesChains returns the first resolving, slow and held chains of what the
// nodes and the functions run, without the goroutines they start.
func (fs *facts) nodesChains(nodes []ast.Node, funcs []*types.Func) (r, sl, held chain) {
	add := func(cr, csl, ch chain) {
		if r == nil {
			r = cr
		}
		if sl == nil {
			sl = csl
		}
		if held == nil {
			held = ch
		}
	}
	info := fs.pass.TypesInfo
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if body, ok := retryLoopBody(info, n); ok {
					if w := fs.waitIn(body); w != nil && fs.resolvesIn(body) {
						add(nil, nil, w)
					}
				}
			case *ast.CallExpr:
				if fn := code.Callee(info, n); fn != nil && fn.Pkg() != nil {
					cr, csl := fs.chains(fn)
					h, retry := fs.heldOf(fn)
					if h == nil && retry > 0 && retry <= len(n.Args) && fs.argResolves(n.Args[retry-1]) {
						// lib.Retry(3, ping): the helper's wait, between
						// attempts at what ping resolves.
						h = csl
						if h == nil {
							h = chain{stepOf(fn)}
						}
					}
					add(cr, csl, h)
				}
				// A function handed to a call may resolve there (see note).
				for _, arg := range n.Args {
					if fn := funcRef(info, arg); fn != nil && fn.Pkg() != nil {
						cr, _ := fs.chains(fn)
						add(cr, nil, nil)
					}
				}
			}
			return true
		})
	}
	for _, fn := range funcs {
		if fn.Pkg() != nil {
			cr, csl := fs.chains(fn)
			h, _ := fs.heldOf(fn)
			add(cr, csl, h)
		}
	}
	return r, sl, held
}

// argResolves reports whether a function handed to a call resolves: a
// declared function or method value, or a literal.
func (fs *facts) argResolves(arg ast.Expr) bool {
	if fn := funcRef(fs.pass.TypesInfo, arg); fn != nil && fn.Pkg() != nil {
		r, _ := fs.chains(fn)
		return r != nil
	}
	if lit, ok := ast.Unparen(arg).(*ast.FuncLit); ok {
		return fs.resolvesIn(lit.Body)
	}
	return false
}

// resolvesIn reports whether n calls, outside goroutines, a function that
// resolves, or hands one to a call.
func (fs *facts) resolvesIn(n ast.Node) bool {
	resolves := func(fn *types.Func) bool {
		if fn == nil || fn.Pkg() == nil {
			return false
		}
		r, _ := fs.chains(fn)
		return r != nil
	}
	return code.AnyCall(n, code.IsGoStmt, func(call *ast.CallExpr) bool {
		return resolves(code.Callee(fs.pass.TypesInfo, call)) ||
			slices.ContainsFunc(call.Args, func(arg ast.Expr) bool { return resolves(funcRef(fs.pass.TypesInfo, arg)) })
	})
}

// retryLoopBody returns the body of a loop that may repeat an attempt: any
// for loop, and a range over a number, slice, array or map; not a range over
// a channel (a consumer) or a function iterator.
func retryLoopBody(info *types.Info, n ast.Node) (*ast.BlockStmt, bool) {
	switch n := n.(type) {
	case *ast.ForStmt:
		return n.Body, true
	case *ast.RangeStmt:
		t := info.TypeOf(n.X)
		if t == nil {
			return nil, false
		}
		switch t.Underlying().(type) {
		case *types.Chan, *types.Signature:
			return nil, false
		}
		return n.Body, true
	}
	return nil, false
}

// waitIn returns the chain of the first wait in a loop body, outside
// function literals, goroutines and nested loops: time.Sleep, a helper that
// only pauses, a receive from a timer, or a select that waits for a timer
// (and perhaps ctx.Done()) and does nothing else.
func (fs *facts) waitIn(body *ast.BlockStmt) chain {
	var w chain
	info := fs.pass.TypesInfo
	ast.Inspect(body, func(n ast.Node) bool {
		if w != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.CallExpr:
			fn := code.CalleeFunc(info, n)
			switch {
			case code.IsFunc(fn, "time", "Sleep"):
				w = chain{stepOf(fn)}
			case fn != nil && fs.adm != nil:
				if h, _ := fs.adm.HelperCall(n); h != nil && h.Pause != nil {
					w = chain{stepOf(fn), {Name: h.Pause.Name}}
				}
			}
		case *ast.SelectStmt:
			if timerWait(info, n) {
				w = chain{{Name: "a timer"}}
			}
			return w == nil
		case *ast.ExprStmt:
			if u, ok := ast.Unparen(n.X).(*ast.UnaryExpr); ok && u.Op == token.ARROW && isTimer(info, u.X) {
				w = chain{{Name: "a timer"}}
			}
		}
		return true
	})
	return w
}

// timerWait reports whether sel only waits: every case receives from a timer
// or a Done channel, at least one from a timer, and the timer cases do no
// work.
func timerWait(info *types.Info, sel *ast.SelectStmt) bool {
	timers := 0
	for _, s := range sel.Body.List {
		cc := s.(*ast.CommClause)
		var x ast.Expr
		switch comm := cc.Comm.(type) {
		case *ast.ExprStmt:
			x = comm.X
		case *ast.AssignStmt:
			if len(comm.Rhs) == 1 {
				x = comm.Rhs[0]
			}
		default:
			return false // a send, or the default case
		}
		recv, ok := ast.Unparen(x).(*ast.UnaryExpr)
		if !ok || recv.Op != token.ARROW {
			return false
		}
		switch {
		case isTimer(info, recv.X):
			for _, st := range cc.Body {
				if br, ok := st.(*ast.BranchStmt); !ok || br.Tok != token.CONTINUE {
					return false
				}
			}
			timers++
		case isDoneCall(recv.X):
		default:
			return false
		}
	}
	return timers > 0
}

// isTimer reports whether x is a timer's channel: time.After(d) or the C of
// a *time.Timer, not of a ticker.
func isTimer(info *types.Info, x ast.Expr) bool {
	if !sendselect.IsTimerChan(info, x) {
		return false
	}
	if sel, ok := ast.Unparen(x).(*ast.SelectorExpr); ok {
		return !code.IsNamed(info.TypeOf(sel.X), "time", "Ticker")
	}
	return true
}

// isDoneCall reports whether x calls a method named Done: ctx.Done().
func isDoneCall(x ast.Expr) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	return ok && code.CalleeName(call) == "Done" && len(call.Args) == 0
}
