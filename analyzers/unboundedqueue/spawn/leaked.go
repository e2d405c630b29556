package spawn

import (
	"fmt"
	"go/ast"
	"go/types"
	"iter"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// Goroutines that never end: a function makes a channel, starts goroutines
// that range over it (upload workers, a collector of results), and nothing
// ever closes it. When the function returns, each goroutine stays parked
// on its receive for the life of the process: one set more per call. The
// channel must be the function's own (a variable it makes and uses only to
// send, receive, range, and ask len or cap of, directly or in literals),
// so that no other code can close it; a channel handed to a call, stored,
// returned or captured by a literal that is not one of the goroutines may
// be closed elsewhere, and is left alone. A function that runs once
// (main, init) leaks nothing that grows.

// leakedReceivers reports the goroutines that range over a channel their
// function made and never closes.
func (c requestSpawns) leakedReceivers() {
	for cur, fn := range c.repeatedGoStmts() {
		gs := cur.Node().(*ast.GoStmt)
		lit, ok := ast.Unparen(gs.Call.Fun).(*ast.FuncLit)
		if !ok {
			continue
		}
		ch := rangedLocalChan(c.pass.TypesInfo, lit.Body, fn.Node())
		if ch == nil || !c.ownChanNeverClosed(fn, ch) {
			continue
		}
		if c.reported(gs) {
			continue
		}
		c.asked[cur.Node()] = true
		c.findings = append(c.findings, leakedFinding(c.sh, gs, fn, ch))
	}
}

// repeatedGoStmts yields the go statements, with their functions, of the
// functions that may run more than once: all but main, init and the
// literals inside them (runsOnce), whose leaks do not grow.
func (c requestSpawns) repeatedGoStmts() iter.Seq2[inspector.Cursor, inspector.Cursor] {
	return func(yield func(inspector.Cursor, inspector.Cursor) bool) {
		for _, cur := range c.sh.GoStmts {
			fn := code.EnclosingFunc(cur)
			if !fn.Valid() || runsOnce(fn) {
				continue
			}
			if !yield(cur, fn) {
				return
			}
		}
	}
}

// reported reports whether another kind already reported the go
// statement gs.
func (c requestSpawns) reported(gs *ast.GoStmt) bool {
	for _, f := range c.findings {
		if f.Diag.Pos == gs.Pos() {
			return true
		}
	}
	return false
}

// runsOnce reports whether fn is main or init, or a literal inside one.
func runsOnce(fn inspector.Cursor) bool {
	for d := range fn.Enclosing((*ast.FuncDecl)(nil)) {
		decl := d.Node().(*ast.FuncDecl)
		return decl.Recv == nil && (decl.Name.Name == "main" || decl.Name.Name == "init")
	}
	return false
}

// rangedLocalChan returns the channel that a range statement of the
// goroutine's body, at its top level (the last one there), ranges over
// (for x := range ch), when it is a variable declared in the function fn
// outside the body, or nil.
func rangedLocalChan(info *types.Info, body *ast.BlockStmt, fn ast.Node) *types.Var {
	var rs *ast.RangeStmt
	for _, st := range body.List {
		if r, ok := st.(*ast.RangeStmt); ok {
			rs = r
		}
	}
	if rs == nil {
		return nil
	}
	v := code.Var(info, rs.X)
	if v == nil || v.IsField() || !code.IsChan(v.Type()) || !code.Inside(v.Pos(), fn) || code.Inside(v.Pos(), body) {
		return nil
	}
	return v
}

// ownChanNeverClosed reports whether the channel variable ch is made by
// the function fn (ch := make(chan T, n)), never closed, and used only to
// send, receive, range, and ask len or cap of: no other code can close it.
func (c requestSpawns) ownChanNeverClosed(fn inspector.Cursor, ch *types.Var) bool {
	return c.neverClosed(fn, ch, 0, true, nil)
}

// neverClosed reports whether the channel variable ch, made in fn (when
// mustMake) or a parameter of it, is never closed there and used only to
// send, receive, range, ask len or cap, or hand to a function of the
// package that does the same with it (one call deep). A close inside
// closer (a goroutine's literal; nil: none) is allowed: its sender's.
func (c requestSpawns) neverClosed(fn inspector.Cursor, ch *types.Var, depth int, mustMake bool, closer ast.Node) bool {
	info := c.pass.TypesInfo
	made, ok := !mustMake, true
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		if !ok {
			break
		}
		id := cur.Node().(*ast.Ident)
		if info.Defs[id] == ch {
			if mustMake {
				made = c.madeAt(cur)
			}
			continue
		}
		if info.Uses[id] != ch {
			continue
		}
		if capturedElsewhere(cur, fn) {
			ok = false // a literal that may run, and be kept, anywhere
			break
		}
		switch p := cur.Parent().Node().(type) {
		case *ast.SendStmt:
			ok = p.Chan == id
		case *ast.UnaryExpr: // <-ch
		case *ast.RangeStmt:
			ok = p.X == id
		case *ast.CallExpr:
			name := code.BuiltinName(info, p)
			ok = name == "len" || name == "cap" || (depth == 0 && c.keepsOpen(p, id)) ||
				(name == "close" && closer != nil && code.Inside(id.Pos(), closer))
		default:
			ok = false // closed, handed over, stored, assigned again
		}
	}
	return made && ok
}

