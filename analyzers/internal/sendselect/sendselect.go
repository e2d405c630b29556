// Package sendselect recognises non-blocking sends,
//
//	select {
//	case ch <- v:
//		…
//	default:
//		…
//	}
//
// and says what the paths of such a select do: wait and stay in the loop
// around it, count or log, return, panic or branch out of the loop, or
// something else. Several queuecheck checks ask these questions; this package
// is the one place that answers them.
package sendselect

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"golang.org/x/tools/go/types/typeutil"
)

// A NonBlocking is a select statement with exactly one case, a send, and a
// default: it sends when a receiver or buffer slot is ready and otherwise
// runs the default at once.
type NonBlocking struct {
	Select  *ast.SelectStmt
	Case    *ast.CommClause // the send case
	Send    *ast.SendStmt   // Case.Comm
	Default *ast.CommClause
}

// Match returns sel as a NonBlocking send, if it is one.
func Match(sel *ast.SelectStmt) (NonBlocking, bool) {
	if sel.Body == nil || len(sel.Body.List) != 2 {
		return NonBlocking{}, false
	}
	nb := NonBlocking{Select: sel}
	for _, s := range sel.Body.List {
		cc, ok := s.(*ast.CommClause)
		if !ok {
			return NonBlocking{}, false
		}
		switch comm := cc.Comm.(type) {
		case nil:
			nb.Default = cc
		case *ast.SendStmt:
			nb.Case, nb.Send = cc, comm
		}
	}
	if nb.Default == nil || nb.Send == nil {
		return NonBlocking{}, false
	}
	return nb, true
}

// Coalesces reports whether the send carries no data, only a wake-up: a
// struct{} or bool. A full channel of those already holds the news, so
// dropping, retrying or parking one is not a queue that grows. A type error
// counts as one: the checks stay silent.
func Coalesces(info *types.Info, s *ast.SendStmt) bool {
	t := info.TypeOf(s.Chan)
	if t == nil {
		return true
	}
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return true
	}
	switch elem := ch.Elem().Underlying().(type) {
	case *types.Struct:
		return elem.NumFields() == 0
	case *types.Basic:
		return elem.Kind() == types.Bool || elem.Kind() == types.UntypedBool
	}
	return false
}

// CallName returns the full name of the function or method that call calls
// ("time.Sleep", "(*log.Logger).Printf", "(context.Context).Done"), or "" for
// builtins, conversions and calls of function values. Generic functions are
// named by their origin.
func CallName(info *types.Info, call *ast.CallExpr) string {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return ""
	}
	return fn.Origin().FullName()
}

// An End says how a statement list hands on control.
type End uint8

const (
	// Falls reaches the end of the list (an unlabeled break in a select case
	// counts: it leaves only the select).
	Falls End = iota
	// Continues starts the next iteration of the loop around the select.
	Continues
	// Returns returns from the function.
	Returns
	// Panics panics or ends the process (log.Fatal, os.Exit).
	Panics
	// Branches leaves the loop around the select: a break of that loop or a
	// break, continue or goto aimed at a statement around it.
	Branches
)

// A Path summarises a list of statements, such as the body of a select case,
// that sits directly in the body of a loop.
type Path struct {
	// Idle is true when every statement but a final control statement only
	// waits, counts, logs or updates a local variable with a call-free value
	// (a backoff delay).
	Idle bool
	// Waits lists the statements that wait for time to pass.
	Waits []ast.Stmt
	// Sleep is the argument of the single time.Sleep among Waits, if Waits
	// holds exactly that one call.
	Sleep ast.Expr
	// HonoursCtx is true when some wait also ends on ctx.Done().
	HonoursCtx bool
	// End says how the list hands on control; Last is the statement that does
	// it, nil when the list falls off its end.
	End  End
	Last ast.Stmt
}

// Case describes stmts, the body of a select case directly inside the loop
// labeled loop (nil when the loop has no label). Calls of the functions named
// for which waits reports true (nil: none) count as waits: a pause helper,
// a backoff the user listed.
func Case(info *types.Info, stmts []ast.Stmt, loop *types.Label, waits func(*types.Func) bool) Path {
	return summarise(info, stmts, loop, waits, true)
}

// LoopBody is like [Case] for statements directly in the body of the loop,
// where a break without a label leaves the loop.
func LoopBody(info *types.Info, stmts []ast.Stmt, loop *types.Label, waits func(*types.Func) bool) Path {
	return summarise(info, stmts, loop, waits, false)
}

