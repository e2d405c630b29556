// Package timing recognises how code measures time: a timestamp read from
// the clock, a Prometheus timer, the duration from a start to now, and a
// recorder's start parameter. The waittiming check pairs them into
// measurements; package admission says what waits between.
package timing

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
)

// PrometheusPath is the import path of the Prometheus client library.
const PrometheusPath = "github.com/prometheus/client_golang/prometheus"

// IsTimestamp reports whether call reads the clock: time.Now(), or a
// function, method or func-typed field named Now or now that takes no
// arguments and returns a time.Time (an injected clock: s.clock.Now()) or
// a time.Duration (a relative clock, the time since a fixed instant:
// go-zero's timex.Now(), which its timex.Since measures from).
func IsTimestamp(info *types.Info, call *ast.CallExpr) bool {
	if len(call.Args) != 0 {
		return false
	}
	if name := code.CalleeName(call); name != "Now" && name != "now" {
		return false
	}
	t := info.TypeOf(call)
	return code.IsTime(t) || isDuration(t)
}

func isDuration(t types.Type) bool { return t != nil && code.IsExactly(t, "time", "Duration") }

// IsTimer reports whether call starts a Prometheus timer:
// prometheus.NewTimer(o).
func IsTimer(info *types.Info, call *ast.CallExpr) bool {
	if code.CalleeName(call) != "NewTimer" {
		return false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && code.IsFunc(fn, PrometheusPath, "NewTimer") && len(call.Args) == 1
}

// IsObserveDuration reports whether call ends a Prometheus timer:
// t.ObserveDuration() or t.ObserveDurationWithExemplar(e).
func IsObserveDuration(info *types.Info, call *ast.CallExpr) bool {
	if !strings.HasPrefix(code.CalleeName(call), "ObserveDuration") {
		return false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && (code.IsMethod(fn, PrometheusPath, "Timer", "ObserveDuration") || code.IsMethod(fn, PrometheusPath, "Timer", "ObserveDurationWithExemplar"))
}

// Elapsed reports whether call computes a duration up to now or up to a
// later timestamp, and returns its start: x in time.Since(x), an injected
// clock's c.Since(x), time.Now().Sub(x) and t.Sub(x), and the expression that gives the end (the call itself for
// time.Since, the receiver of Sub).
func Elapsed(info *types.Info, call *ast.CallExpr) (start, end ast.Expr, ok bool) {
	if name := code.CalleeName(call); len(call.Args) != 1 || (name != "Since" && name != "Sub") {
		return nil, nil, false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return nil, nil, false
	}
	switch {
	case code.IsFunc(fn, "time", "Since"):
		return call.Args[0], call, true
	case fn.Name() == "Since" && (isClockSince(fn) || isRelativeSince(fn)):
		return call.Args[0], call, true // an injected clock: s.clock.Since(start); a relative one: timex.Since(start)
	case code.IsMethod(fn, "time", "Time", "Sub"):
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, nil, false
		}
		return call.Args[0], sel.X, true
	}
	return nil, nil, false
}

// isClockSince reports whether fn is an injected clock's Since, the
// counterpart of the Now IsTimestamp accepts (k8s.io/utils/clock's Clock,
// a service's own clock interface): a method taking one time.Time and
// returning one time.Duration.
func isClockSince(fn *types.Func) bool {
	sig := fn.Signature()
	return sig.Recv() != nil && sig.Params().Len() == 1 && sig.Results().Len() == 1 &&
		code.IsTime(sig.Params().At(0).Type()) && code.IsExactly(sig.Results().At(0).Type(), "time", "Duration")
}

// isRelativeSince reports whether fn is a relative clock's Since, the
// counterpart of a Now that returns a time.Duration: a function taking one
// time.Duration, a reading of that clock, and returning the time.Duration
// since it.
func isRelativeSince(fn *types.Func) bool {
	sig := fn.Signature()
	return sig.Recv() == nil && sig.Params().Len() == 1 && sig.Results().Len() == 1 &&
		isDuration(sig.Params().At(0).Type()) && isDuration(sig.Results().At(0).Type())
}

// IsStartParam reports whether argument i of call is passed to a time.Time
// parameter that a recorder measures from: the parameter is named like a
// start (start, begin, since, from, t0) or the function is named like a
// measurement (MeasureSince, ObserveElapsed, RecordLatency). With anyName,
// any time.Time parameter counts: a deferred call evaluates its arguments at
// the defer, so a time.Now() passed there is always a start.
func IsStartParam(info *types.Info, call *ast.CallExpr, i int, anyName bool) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || i >= len(call.Args) {
		return false
	}
	params := sig.Params()
	var p *types.Var
	switch {
	case sig.Variadic() && i >= params.Len()-1:
		return false // a variadic ...any of a logger is not a start
	case i < params.Len():
		p = params.At(i)
	default:
		return false
	}
	if !code.IsTime(p.Type()) {
		return false
	}
	if anyName {
		return true
	}
	return IsStartName(p.Name()) || isMeasureName(fn.Name())
}

// IsStartName reports whether a time.Time variable's name says it is when a
// measurement started (knowledge.StartWords: start, begin, t0…), not when
// something last happened (lastSeen, modTime: the time since is an age).
func IsStartName(name string) bool { return knowledge.StartWords.Match(strings.ToLower(name)) }

func isMeasureName(name string) bool { return knowledge.MeasureWords.Match(strings.ToLower(name)) }
