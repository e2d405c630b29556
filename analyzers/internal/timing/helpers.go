package timing

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
)

// A Helper says how a function of the service's own measures time for its
// callers, learned from what its body does rather than from its name: a
// hand-written prometheus.NewTimer and ObserveDuration, go-metrics'
// MeasureSince, a "defer track(name)()" tracer, an OpenTelemetry Record of
// the time since a start a type keeps. Package admission records it in its
// function facts, so that callers in other packages know it too.
type Helper struct {
	// Since is set when the function records the time since its time.Time
	// parameter Param: metrics.MeasureSince(key, start) written by hand.
	Since bool
	Param int
	// Starts names the time.Time field of its first result that a
	// constructor sets to the time it is called: t := stats.NewTimer(h)
	// starts a timer.
	Starts string
	// Stops names the time.Time field of its receiver that a method records
	// the time since: t.ObserveDuration() stops the timer.
	Stops string
	// StopFunc is set when the function reads the clock and returns a
	// function that records the time since: defer track("op")().
	StopFunc bool
	// RecordsFirst is set, with Since, when the function reads the time
	// since its parameter before any call but those of the quiet packages
	// (atomic counters, the clock, logging): a recorder that only records
	// (rp.recordWait(start)), not a handler that is handed the start and
	// does its work before it records (QueryHandler(start, w)).
	RecordsFirst bool
	// Runs is set when the function times a call of its func-typed
	// parameter Param: it reads the clock (or starts a Prometheus timer),
	// calls the parameter, and records the time since (a wrapper such as
	// metrics.Time("op", func() error {…})). What it times is what its
	// callers hand it.
	Runs bool
}

func (h *Helper) String() string {
	switch {
	case h.Since:
		return "measures since param " + strconv.Itoa(h.Param)
	case h.Starts != "":
		return "starts timer ." + h.Starts
	case h.Stops != "":
		return "stops timer ." + h.Stops
	case h.StopFunc:
		return "returns stop func"
	case h.Runs:
		return "times a call of param " + strconv.Itoa(h.Param)
	}
	return ""
}

// HelperOf returns how the declared function fn, with the given body,
// measures time, or nil. It looks at the signature first: most functions
// take no time.Time, return no timer and keep no start.
func HelperOf(info *types.Info, fn *types.Func, body *ast.BlockStmt) *Helper {
	if body == nil {
		return nil
	}
	sig := fn.Signature()
	for i := range sig.Params().Len() {
		if p := sig.Params().At(i); (code.IsTime(p.Type()) || isDuration(p.Type())) && measuresSince(info, body, func(e ast.Expr) bool { return refersTo(info, e, p) }) {
			return &Helper{Since: true, Param: i, RecordsFirst: recordsFirst(info, body, p)}
		}
	}
	if recv := sig.Recv(); recv != nil {
		if fields := timeFields(recv.Type()); len(fields) > 0 {
			var stops string
			measuresSince(info, body, func(e ast.Expr) bool {
				sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
				if ok && refersTo(info, sel.X, recv) && fields[sel.Sel.Name] {
					stops = sel.Sel.Name
					return true
				}
				return false
			})
			if stops != "" {
				return &Helper{Stops: stops}
			}
		}
	}
	if i := runsOf(info, fn, body); i >= 0 {
		return &Helper{Runs: true, Param: i}
	}
	if sig.Results().Len() == 0 {
		return nil
	}
	res := sig.Results().At(0).Type()
	if fields := timeFields(res); len(fields) > 0 {
		if f := startedField(info, body, res, fields); f != "" {
			return &Helper{Starts: f}
		}
	}
	if s, ok := res.Underlying().(*types.Signature); ok && s.Params().Len() == 0 && returnsStopFunc(info, body) {
		return &Helper{StopFunc: true}
	}
	return nil
}

// runsOf returns the func-typed parameter of fn that body times: the body
// reads the clock (or starts a Prometheus timer) before its one call of
// the parameter, outside goroutines, and measures the time since after it
// (or in a defer), or -1.
func runsOf(info *types.Info, fn *types.Func, body *ast.BlockStmt) int {
	params := fn.Signature().Params()
	for i := range params.Len() {
		p := params.At(i)
		if _, ok := p.Type().Underlying().(*types.Signature); !ok {
			continue
		}
		var calls []*ast.CallExpr
		code.AnyNode(body, code.IsGoStmt, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && refersTo(info, call.Fun, p) {
				calls = append(calls, call)
			}
			return false
		})
		if len(calls) != 1 || runsAgain(body, calls[0]) {
			continue
		}
		at := calls[0].Pos()
		started := code.AnyNode(body, code.IsGoStmt, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			return ok && call.Pos() < at && (IsTimestamp(info, call) || IsTimer(info, call))
		})
		if !started {
			continue // most callbacks are called with no clock around them
		}
		ended := code.AnyNode(body, code.IsGoStmt, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return false
			}
			if IsObserveDuration(info, call) {
				return true
			}
			_, end, ok := Elapsed(info, call)
			return ok && isNow(info, end, call) && (call.Pos() > at || insideDefer(body, call))
		})
		if ended {
			return i
		}
	}
	return -1
}

// runsAgain reports whether the call can run more than once in body: it
// lies in a loop, or a goto after it jumps back to a label before it (start:
// err := fn(); if retryable(err) { … goto start }). A wrapper that calls
// what it is handed again retries it; the time since its start is how long
// it has been trying, not the figure of one call.
func runsAgain(body *ast.BlockStmt, call *ast.CallExpr) bool {
	labels := make(map[string]bool) // labels before the call
	again := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			if n.Pos() < call.Pos() && call.End() <= n.End() {
				again = true
			}
		case *ast.LabeledStmt:
			if n.Pos() < call.Pos() {
				labels[n.Label.Name] = true
			}
		case *ast.BranchStmt:
			if n.Tok == token.GOTO && n.Label != nil && n.Pos() > call.End() && labels[n.Label.Name] {
				again = true
			}
		}
		return !again
	})
	return again
}