func summarise(info *types.Info, stmts []ast.Stmt, loop *types.Label, waits func(*types.Func) bool, inSelect bool) Path {
	p := Path{Idle: true}
	body := stmts
	if n := len(stmts); n > 0 {
		if end, ok := endOf(info, stmts[n-1], loop, inSelect); ok {
			p.End, p.Last = end, stmts[n-1]
			body = stmts[:n-1]
		}
	}
	for _, s := range body {
		switch {
		case isWait(info, s, waits, &p):
			p.Waits = append(p.Waits, s)
		case isBookkeeping(info, s):
		default:
			p.Idle = false
		}
	}
	if len(p.Waits) != 1 {
		p.Sleep = nil
	}
	return p
}

// Leaves reports whether e leaves the loop around the list.
func (e End) Leaves() bool { return e == Returns || e == Panics || e == Branches }

// Stays reports whether e carries on with the loop around the list.
func (e End) Stays() bool { return e == Falls || e == Continues }

// IsSpin reports whether s only yields the processor (runtime.Gosched):
// a wait that does not let time pass.
func IsSpin(info *types.Info, s ast.Stmt) bool {
	call := code.StmtCall(s)
	return call != nil && CallName(info, call) == "runtime.Gosched"
}

// endOf reports how s hands on control if s is a control statement.
func endOf(info *types.Info, s ast.Stmt, loop *types.Label, inSelect bool) (End, bool) {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return Returns, true
	case *ast.BranchStmt:
		var target *types.Label
		if s.Label != nil {
			target, _ = info.Uses[s.Label].(*types.Label)
		}
		switch {
		case s.Tok == token.BREAK && s.Label == nil && inSelect:
			return Falls, true // leaves the select only
		case s.Tok == token.CONTINUE && (s.Label == nil || (target != nil && target == loop)):
			return Continues, true
		case s.Tok == token.FALLTHROUGH:
			return 0, false
		default:
			return Branches, true
		}
	case *ast.ExprStmt:
		if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok && isNoReturn(info, call) {
			return Panics, true
		}
	}
	return 0, false
}

// isNoReturn reports whether call panics or ends the process.
func isNoReturn(info *types.Info, call *ast.CallExpr) bool {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
			return true
		}
	}
	switch name := CallName(info, call); name {
	case "os.Exit", "runtime.Goexit":
		return true
	default:
		return isLogFunc(name) && knowledge.NoReturnLogWords.Match(name)
	}
}

// isWait reports whether s only waits for time to pass, and records in p
// what it learns about the wait.
func isWait(info *types.Info, s ast.Stmt, waits func(*types.Func) bool, p *Path) bool {
	switch s := s.(type) {
	case *ast.ExprStmt:
		switch x := ast.Unparen(s.X).(type) {
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(info, x).(*types.Func); ok && waits != nil && waits(fn.Origin()) {
				return true
			}
			switch CallName(info, x) {
			case "time.Sleep":
				if len(x.Args) == 1 {
					p.Sleep = x.Args[0]
				}
				return true
			case "runtime.Gosched":
				return true
			}
		case *ast.UnaryExpr:
			return x.Op == token.ARROW && IsTimerChan(info, x.X)
		}
	case *ast.SelectStmt:
		return IsTimedWait(info, s, p)
	}
	return false
}

// IsTimedWait reports whether sel waits for a timer, and perhaps for a way
// out too: every case receives from a timer, from ctx.Done() or from a stop
// channel the owner holds; the timer cases do nothing but give the timer
// back to its pool, and the others return, perhaps after giving it back.
// A way out sets p.HonoursCtx: the pause ends on cancellation or shutdown.
func IsTimedWait(info *types.Info, sel *ast.SelectStmt, p *Path) bool {
	return isTimedWait(info, sel, p, false)
}

// IsTimedWaitAtEnd is IsTimedWait for a select that ends its function: a
// timer case may also return, with results that call nothing (case
// <-timer.C: return nil), as falling off the select would.
func IsTimedWaitAtEnd(info *types.Info, sel *ast.SelectStmt, p *Path) bool {
	return isTimedWait(info, sel, p, true)
}

func isTimedWait(info *types.Info, sel *ast.SelectStmt, p *Path, atEnd bool) bool {
	timers, done := 0, 0
	for _, s := range sel.Body.List {
		cc := s.(*ast.CommClause)
		es, ok := cc.Comm.(*ast.ExprStmt)
		if !ok {
			return false
		}
		recv, ok := ast.Unparen(es.X).(*ast.UnaryExpr)
		if !ok || recv.Op != token.ARROW {
			return false
		}
		switch {
		case IsTimerChan(info, recv.X) && putsBack(info, returnsCallFree(info, cc.Body, atEnd), timerOf(info, recv.X)):
			timers++
		case (IsDone(info, recv.X) || isStop(info, recv.X)) && len(cc.Body) == 0 && atEnd:
			done++ // falling off the function's end gives up too
		case (IsDone(info, recv.X) || isStop(info, recv.X)) && len(cc.Body) >= 1:
			// The body gives up: it returns, perhaps after giving the
			// timer back to its pool or choosing which error to return
			// (if prevErr != nil { return prevErr }; return err).
			last := len(cc.Body) - 1
			if _, ok := cc.Body[last].(*ast.ReturnStmt); !ok || !putsBack(info, withoutResultChoices(info, cc.Body[:last]), anyTimer) {
				return false
			}
			done++
		default:
			return false
		}
	}
	if timers == 0 {
		return false
	}
	if done > 0 {
		p.HonoursCtx = true
	}
	return true
}

