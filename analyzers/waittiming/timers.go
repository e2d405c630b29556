package waittiming

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// Timers are recognised by what they do. Besides prometheus.NewTimer and
// ObserveDuration, the admission facts say which functions of the service
// (in this package or another) start a timer, stop one, record the time
// since a start they are given, or return a function that stops one.

// timerHelper returns how the function call calls measures time, or nil.
func (c *checker) timerHelper(call *ast.CallExpr) *timing.Helper {
	if !c.timers {
		return nil
	}
	if ff, _ := c.res.HelperCall(call); ff != nil {
		return ff.Timer
	}
	return nil
}

// isTimerStart reports whether call starts a timer: prometheus.NewTimer(o),
// a constructor that keeps the time it is called, or a function that
// returns the function stopping its measurement.
func (c *checker) isTimerStart(call *ast.CallExpr) bool {
	if timing.IsTimer(c.pass.TypesInfo, call) {
		return true
	}
	h := c.timerHelper(call)
	return h != nil && (h.Starts != "" || h.StopFunc)
}

// isTimerStop reports whether call may stop a timer held in a variable:
// t.ObserveDuration() of Prometheus, a method that records the time since
// its receiver's start, or the call of a stop function.
func (c *checker) isTimerStop(call *ast.CallExpr) bool {
	if timing.IsObserveDuration(c.pass.TypesInfo, call) {
		return true
	}
	if h := c.timerHelper(call); h != nil && h.Stops != "" {
		return true
	}
	if !c.timers || len(call.Args) != 0 {
		return false
	}
	v := localVar(c.pass.TypesInfo, call.Fun)
	return v != nil && isFunc(v.Type())
}

// stops reports whether end stops the timer start started.
func (c *checker) stops(start, end *ast.CallExpr) bool {
	info := c.pass.TypesInfo
	if timing.IsTimer(info, start) {
		return timing.IsObserveDuration(info, end)
	}
	h := c.timerHelper(start)
	if h == nil {
		return false
	}
	if h.StopFunc {
		return localVar(info, end.Fun) != nil // stop := track("op") … stop()
	}
	eh := c.timerHelper(end)
	sel, ok := ast.Unparen(end.Fun).(*ast.SelectorExpr)
	if eh == nil || eh.Stops != h.Starts || !ok {
		return false
	}
	return sameNamed(info.TypeOf(start), info.TypeOf(sel.X))
}

// timerVar returns the variable a stop call stops: t in t.ObserveDuration(),
// stop in stop().
func timerVar(info *types.Info, end *ast.CallExpr) *types.Var {
	if sel, ok := ast.Unparen(end.Fun).(*ast.SelectorExpr); ok {
		return localVar(info, sel.X)
	}
	return localVar(info, end.Fun)
}

// isPrometheusTimer reports whether call is prometheus.NewTimer(o): its
// observer can also take the wait.
func (c *checker) isPrometheusTimer(call *ast.CallExpr) bool {
	return timing.IsTimer(c.pass.TypesInfo, call)
}

// recordsSince reports whether argument i of call is a start the callee
// records the time since: a time.Time parameter named like a start, of a
// function named like a measurement, any time.Time of a deferred call, or
// the parameter a recorder of the service's own measures from; never one
// the callee's body does not read (its package was analyzed, and its
// admission fact lists it: a handler of a family that shares a signature
// but times nothing).
func (c *checker) recordsSince(call *ast.CallExpr, i int, deferred bool) bool {
	if ff, _ := c.res.HelperCall(call); ff != nil && slices.Contains(ff.UnreadTimes, i) {
		return false // the callee never reads it, whatever it is called
	}
	if timing.IsStartParam(c.pass.TypesInfo, call, i, deferred) || c.relativeStartParam(call, i, deferred) {
		return true
	}
	h := c.timerHelper(call)
	return h != nil && h.Since && h.Param == i
}

// relativeStartParam reports whether argument i of call is a reading of a
// relative clock (start := timex.Now(), a time.Duration since a fixed
// instant) handed to a time.Duration parameter named like a start, or to
// any such parameter of a deferred call: the callee measures from it as
// IsStartParam's recorders do from a time.Time.
func (c *checker) relativeStartParam(call *ast.CallExpr, i int, deferred bool) bool {
	info := c.pass.TypesInfo
	if i >= len(call.Args) {
		return false
	}
	if v := localVar(info, call.Args[i]); v == nil || !c.isRelativeReading(v) {
		return false
	}
	sig := signatureOf(info, call)
	if sig == nil || i >= sig.Params().Len() || (sig.Variadic() && i >= sig.Params().Len()-1) {
		return false
	}
	p := sig.Params().At(i)
	return code.IsExactly(p.Type(), "time", "Duration") && (deferred || timing.IsStartName(p.Name()))
}

// isRelativeReading reports whether v is a time.Duration the function
// assigns a relative clock's reading (start := timex.Now()).
func (c *checker) isRelativeReading(v *types.Var) bool {
	return code.IsExactly(v.Type(), "time", "Duration") && len(c.starts[v]) > 0
}

func isFunc(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// sameNamed reports whether a and b are the same named type, or pointers to
// it.
func sameNamed(a, b types.Type) bool {
	na, nb := namedType(a), namedType(b)
	return na != nil && na == nb
}

func namedType(t types.Type) *types.TypeName {
	if t == nil {
		return nil
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}