// insideDefer reports whether n lies in a defer statement of body.
func insideDefer(body *ast.BlockStmt, n ast.Node) bool {
	return code.AnyNode(body, nil, func(x ast.Node) bool {
		d, ok := x.(*ast.DeferStmt)
		return ok && d.Pos() <= n.Pos() && n.End() <= d.End()
	})
}

// measuresSince reports whether body (outside goroutines) computes the time
// from a start that isStart accepts up to now: time.Since(start),
// time.Now().Sub(start).
func measuresSince(info *types.Info, body ast.Node, isStart func(ast.Expr) bool) bool {
	return code.AnyNode(body, code.IsGoStmt, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		start, end, ok := Elapsed(info, call)
		return ok && isStart(start) && isNow(info, end, call)
	})
}

// recordsFirst reports whether body reads the time since p before it
// makes any call that is not of a quiet package (knowledge.QuietPackages).
func recordsFirst(info *types.Info, body ast.Node, p *types.Var) bool {
	since, worked := false, false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || since || worked {
			return !since && !worked
		}
		if start, end, ok := Elapsed(info, call); ok && refersTo(info, start, p) && isNow(info, end, call) {
			since = true
			return false
		}
		worked = !quietCall(info, call)
		return !worked
	})
	return since
}

// quietCall reports whether call is a conversion, a builtin, or a call of a
// function or method of a quiet package: bookkeeping, not work.
func quietCall(info *types.Info, call *ast.CallExpr) bool {
	if tv, ok := info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return true
	}
	fn := code.CalleeFunc(info, call)
	return fn != nil && fn.Pkg() != nil && knowledge.QuietPackages.Has(fn.Pkg().Path())
}

// isNow reports whether the end of an elapsed-time call is now:
// time.Since(x) itself, or time.Now() in time.Now().Sub(x).
func isNow(info *types.Info, end ast.Expr, call *ast.CallExpr) bool {
	if end == ast.Expr(call) {
		return true
	}
	now, ok := ast.Unparen(end).(*ast.CallExpr)
	return ok && IsTimestamp(info, now)
}

func refersTo(info *types.Info, e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == v
}

// HasTimeField reports whether t is, or points to, a named struct with a
// time.Time field: a type a timer can be.
func HasTimeField(t types.Type) bool { return len(timeFields(t)) > 0 }

// timeFields returns the names of the time.Time fields of the struct t is,
// or points to, when it is a named type.
func timeFields(t types.Type) map[string]bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var fields map[string]bool
	for f := range st.Fields() {
		if code.IsTime(f.Type()) {
			if fields == nil {
				fields = make(map[string]bool)
			}
			fields[f.Name()] = true
		}
	}
	return fields
}

// startedField returns the time.Time field of the result type res that body
// sets to the time of the call: in a composite literal (&Timer{start:
// time.Now()}) or by an assignment (t.start = time.Now()). One field, or "".
func startedField(info *types.Info, body *ast.BlockStmt, res types.Type, fields map[string]bool) string {
	named := namedOf(res)
	set := ""
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CompositeLit:
			if namedOf(info.TypeOf(n)) != named {
				return true
			}
			for i, elt := range n.Elts {
				key, value, isKey := eltField(named, i, elt)
				if isKey && fields[key] && isClockRead(info, value) {
					ok = ok && (set == "" || set == key)
					set = key
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				sel, isSel := ast.Unparen(lhs).(*ast.SelectorExpr)
				if !isSel || i >= len(n.Rhs) || !fields[sel.Sel.Name] || namedOf(info.TypeOf(sel.X)) != named || !isClockRead(info, n.Rhs[i]) {
					continue
				}
				ok = ok && (set == "" || set == sel.Sel.Name)
				set = sel.Sel.Name
			}
		}
		return true
	})
	if !ok {
		return ""
	}
	return set
}

// eltField returns the field of the struct type named that element i of
// a composite literal of it sets, and the value it sets: the key of a
// keyed element (Stopwatch{start: time.Now()}), the field at i of an
// element without keys (Stopwatch{time.Now(), timers}).
func eltField(named *types.Named, i int, elt ast.Expr) (string, ast.Expr, bool) {
	if kv, ok := elt.(*ast.KeyValueExpr); ok {
		id, ok := kv.Key.(*ast.Ident)
		if !ok {
			return "", nil, false
		}
		return id.Name, kv.Value, true
	}
	if named == nil {
		return "", nil, false
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return "", nil, false
	}
	return st.Field(i).Name(), elt, true
}

func isClockRead(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && IsTimestamp(info, call)
}

func namedOf(t types.Type) *types.Named {
	n := code.NamedOf(t)
	if n != nil {
		n = n.Origin()
	}
	return n
}

// returnsStopFunc reports whether body reads the clock into a local
// variable and returns a function literal that measures the time since it.
func returnsStopFunc(info *types.Info, body *ast.BlockStmt) bool {
	starts := make(map[*types.Var]bool)
	for _, st := range body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isClockRead(info, as.Rhs[0]) {
			continue
		}
		if v := code.Var(info, as.Lhs[0]); code.IsLocal(v) {
			starts[v] = true
		}
	}
	if len(starts) == 0 || len(body.List) == 0 {
		return false
	}
	ret, ok := body.List[len(body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return false
	}
	lit, ok := ast.Unparen(ret.Results[0]).(*ast.FuncLit)
	return ok && measuresSince(info, lit.Body, func(e ast.Expr) bool {
		v := code.Var(info, e)
		return v != nil && starts[v]
	})
}