// IsTimerChan reports whether x is time.After(d), or the channel C of a
// *time.Timer or *time.Ticker.
func IsTimerChan(info *types.Info, x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		return CallName(info, x) == "time.After"
	case *ast.SelectorExpr:
		if x.Sel.Name != "C" {
			return false
		}
		t := info.TypeOf(x.X)
		if t == nil {
			return false
		}
		if ptr, ok := t.Underlying().(*types.Pointer); ok {
			t = ptr.Elem()
		}
		return code.IsExactly(t, "time", "Timer") || code.IsExactly(t, "time", "Ticker")
	}
	return false
}

// anyTimer stands for whatever timer a give-up case hands back.
var anyTimer = new(types.Var)

// timerOf returns the variable of t in t.C, or nil.
func timerOf(info *types.Info, x ast.Expr) *types.Var {
	if sel, ok := ast.Unparen(x).(*ast.SelectorExpr); ok {
		return code.Var(info, sel.X)
	}
	return nil
}

// putsBack reports whether stmts only hand the timer back to a pool or
// stop it (timerpool.Put(t), putTimer(t), t.Stop()): they do no work. With
// anyTimer, any single-argument call of a timer counts.
func putsBack(info *types.Info, stmts []ast.Stmt, timer *types.Var) bool {
	for _, st := range stmts {
		call := code.StmtCall(st)
		if call == nil {
			return false
		}
		var arg ast.Expr
		switch {
		case len(call.Args) == 1:
			arg = call.Args[0] // putTimer(t)
		case len(call.Args) == 0:
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Stop" {
				arg = sel.X // t.Stop()
			}
		}
		if arg == nil {
			return false
		}
		t := info.TypeOf(arg)
		if t == nil {
			return false
		}
		if ptr, ok := t.Underlying().(*types.Pointer); ok {
			t = ptr.Elem()
		}
		if !code.IsExactly(t, "time", "Timer") {
			return false
		}
		if timer != anyTimer && code.Var(info, arg) != timer {
			return false
		}
	}
	return true
}

// withoutResultChoices returns stmts without the if statements that only
// choose what to return: no init, no else, a condition that neither calls
// nor receives, and a body that is one return of results that neither call
// nor receive.
func withoutResultChoices(info *types.Info, stmts []ast.Stmt) []ast.Stmt {
	var kept []ast.Stmt
	for _, st := range stmts {
		if ifs, ok := st.(*ast.IfStmt); ok && ifs.Init == nil && ifs.Else == nil && len(ifs.Body.List) == 1 && !callsOrReceives(info, ifs.Cond) {
			if ret, ok := ifs.Body.List[0].(*ast.ReturnStmt); ok && !slices.ContainsFunc(ret.Results, func(e ast.Expr) bool { return callsOrReceives(info, e) }) {
				continue
			}
		}
		kept = append(kept, st)
	}
	return kept
}

// callsOrReceives reports whether e calls a function (a conversion is no
// call) or receives from a channel: either may block or work.
func callsOrReceives(info *types.Info, e ast.Expr) bool {
	return code.AnyNode(e, code.IsFuncLit, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			tv, known := info.Types[n.Fun]
			return !known || !tv.IsType()
		case *ast.UnaryExpr:
			return n.Op == token.ARROW
		}
		return false
	})
}

// returnsCallFree returns body without its last statement when atEnd is set
// and that statement is a return whose results call nothing; else body.
func returnsCallFree(info *types.Info, body []ast.Stmt, atEnd bool) []ast.Stmt {
	if !atEnd || len(body) == 0 {
		return body
	}
	ret, ok := body[len(body)-1].(*ast.ReturnStmt)
	if !ok {
		return body
	}
	for _, r := range ret.Results {
		if !code.CallFree(info, nil, r) {
			return body
		}
	}
	return body[:len(body)-1]
}

// isStop reports whether x is a stop channel the owner holds: a field or
// package variable of empty structs, closed at shutdown.
func isStop(info *types.Info, x ast.Expr) bool {
	v := code.Var(info, x)
	if v == nil || code.IsLocal(v) {
		return false
	}
	ch, ok := v.Type().Underlying().(*types.Chan)
	return ok && code.IsEmptyStruct(ch.Elem())
}

// IsDone reports whether x is a call of the Done method of a context.
func IsDone(info *types.Info, x ast.Expr) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Done" && code.ImplementsContext(info.TypeOf(sel.X))
}