// capturedElsewhere reports whether the identifier at cur lies in a
// function literal of fn that is neither a goroutine's function nor called
// on the spot: a callback kept somewhere (s.submit = func(x T) { ch <- x }),
// through which other code reaches the channel.
func capturedElsewhere(cur, fn inspector.Cursor) bool {
	for p := cur.Parent(); p.Valid() && p != fn; p = p.Parent() {
		lit, ok := p.Node().(*ast.FuncLit)
		if !ok {
			continue
		}
		call, ok := p.Parent().Node().(*ast.CallExpr)
		if !ok || call.Fun != lit {
			return true
		}
	}
	return false
}

// keepsOpen reports whether the call hands the channel id to a function
// of this package that keeps it open: its parameter is never closed and
// only sent on, received from, ranged over or measured there.
func (c requestSpawns) keepsOpen(call *ast.CallExpr, id *ast.Ident) bool {
	fn := c.sh.Callee(call)
	if fn == nil || fn.Pkg() != c.pass.Pkg {
		return false
	}
	i := code.ArgIndex(call, id)
	params := fn.Signature().Params()
	if i < 0 || i >= params.Len() || (fn.Signature().Variadic() && i >= params.Len()-1) {
		return false
	}
	decl, ok := c.sh.Res.FuncDecl(fn)
	if !ok {
		return false
	}
	return c.neverClosed(decl, params.At(i), 1, false, nil)
}

// madeAt reports whether the definition at cur is assigned a make(chan …).
func (c requestSpawns) madeAt(cur inspector.Cursor) bool {
	as, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	for i, l := range as.Lhs {
		if l == cur.Node() {
			call, ok := ast.Unparen(as.Rhs[i]).(*ast.CallExpr)
			return ok && code.BuiltinName(c.pass.TypesInfo, call) == "make"
		}
	}
	return false
}

// leakedFinding builds the diagnostic of a goroutine that ranges over a
// channel nothing closes. It has no fix: where the last send is, and so
// where the close belongs, is the producer's to say.
func leakedFinding(sh *shared.Pkg, gs *ast.GoStmt, fn inspector.Cursor, ch *types.Var) *shared.Finding {
	return &shared.Finding{
		Diag: analysis.Diagnostic{
			Pos:      gs.Pos(),
			End:      gs.End(),
			Category: "detached",
			Message: fmt.Sprintf("goroutine started by %s ranges over %s, a channel the function made and nothing closes: it never ends, and one more is left parked on it per call of %s; by hand: close %s once the last value is sent (defer close(%s) in the producer)",
				sh.FuncName(fn), ch.Name(), sh.FuncName(fn), ch.Name(), ch.Name()),
		},
	}
}
