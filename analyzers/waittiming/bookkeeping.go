package waittiming

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
	"github.com/queuecheck/queuecheck/analyzers/internal/timing"
)

// Bookkeeping is no work, wherever it is declared. A call of a package that
// only records (knowledge list quiet-packages: logging, formatting,
// metrics; Prometheus's client) does no work a figure measures, and
// neither does a function of the service whose body only makes such calls:
// a metrics package of its own (l.metrics.RecordRowsChange("job", op, n),
// which updates a Prometheus vector), a logging helper. Such a function
// gets a bookkeepingFact, exported to the packages that import its own, so
// that a figure's work, a retrying wrapper's only work and the work after a
// wait are judged the same whether the recording is inline or behind the
// service's helper.
//
// A function is bookkeeping when it makes at least one call that records
// (a package of knowledge list recording-packages, Prometheus's client,
// another bookkeeping function, or a method of a metrics interface:
// isMetricsSink) and every call it makes is quiet: of a quiet package, builtin, a
// conversion, or of another bookkeeping function. It may not start a
// goroutine, use a channel, sleep, or wait (time.Sleep, a timer, a Wait
// method): those are what a figure measures. A call of a func value is no
// bookkeeping: what it runs is not in view.

// bookkeepingFact marks a function whose body only records.
type bookkeepingFact struct{}

func (*bookkeepingFact) AFact() {}

func (*bookkeepingFact) String() string { return "bookkeeping" }

// bookkeepingFuncs returns the functions of the package, outside test files,
// that are bookkeeping, and exports their facts. A package that imports
// neither a recording package nor one that declares bookkeeping functions
// has none; the standard library is skipped.
func (c *env) bookkeepingFuncs() map[*types.Func]bool {
	if code.IsStd(c.pass) || !c.importsRecording() {
		return nil
	}
	bodies := make(map[*types.Func]*ast.BlockStmt)
	for file := range c.insp.Root().Children() {
		if strings.HasSuffix(c.pass.Fset.File(file.Node().Pos()).Name(), "_test.go") {
			continue
		}
		for d := range file.Children() {
			fd, ok := d.Node().(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				bodies[fn] = fd.Body
			}
		}
	}
	// The least set closed under "records, and every call is quiet or of
	// one in the set": start from none and add those whose calls the set
	// now covers, until none is added. A function that calls itself (a
	// pure recursive walk) is never added, nor one that calls a function
	// of the package that records nothing (work, for all the check knows).
	keep := make(map[*types.Func]bool)
	for changed := true; changed; {
		changed = false
		for fn, body := range bodies {
			if !keep[fn] && c.onlyRecords(body, keep) {
				keep[fn] = true
				changed = true
			}
		}
	}
	for fn := range keep {
		c.pass.ExportObjectFact(fn, &bookkeepingFact{})
	}
	return keep
}

// importsRecording reports whether the package imports a package whose
// calls record, or one that declares bookkeeping functions.
func (c *env) importsRecording() bool {
	imports := make(map[*types.Package]bool)
	for _, imp := range c.pass.Pkg.Imports() {
		if isRecordingPackage(imp.Path()) {
			return true
		}
		imports[imp] = true
	}
	for _, f := range c.pass.AllObjectFacts() {
		if _, ok := f.Fact.(*bookkeepingFact); ok && imports[f.Object.Pkg()] {
			return true
		}
	}
	return false
}

func isRecordingPackage(path string) bool {
	return knowledge.RecordingPackages.Has(path) || strings.HasPrefix(path, timing.PrometheusPath)
}

func isQuietPackage(path string) bool {
	return knowledge.QuietPackages.Has(path) || strings.HasPrefix(path, timing.PrometheusPath)
}

// onlyRecords reports whether body makes at least one call that records
// and no call or statement that works or waits; keep holds the package's
// functions found bookkeeping so far.
func (c *env) onlyRecords(body *ast.BlockStmt, keep map[*types.Func]bool) bool {
	info := c.pass.TypesInfo
	records, quiet := false, true
	ast.Inspect(body, func(n ast.Node) bool {
		if !quiet {
			return false
		}
		switch n := n.(type) {
		case *ast.GoStmt, *ast.SendStmt, *ast.SelectStmt, *ast.FuncLit:
			quiet = false
		case *ast.UnaryExpr:
			quiet = n.Op != token.ARROW
		case *ast.RangeStmt:
			if t := info.TypeOf(n.X); t != nil {
				_, isChan := t.Underlying().(*types.Chan)
				quiet = !isChan
			}
		case *ast.CallExpr:
			if tv, ok := info.Types[n.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
				return true
			}
			fn, ok := typeutil.Callee(info, n).(*types.Func)
			switch {
			case !ok:
				quiet = false // a func value: what it runs is not in view
			case fn.Pkg() == nil:
				// err.Error()
			case pausesOrWaits(fn):
				quiet = false
			case isMetricsSink(fn):
				records = true
			case fn.Pkg() == c.pass.Pkg:
				quiet = keep[fn.Origin()]
				records = records || quiet
			case isQuietPackage(fn.Pkg().Path()):
				records = records || isRecordingPackage(fn.Pkg().Path())
			case c.importedBookkeeping(fn):
				records = true
			default:
				quiet = false
			}
		}
		return quiet
	})
	return quiet && records
}

// pausesOrWaits reports whether fn, of a quiet package, pauses or waits:
// time.Sleep and the timers, a Wait method (sync.WaitGroup, sync.Cond).
func pausesOrWaits(fn *types.Func) bool {
	if fn.Name() == "Wait" {
		return true
	}
	if fn.Pkg().Path() != "time" || code.Recv(fn) != nil {
		return false
	}
	switch fn.Name() {
	case "Sleep", "After", "AfterFunc", "NewTimer", "NewTicker", "Tick":
		return true
	}
	return false
}

// importedBookkeeping reports whether fn, of another package, has a
// bookkeepingFact.
func (c *env) importedBookkeeping(fn *types.Func) bool {
	return c.pass.ImportObjectFact(fn.Origin(), new(bookkeepingFact))
}

// isBookkeeping reports whether a call of fn only records: a function of
// this package found so, one of another with the fact, or a method of a
// metrics interface (isMetricsSink).
func (c *env) isBookkeeping(fn *types.Func) bool {
	if isMetricsSink(fn) {
		return true
	}
	if fn.Pkg() == c.pass.Pkg {
		return c.bookkeeping[fn.Origin()]
	}
	return fn.Pkg() != nil && c.importedBookkeeping(fn)
}

// isMetricsSink reports whether fn is a method of an interface whose name
// says it records metrics (knowledge list metrics-type-words) that takes
// no context and returns nothing: SetStatusUpdateTotal(kind) of a
// StatusMetrics. A service declares such an interface as the seam between
// its logic and its Prometheus vectors, and the implementation is often in
// a package the caller does not import, where no fact reaches; the shape
// says what it does: a method that can neither fail nor be cancelled, of a
// type named for recording.
func isMetricsSink(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil || fn.Signature().Results().Len() > 0 {
		return false
	}
	named, ok := types.Unalias(recv.Type()).(*types.Named)
	if !ok || !types.IsInterface(named) || !knowledge.MetricsTypeWords.Match(named.Obj().Name()) {
		return false
	}
	for v := range fn.Signature().Params().Variables() {
		if code.IsContext(v.Type()) {
			return false
		}
	}
	return true
}