// IsContext reports whether t is context.Context.
func IsContext(t types.Type) bool {
	return code.IsContext(t)
}

// IsCount reports whether s only counts something: x++, x += n, or a call of
// an atomic Add or a metric's Inc or Add.
func IsCount(info *types.Info, s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.IncDecStmt:
		return true
	case *ast.AssignStmt:
		return (s.Tok == token.ADD_ASSIGN || s.Tok == token.SUB_ASSIGN) && code.CallFree(info, nil, s.Rhs...)
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(info, call).(*types.Func)
		if !ok {
			return false
		}
		switch {
		case fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic":
			return strings.HasPrefix(fn.Name(), "Add")
		case fn.Name() == "Inc":
			return len(call.Args) == 0
		case fn.Name() == "Add" && isMetric(fn):
			return len(call.Args) == 1
		}
	}
	return false
}

// isMetric reports whether method fn belongs to a Prometheus-style counter or
// gauge, so that Add counts rather than, say, adds to a WaitGroup.
func isMetric(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	name := n.Obj().Name()
	return knowledge.MetricTypeWords.Match(name)
}

// IsLog reports whether s is a call that only logs: package log, log/slog,
// fmt printing, or a logging method of a logger type.
func IsLog(info *types.Info, s ast.Stmt) bool {
	call := code.StmtCall(s)
	if call == nil {
		return false
	}
	name := CallName(info, call)
	return isLogFunc(name) && !knowledge.NoReturnLogWords.Match(name)
}

// isLogFunc reports whether the function of that full name logs.
func isLogFunc(name string) bool {
	switch {
	case knowledge.LogCallPrefixes.Match(name):
		return true
	case strings.HasPrefix(name, "("):
		// A method of a logger of another library (logr, zap, logrus): the
		// receiver's type says it logs, the method name says at what level.
		recv, method, ok := strings.Cut(name[1:], ").")
		if !ok {
			return false
		}
		recv = recv[strings.LastIndex(recv, ".")+1:]
		return (knowledge.LoggerTypeWords.Match(recv) || knowledge.LoggerTypes.Has(recv)) && knowledge.LoggerMethods.Has(strings.TrimRight(method, "fw"))
	}
	return false
}

// isBookkeeping reports whether s only keeps the books between attempts:
// it counts, logs or updates local variables (isLocalUpdate), or is an if
// statement with a call-free condition whose branches only do that, such as
// a capped backoff (if delay < maxDelay { delay *= 2 }).
func isBookkeeping(info *types.Info, s ast.Stmt) bool {
	if IsCount(info, s) || IsLog(info, s) {
		return true
	}
	switch s := s.(type) {
	case *ast.IfStmt:
		if s.Init != nil || !code.CallFree(info, nil, s.Cond) {
			return false
		}
		for _, st := range s.Body.List {
			if !isBookkeeping(info, st) {
				return false
			}
		}
		return s.Else == nil || isBookkeeping(info, s.Else)
	case *ast.BlockStmt:
		for _, st := range s.List {
			if !isBookkeeping(info, st) {
				return false
			}
		}
		return true
	}
	return isLocalUpdate(info, s)
}

// isLocalUpdate reports whether s assigns local variables values that are
// call-free or only pick a delay: a backoff delay doubling, an attempt
// number, jitter (j := rand.Int63n(n)), a backoff's next interval
// (d := b.NextBackOff()). A definition counts: it holds a value for this
// attempt only.
func isLocalUpdate(info *types.Info, s ast.Stmt) bool {
	as, ok := s.(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, lhs := range as.Lhs {
		id, ok := ast.Unparen(lhs).(*ast.Ident)
		if !ok {
			return false
		}
		if id.Name == "_" {
			continue
		}
		v, ok := info.ObjectOf(id).(*types.Var)
		if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
			return false
		}
	}
	return code.CallFree(info, isDelay, as.Rhs...)
}

// isDelay reports whether a call of fn only picks the next delay: jitter
// from math/rand, or a backoff's next interval (b.NextBackOff(),
// b.Duration()), a method of a backoff type that returns a time.Duration.
func isDelay(fn *types.Func) bool {
	return isRandom(fn) || isBackoffDelay(fn)
}

func isBackoffDelay(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Recv() == nil || sig.Results().Len() != 1 || !code.IsExactly(sig.Results().At(0).Type(), "time", "Duration") {
		return false
	}
	return knowledge.BackoffWords.Match(strings.ToLower(code.TypeName(sig.Recv().Type())))
}

// isRandom reports whether fn is a function or method of math/rand: jitter,
// which only picks a number.
func isRandom(fn *types.Func) bool {
	return fn.Pkg() != nil && knowledge.RandomPackages.Has(fn.Pkg().Path())
}
